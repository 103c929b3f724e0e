// expect: errors
// flags:
// The defect: `main` no longer enlarges the device heap, so the 16 MiB
// `new int[]` finds the default 8 MiB heap too small and returns null, as
// CUDA's device allocator does, and `count` writes through it
// (program_device_heap.cu is the correct program).
#include <cstdio>

struct Counter {
  __device__ explicit Counter(int size) : size(size), cells(new int[size]) {}
  __device__ virtual ~Counter() { delete[] cells; }
  __device__ virtual void add(int i) { atomicAdd(&cells[i % size], 1); }
  int size;
  int *cells;
};

__global__ void create(Counter **slot, int size) { *slot = new Counter(size); }
__global__ void count(Counter **slot) { (*slot)->add(blockIdx.x * blockDim.x + threadIdx.x); }
__global__ void destroy(Counter **slot) { delete *slot; }

int main() {
  const int cells = 4 << 20;  // 16 MiB of counters: more than the default 8 MiB heap
  Counter **slot;
  cudaMalloc(&slot, sizeof(Counter *));
  create<<<1, 1>>>(slot, cells);
  count<<<4, 128>>>(slot);
  destroy<<<1, 1>>>(slot);
  cudaFree(slot);
  printf("done\n");
  return 0;
}
