// Harris's reduction #6: completely unrolled for a block size known at
// compile time (a template parameter), the first add during the global
// load, and the last warp through volatile shared memory with __syncwarp.
// Instantiated for 128 threads; launch it with --blockDim=128.

template <unsigned blockSize>
__device__ void warp_reduce(volatile int *sdata, unsigned tid) {
  int v = sdata[tid];
  if (blockSize >= 64) { v += sdata[tid + 32]; __syncwarp(); sdata[tid] = v; __syncwarp(); }
  if (blockSize >= 32) { v += sdata[tid + 16]; __syncwarp(); sdata[tid] = v; __syncwarp(); }
  if (blockSize >= 16) { v += sdata[tid + 8]; __syncwarp(); sdata[tid] = v; __syncwarp(); }
  if (blockSize >= 8) { v += sdata[tid + 4]; __syncwarp(); sdata[tid] = v; __syncwarp(); }
  if (blockSize >= 4) { v += sdata[tid + 2]; __syncwarp(); sdata[tid] = v; __syncwarp(); }
  if (blockSize >= 2) { v += sdata[tid + 1]; __syncwarp(); sdata[tid] = v; }
}

template <unsigned blockSize>
__global__ void reduce6(int *out, const int *in) {
  __shared__ int sdata[blockSize];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * (2 * blockSize) + tid;
  sdata[tid] = in[i] + in[i + blockSize];
  __syncthreads();
  if (blockSize >= 1024) { if (tid < 512) sdata[tid] += sdata[tid + 512]; __syncthreads(); }
  if (blockSize >= 512) { if (tid < 256) sdata[tid] += sdata[tid + 256]; __syncthreads(); }
  if (blockSize >= 256) { if (tid < 128) sdata[tid] += sdata[tid + 128]; __syncthreads(); }
  if (blockSize >= 128) { if (tid < 64) sdata[tid] += sdata[tid + 64]; __syncthreads(); }
  if (tid < 32)
    warp_reduce<blockSize>(sdata, tid);
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}

template __global__ void reduce6<128>(int *out, const int *in);
