// expect: errors
// flags:
//
// The same legacy SDK checks around a defective program: the copy back
// asks for twice the device buffer's bytes. CUDA_SAFE_CALL does not hide
// the misuse: the runtime refuses the copy, the macro exits with
// EXIT_FAILURE, and lockstep reports the call that went wrong.
#include <cutil.h>
#include <cutil_inline.h>
#include <assert.h>

#define N 16

__global__ void scale(float *x, float factor) { x[threadIdx.x] = factor * threadIdx.x; }

int main(int argc, char **argv) {
  float *host = (float *)malloc(2 * N * sizeof(float));
  cutilSafeMalloc(host);
  float *dev;
  CUDA_SAFE_CALL(cudaMalloc((void **)&dev, N * sizeof(float)));
  scale<<<1, N>>>(dev, 2.0f);
  CUT_CHECK_ERROR("scale failed");
  CUDA_SAFE_CALL(cudaMemcpy(host, dev, 2 * N * sizeof(float), cudaMemcpyDeviceToHost));
  CUDA_SAFE_CALL(cudaFree(dev));
  free(host);
  CUT_EXIT(argc, argv);
}
