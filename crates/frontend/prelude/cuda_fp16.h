/* lockstep prelude: a minimal <cuda_fp16.h>. Half-precision values are
 * 16-bit structs; arithmetic, comparisons and conversions are body-less
 * (uninterpreted) device functions, like the other float operations. */
#ifndef LOCKSTEP_INC_CUDA_FP16_H
#define LOCKSTEP_INC_CUDA_FP16_H
#include "lockstep_cuda.h"

struct __attribute__((aligned(2))) __half {
  unsigned short __x;
};
struct __attribute__((aligned(4))) __half2 {
  __half x, y;
};
typedef struct __half half;
typedef struct __half2 half2;
typedef unsigned short __half_raw_bits;

__device__ __half __float2half(float);
__device__ __half __float2half_rn(float);
__device__ __half __float2half_rz(float);
__device__ float __half2float(__half);
__device__ __half __int2half_rn(int);
__device__ int __half2int_rn(__half);
__device__ int __half2int_rz(__half);
__device__ __half __ushort_as_half(unsigned short);
__device__ unsigned short __half_as_ushort(__half);
__device__ __half2 __float2half2_rn(float);
__device__ __half2 __floats2half2_rn(float, float);
__device__ __half2 __halves2half2(__half, __half);
__device__ __half2 __half2half2(__half);
__device__ float2 __half22float2(__half2);
__device__ float __low2float(__half2);
__device__ float __high2float(__half2);
__device__ __half __low2half(__half2);
__device__ __half __high2half(__half2);
#define __LS_HALF_OPS(H)                                                              \
  __device__ H __hadd(H, H); __device__ H __hsub(H, H); __device__ H __hmul(H, H);    \
  __device__ H __hdiv(H, H); __device__ H __hfma(H, H, H); __device__ H __hneg(H);    \
  __device__ H __habs(H); __device__ H __hmax(H, H); __device__ H __hmin(H, H);       \
  __device__ H operator+(const H &, const H &); __device__ H operator-(const H &, const H &); \
  __device__ H operator*(const H &, const H &); __device__ H operator/(const H &, const H &); \
  __device__ H operator-(const H &);                                                  \
  __device__ H &operator+=(H &, const H &); __device__ H &operator-=(H &, const H &); \
  __device__ H &operator*=(H &, const H &); __device__ H &operator/=(H &, const H &);
__LS_HALF_OPS(__half)
__LS_HALF_OPS(__half2)
#undef __LS_HALF_OPS
__device__ __half2 __hadd2(__half2, __half2);
__device__ __half2 __hsub2(__half2, __half2);
__device__ __half2 __hmul2(__half2, __half2);
__device__ __half2 __h2div(__half2, __half2);
__device__ __half2 __hfma2(__half2, __half2, __half2);
__device__ bool __heq(__half, __half);
__device__ bool __hne(__half, __half);
__device__ bool __hlt(__half, __half);
__device__ bool __hle(__half, __half);
__device__ bool __hgt(__half, __half);
__device__ bool __hge(__half, __half);
__device__ bool __hisnan(__half);
__device__ bool operator==(const __half &, const __half &);
__device__ bool operator!=(const __half &, const __half &);
__device__ bool operator<(const __half &, const __half &);
__device__ bool operator<=(const __half &, const __half &);
__device__ bool operator>(const __half &, const __half &);
__device__ bool operator>=(const __half &, const __half &);
__device__ __half hsqrt(__half);
__device__ __half hexp(__half);
__device__ __half hlog(__half);
__device__ __half hrsqrt(__half);
__device__ __half2 h2sqrt(__half2);
__device__ __half2 h2exp(__half2);
__device__ __half atomicAdd(__half *, __half);
__device__ __half2 atomicAdd(__half2 *, __half2);
#endif
