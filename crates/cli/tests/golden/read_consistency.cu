// expect: verified
// flags: --blockDim=[8,8] --gridDim=1
// A thread reads m[y][x], then m[y][k] and m[k][x], and writes m[y][x] only
// if the first is 0 and the others are not. The thread (y,k) that owns
// m[y][k] would need m[y][k] to be both 0 and not 0: its two reads of one
// location, with no write of its own between them, see the same value (a
// write by another thread between them would be a race, which is checked).
// So no thread writes an element another thread reads in this interval.

#define N 8

__global__ void closure(unsigned *g) {
  __shared__ unsigned m[N * N];
  unsigned y = threadIdx.y, x = threadIdx.x;
  m[y * N + x] = g[y * N + x];
  __syncthreads();
  for (unsigned k = 0; k < N; ++k) {
    if (m[y * N + x] == 0) {
      if (m[y * N + k] != 0 && m[k * N + x] != 0) {
        m[y * N + x] = k + 2;
      }
    }
    __syncthreads();
  }
  g[y * N + x] = m[y * N + x];
}
