/* lockstep prelude for CUDA files compiled against a real CUDA toolkit
 * (force-included with -include lockstep_toolkit.h; see driver.rs).
 *
 * The toolkit's own headers (through clang's CUDA wrapper) declare the CUDA
 * language and runtime; this header adds only what no toolkit has: the
 * GPUVerify annotation language, and, for the host side, the three functions
 * of the CUDA 9.0 launch sequence that the host lowering turns into launches
 * (the host side is compiled with -target-sdk-version=9.0, so clang emits
 * `cudaConfigureCall` at a launch and `cudaSetupArgument`/`cudaLaunch` in the
 * launch stub; CUDA 12's headers no longer declare them).
 */
#ifndef LOCKSTEP_TOOLKIT_H
#define LOCKSTEP_TOOLKIT_H

#if !defined(__CUDA__)
#error "lockstep_toolkit.h is for CUDA compilations (-x cuda)"
#endif

#define __LOCKSTEP__ 1
#define __LOCKSTEP_TOOLKIT__ 1

/* Cooperative groups' multi-warp tiles keep their scratch memory in the
 * `__shared__` block_tile_memory the program declares, as before sm_80, not
 * in shared memory reserved by the driver and reached through inline PTX:
 * the same algorithm, on an object the verifier can see. */
#define _CG_USER_PROVIDED_SHARED_MEMORY 1

/* CCCL 12.9 indexes type packs with C++26 pack indexing when the compiler
 * announces it and is newer than clang 19; its version test reads clang
 * 19.1 as newer, and clang 19's pack indexing fails inside SFINAE (thrust's
 * zip_iterator does not compile). Without the feature macro CCCL uses its
 * portable implementation. */
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wbuiltin-macro-redefined"
#undef __cpp_pack_indexing
#pragma clang diagnostic pop

#include <cuda_runtime.h>

/* nvcc's cuda_runtime.h reaches crt/common_functions.h, which includes the
 * C headers below, so CUDA code (and NVRTC code, which has no includes at
 * all) calls assert(), printf() and clock() without including anything;
 * clang's CUDA wrapper defines that header's guard and includes only
 * <stdlib.h> and <string.h>. The same headers here make a file compile as
 * it does with nvcc. <assert.h> honours NDEBUG as the file defines it
 * before its own include, which re-evaluates the macro. */
#include <assert.h>
#include <stdio.h>
#include <time.h>
#include <new>

#if !defined(__CUDA_ARCH__)
extern "C" cudaError_t cudaConfigureCall(dim3 gridDim, dim3 blockDim, size_t sharedMem = 0, cudaStream_t stream = 0);
extern "C" cudaError_t cudaSetupArgument(const void *arg, size_t size, size_t offset);
extern "C" cudaError_t cudaLaunch(const void *func);
#endif
#include "lockstep_device_model.h"

/* The surface functions of CUDA's surface_indirect_functions.h, which
 * clang's CUDA headers leave out (nvcc implements them with builtins clang
 * lacks). Declared without a body: the lowering reports a kernel that calls
 * one as unsupported, so that the file's other kernels are still checked. */
