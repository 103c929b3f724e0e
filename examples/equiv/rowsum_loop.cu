// Each thread sums one row of an n-column matrix with a plain loop whose
// trip count is the argument n (no barrier).

__global__ void rowsum(int *out, const int *in, unsigned n) {
  unsigned r = blockIdx.x * blockDim.x + threadIdx.x;
  int sum = 0;
  for (unsigned k = 0; k < n; k++)
    sum += in[r * n + k];
  out[r] = sum;
}
