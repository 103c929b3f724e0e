// Harris's reduction #7: several elements per thread. Each thread first
// accumulates in a register with a grid-stride loop (stride: the whole
// grid's 2 * blockSize * gridDim.x elements), then the block sums the
// registers as #6 does. On a launch that covers the input exactly (the
// precondition) the loop runs once per thread.

template <unsigned blockSize>
__device__ void warp_sum(volatile int *s, unsigned tid) {
  int v = s[tid];
  v += s[tid + 32]; __syncwarp(); s[tid] = v; __syncwarp();
  v += s[tid + 16]; __syncwarp(); s[tid] = v; __syncwarp();
  v += s[tid + 8]; __syncwarp(); s[tid] = v; __syncwarp();
  v += s[tid + 4]; __syncwarp(); s[tid] = v; __syncwarp();
  v += s[tid + 2]; __syncwarp(); s[tid] = v; __syncwarp();
  v += s[tid + 1]; __syncwarp(); s[tid] = v;
}

template <unsigned blockSize>
__global__ void reduce7(int *out, const int *in, unsigned n) {
  __requires(n == 2 * blockSize * gridDim.x);
  __shared__ int s[blockSize];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * (2 * blockSize) + tid;
  unsigned stride = 2 * blockSize * gridDim.x;
  int sum = 0;
  while (i < n) {
    sum += in[i] + in[i + blockSize];
    i += stride;
  }
  s[tid] = sum;
  __syncthreads();
  if (blockSize >= 256) { if (tid < 128) s[tid] += s[tid + 128]; __syncthreads(); }
  if (blockSize >= 128) { if (tid < 64) s[tid] += s[tid + 64]; __syncthreads(); }
  if (tid < 32)
    warp_sum<blockSize>(s, tid);
  if (tid == 0)
    out[blockIdx.x] = s[0];
}

template __global__ void reduce7<128>(int *out, const int *in, unsigned n);
