// expect: verified
// flags:
// Tables of strings, as device-query helpers keep them: a global array of
// names and a local table of (number, name) pairs ending in a sentinel.
// Their initial contents hold the addresses of string literals.
#include <cassert>

const char *level_names[] = {"low", "medium", "high"};

__global__ void mark(int *flags, int level) {
  flags[threadIdx.x] = level;
}

const char *architecture(int version) {
  struct entry {
    int version;
    const char *name;
  };
  entry table[] = {{0x60, "Pascal"}, {0x70, "Volta"}, {0x80, "Ampere"}, {-1, "unknown"}};
  int index = 0;
  while (table[index].version != -1) {
    if (table[index].version == version) {
      return table[index].name;
    }
    index++;
  }
  return table[index].name;
}

int main() {
  assert(architecture(0x70)[0] == 'V');
  assert(architecture(0x99)[0] == 'u');
  assert(level_names[2][0] == 'h');
  int *flags;
  cudaMalloc(&flags, 32 * sizeof(int));
  mark<<<1, 32>>>(flags, 2);
  cudaFree(flags);
  return 0;
}
