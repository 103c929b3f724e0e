// expect: verified
// flags:
//
// The legacy SDK's <cutil.h> and <cutil_inline.h> as a CUDA 2-4 program
// used them. Every checked call succeeds, so each check falls through; the
// timers only measure. CUT_EXIT ends the program with EXIT_SUCCESS, as the
// SDK's macro did, so the assertion after it never runs: the program is
// correct although that assertion would fail.
#include <cutil.h>
#include <cutil_inline.h>
#include <assert.h>

#define N 16

__global__ void scale(float *x, float factor) { x[threadIdx.x] = factor * threadIdx.x; }

int main(int argc, char **argv) {
  CUT_DEVICE_INIT(argc, argv);
  unsigned int timer = 0;
  CUT_SAFE_CALL(cutCreateTimer(&timer));
  CUT_SAFE_CALL(cutStartTimer(timer));

  float *host;
  CUT_SAFE_MALLOC(host = (float *)malloc(N * sizeof(float)));
  float *reference = (float *)malloc(N * sizeof(float));
  cutilSafeMalloc(reference);
  for (int i = 0; i < N; i++)
    reference[i] = 2.0f * i;

  float *dev;
  CUDA_SAFE_CALL(cudaMalloc((void **)&dev, N * sizeof(float)));
  scale<<<1, N>>>(dev, 2.0f);
  CUT_CHECK_ERROR("scale failed");
  cutilCheckMsg("scale failed");
  cutilSafeCall(cudaMemcpy(host, dev, N * sizeof(float), cudaMemcpyDeviceToHost));
  CUDA_SAFE_CALL_NO_SYNC(cudaThreadSynchronize());
  cutilDeviceSynchronize();
  CUT_SAFE_CALL(cutStopTimer(timer));
  CUT_SAFE_CALL(cutDeleteTimer(timer));

  // The comparison is the SDK's own, defined by the prelude in plain C.
  assert(cutComparef(reference, host, N) == CUTTrue);
  CUT_SAFE_CALL(cutComparef(reference, host, N));

  CUDA_SAFE_CALL(cudaFree(dev));
  free(host);
  free(reference);
  CUT_EXIT(argc, argv);
  assert(0);
}
