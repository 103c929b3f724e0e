// expect: verified
// flags: --blockDim=256 --gridDim=1024
// Two block reductions in a row over one shared buffer (a sum, then a sum
// of squares around the mean), each a tree loop with a barrier, then a
// strided write of the block's slice. Houdini settles the first loop's
// invariants before it asks about the loops after it, and asks each loop's
// questions of a solver that holds only what they mention.
#define B 256

__global__ void two_reductions(const float *in, float *out, int n) {
  __shared__ float buf[B];
  int t = threadIdx.x;
  const float *x = in + blockIdx.x * B;
  buf[t] = x[t];
  __syncthreads();
  for (int s = B / 2; s > 0; s >>= 1) {
    if (t < s)
      buf[t] += buf[t + s];
    __syncthreads();
  }
  float mean = buf[0] / B;
  __syncthreads();
  float d = x[t] - mean;
  buf[t] = d * d;
  __syncthreads();
  for (int s = B / 2; s > 0; s >>= 1) {
    if (t < s)
      buf[t] += buf[t + s];
    __syncthreads();
  }
  if (t == 0)
    out[blockIdx.x] = buf[0];
}
