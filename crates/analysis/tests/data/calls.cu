__device__ __attribute__((noinline)) int clampi(int x, int lo, int hi) {
  if (x < lo) return lo;
  if (x > hi) return hi;
  return x;
}

__device__ __attribute__((noinline)) int pick(const int *a, int i, int n) {
  __requires(n > 0);
  __ensures(__return_val_int() >= 0);
  int j = clampi(i, 0, n - 1);
  int tmp[4];
  tmp[j & 3] = a[j];
  return tmp[i & 3] < 0 ? 0 : tmp[i & 3];
}

__global__ void k(const int *a, int *out, int n) {
  __shared__ int s[256];
  unsigned t = threadIdx.x;
  s[t] = pick(a, t, n);
  if (t < 32) {
    __syncthreads();
  }
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < 4; j++) {
      if (s[j] == 7) break;
      out[blockIdx.x * 256 + t] += s[(t + j) % 256];
    }
  }
}
