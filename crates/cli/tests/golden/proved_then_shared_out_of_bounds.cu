// expect: errors
// flags: --blockDim=64 --gridDim=1
// Race-free and barrier-correct, so the prover proves what it checks; the
// write to `tile` leaves the array when `shift` is positive, an
// out-of-bounds access the prover does not look for. The finder, which
// runs after the proof for the properties the proof does not cover, must
// find it (the concrete search's `shift`, the thread count, skips the
// write).
__global__ void shifted_copy(int *out, const int *in, int shift) {
  __shared__ int tile[64];
  if (shift < 64) {
    tile[threadIdx.x + shift] = in[threadIdx.x];
  }
  __syncthreads();
  out[threadIdx.x] = tile[(threadIdx.x + 1) % 64];
}
