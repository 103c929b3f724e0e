// expect: verified
// flags: --kernel=stride_fill<2> --blockDim=64 --gridDim=1
// `--kernel` takes the name the report shows for one instantiation of a
// template kernel: only `stride_fill<2>` is checked here, not the racy
// `stride_fill<0>` (every thread writes its id to out[0]).
template <int S> __global__ void stride_fill(int *out) { out[threadIdx.x * S] = threadIdx.x; }

template __global__ void stride_fill<0>(int *);
template __global__ void stride_fill<2>(int *);