#if defined(__CUDA_ARCH__)
template <class T> __device__ void surf1Dwrite(T, cudaSurfaceObject_t, int, cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);
template <class T> __device__ void surf2Dwrite(T, cudaSurfaceObject_t, int, int, cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);
template <class T> __device__ void surf3Dwrite(T, cudaSurfaceObject_t, int, int, int, cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);
template <class T> __device__ void surf1DLayeredwrite(T, cudaSurfaceObject_t, int, int, cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);
template <class T> __device__ void surf2DLayeredwrite(T, cudaSurfaceObject_t, int, int, int, cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);
template <class T> __device__ void surfCubemapwrite(T, cudaSurfaceObject_t, int, int, int, cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);
template <class T> __device__ void surfCubemapLayeredwrite(T, cudaSurfaceObject_t, int, int, int, cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);
template <class T> __device__ T surf1Dread(cudaSurfaceObject_t, int, cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);
template <class T> __device__ T surf2Dread(cudaSurfaceObject_t, int, int, cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);
template <class T> __device__ T surf3Dread(cudaSurfaceObject_t, int, int, int, cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);
template <class T> __device__ void surf1Dread(T *, cudaSurfaceObject_t, int, cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);
template <class T> __device__ void surf2Dread(T *, cudaSurfaceObject_t, int, int, cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);
template <class T> __device__ void surf3Dread(T *, cudaSurfaceObject_t, int, int, int, cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);
#else
template <class T> __host__ __device__ void surf1Dwrite(T, cudaSurfaceObject_t, int, cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);
template <class T> __host__ __device__ void surf2Dwrite(T, cudaSurfaceObject_t, int, int, cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);
template <class T> __host__ __device__ void surf3Dwrite(T, cudaSurfaceObject_t, int, int, int, cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);
template <class T> __host__ __device__ void surf1DLayeredwrite(T, cudaSurfaceObject_t, int, int, cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);
template <class T> __host__ __device__ void surf2DLayeredwrite(T, cudaSurfaceObject_t, int, int, int, cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);
template <class T> __host__ __device__ void surfCubemapwrite(T, cudaSurfaceObject_t, int, int, int, cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);
template <class T> __host__ __device__ void surfCubemapLayeredwrite(T, cudaSurfaceObject_t, int, int, int, cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);
template <class T> __host__ __device__ T surf1Dread(cudaSurfaceObject_t, int, cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);
template <class T> __host__ __device__ T surf2Dread(cudaSurfaceObject_t, int, int, cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);
template <class T> __host__ __device__ T surf3Dread(cudaSurfaceObject_t, int, int, int, cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);
template <class T> __host__ __device__ void surf1Dread(T *, cudaSurfaceObject_t, int, cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);
template <class T> __host__ __device__ void surf2Dread(T *, cudaSurfaceObject_t, int, int, cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);
template <class T> __host__ __device__ void surf3Dread(T *, cudaSurfaceObject_t, int, int, int, cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);
#endif

/* nvcc's math_functions.hpp gives host code the integer and floating-point
 * min and max overloads that clang's CUDA headers give only device code. */
#define __LS_HOST_MINMAX(T)                                                      \
  static inline __host__ T min(T a, T b) { return a < b ? a : b; }             \
  static inline __host__ T max(T a, T b) { return a > b ? a : b; }
__LS_HOST_MINMAX(int)
__LS_HOST_MINMAX(unsigned int)
__LS_HOST_MINMAX(long long)
__LS_HOST_MINMAX(unsigned long long)
__LS_HOST_MINMAX(long)
__LS_HOST_MINMAX(unsigned long)
__LS_HOST_MINMAX(float)
__LS_HOST_MINMAX(double)
#undef __LS_HOST_MINMAX
/* Mixed operands, as nvcc's overloads take them: the unsigned or wider type. */
#define __LS_HOST_MINMAX_MIXED(R, A, B)                                          \
  static inline __host__ R min(A a, B b) { return (R)a < (R)b ? (R)a : (R)b; } \
  static inline __host__ R max(A a, B b) { return (R)a > (R)b ? (R)a : (R)b; } \
  static inline __host__ R min(B a, A b) { return (R)a < (R)b ? (R)a : (R)b; } \
  static inline __host__ R max(B a, A b) { return (R)a > (R)b ? (R)a : (R)b; }
__LS_HOST_MINMAX_MIXED(unsigned int, int, unsigned int)
__LS_HOST_MINMAX_MIXED(unsigned long, long, unsigned long)
__LS_HOST_MINMAX_MIXED(unsigned long long, long long, unsigned long long)
__LS_HOST_MINMAX_MIXED(double, float, double)
#undef __LS_HOST_MINMAX_MIXED

#include "lockstep_annotations.h"

#endif /* LOCKSTEP_TOOLKIT_H */
