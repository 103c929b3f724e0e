// expect: verified
// flags:
//
// The program asks for a count until it gets one from 1 to 2: a loop that
// only prints and reads input. Its runs would never end if each read gave
// the same value, and every extra round is a new path. lockstep sees that
// a round changes nothing but the values read, so the values after any
// number of rounds are any values (the second round starts from unknown
// values and a third is the same again); with that, the paths are few,
// and the kernel, which branches on the count, and the host's check are
// verified for every input. Compare with program_input_paths_retry_bug.cu.
#include <cuda_runtime.h>
#include <assert.h>
#include <stdio.h>

#define N 2

__global__ void mark(int *x, int n) {
  if (threadIdx.x < n)
    x[threadIdx.x] = 1;
  else
    x[threadIdx.x] = 0;
}

int main() {
  int n = 0;
  do {
    printf("how many (1 to %d)? ", N);
    scanf("%d", &n);
  } while (n < 1 || n > N);
  int h[N];
  int *d;
  cudaMalloc((void **)&d, N * sizeof(int));
  mark<<<1, N>>>(d, n);
  cudaMemcpy(h, d, N * sizeof(int), cudaMemcpyDeviceToHost);
  int marked = 0;
  for (int i = 0; i < N; i++)
    if (h[i] == 1)
      marked++;
  assert(marked == n);
  cudaFree(d);
  return 0;
}
