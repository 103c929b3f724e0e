// expect: errors
// flags: --kernel-jobs=1
// A whole program whose kernel needs the CUDA toolkit's headers
// (`cooperative_groups/reduce.h`, which lockstep's own headers lack),
// checked with one job: the host side is compiled after the device side,
// against the headers the device side needed. Each tile of 32 threads sums
// its values with `cg::reduce`, and its first thread writes the tile's sum.
// The bug: the host allocates one sum too few, so the last tile writes past
// the buffer.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cstdio>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

__global__ void tile_sums(const int *in, int *sums, int n) {
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? in[i] : 0;
    int total = cg::reduce(tile, v, cg::plus<int>());
    if (tile.thread_rank() == 0) {
        sums[i / 32] = total;
    }
}

int main() {
    const int n = 256;
    int *in, *sums;
    cudaMalloc(&in, n * sizeof(int));
    cudaMalloc(&sums, (n / 32 - 1) * sizeof(int));
    cudaMemset(in, 0, n * sizeof(int));
    tile_sums<<<2, 128>>>(in, sums, n);
    cudaDeviceSynchronize();
    int host[n / 32 - 1];
    cudaMemcpy(host, sums, sizeof(host), cudaMemcpyDeviceToHost);
    printf("%d\n", host[0]);
    cudaFree(in);
    cudaFree(sums);
    return 0;
}
