// expect: errors
// flags: --blockDim=64 --gridDim=2
// One template, two instantiations: with a stride of 1 every thread of a
// block doubles its own element; with a stride of 0 every thread doubles
// element 0, a race. Each instantiation is reported under its own name.
template <int STRIDE>
__global__ void scale(float *a) {
  int i = blockIdx.x * blockDim.x * STRIDE + threadIdx.x * STRIDE;
  a[i] = 2.0f * a[i];
}

template __global__ void scale<1>(float *);
template __global__ void scale<0>(float *);
