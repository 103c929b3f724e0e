// expect: verified
// flags:
// Device-side `new`: one kernel builds an object on the device heap, after
// `main` made the heap large enough for it, and a later kernel calls its
// virtual method through the pointer left in global memory.
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
  cudaDeviceSetLimit(cudaLimitMallocHeapSize, 64 << 20);
  Counter **slot;
  cudaMalloc(&slot, sizeof(Counter *));
  create<<<1, 1>>>(slot, cells);
  count<<<4, 128>>>(slot);
  destroy<<<1, 1>>>(slot);
  cudaFree(slot);
  printf("done\n");
  return 0;
}
