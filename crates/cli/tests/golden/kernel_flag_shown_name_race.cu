// expect: errors
// flags: --kernel=stride_fill<0> --blockDim=64 --gridDim=1
// kernel_flag_shown_name.cu, naming the racy instantiation: with a stride of
// 0 every thread writes its id to out[0].
template <int S> __global__ void stride_fill(int *out) { out[threadIdx.x * S] = threadIdx.x; }

template __global__ void stride_fill<0>(int *);
template __global__ void stride_fill<2>(int *);
