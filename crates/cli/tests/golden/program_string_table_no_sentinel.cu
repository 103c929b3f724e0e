// expect: errors
// flags:
// The table of program_string_table.cu without its sentinel: looking up a
// version it does not list reads past its end.
#include <cassert>

__global__ void mark(int *flags, int level) {
  flags[threadIdx.x] = level;
}

const char *architecture(int version) {
  struct entry {
    int version;
    const char *name;
  };
  entry table[] = {{0x60, "Pascal"}, {0x70, "Volta"}, {0x80, "Ampere"}};
  int index = 0;
  while (table[index].version != version) {
    index++;
  }
  return table[index].name;
}

int main() {
  assert(architecture(0x70)[0] == 'V');
  assert(architecture(0x99)[0] == 'u');
  int *flags;
  cudaMalloc(&flags, 32 * sizeof(int));
  mark<<<1, 32>>>(flags, 2);
  cudaFree(flags);
  return 0;
}
