// Harris's reduction #6 with the input length as an argument, as the
// original takes it: completely unrolled for a template block size, the
// first add during the global load, the last warp through volatile shared
// memory with __syncwarp. The launch must cover the input exactly: each
// block sums 2 * blockSize elements. Instantiated for 128 threads.

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
__global__ void reduce6(int *out, const int *in, unsigned n) {
  __requires(n == 2 * blockSize * gridDim.x);
  __shared__ int s[blockSize];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * (2 * blockSize) + tid;
  s[tid] = in[i] + in[i + blockSize];
  __syncthreads();
  if (blockSize >= 256) { if (tid < 128) s[tid] += s[tid + 128]; __syncthreads(); }
  if (blockSize >= 128) { if (tid < 64) s[tid] += s[tid + 64]; __syncthreads(); }
  if (tid < 32)
    warp_sum<blockSize>(s, tid);
  if (tid == 0)
    out[blockIdx.x] = s[0];
}

template __global__ void reduce6<128>(int *out, const int *in, unsigned n);
