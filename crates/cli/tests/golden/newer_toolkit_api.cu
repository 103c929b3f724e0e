// expect: rejected
// flags: --blockDim=64 --gridDim=1
// Host code written for a newer CUDA than the default toolkit's 12.4: the
// driver's context-creation parameters and the six-argument
// cudaGraphAddNode (with edge data) came later. Rejected, with a note that
// names them and says to pass a newer toolkit with --cuda-path.
#include <cuda.h>
#include <cuda_runtime.h>

__global__ void fill(int *out) { out[threadIdx.x] = 1; }

void make_graph(cudaGraph_t graph) {
  cudaGraphNode_t node;
  cudaGraphNodeParams params = {};
  cudaGraphAddNode(&node, graph, NULL, NULL, 0, &params);
  CUctxCreateParams ctx = {};
  (void)ctx;
}
