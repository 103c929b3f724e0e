/* lockstep prelude for CUDA (force-included with -include lockstep_cuda.h).
 *
 * Our own declarations of the CUDA surface language, written from the public
 * API documentation. Device-side operations with a meaning for verification
 * lower to clang builtins (barriers, atomics, memcpy) or to the __lockstep_*
 * intrinsics of crates/frontend/INTRINSICS.md; everything else (math, bit
 * tricks, random numbers, textures) is a body-less declaration that the
 * lowering treats as an uninterpreted call. Host-side runtime API functions
 * are declared so that whole programs (host main() plus kernels) parse; their
 * bodies are never compiled with --cuda-device-only.
 *
 * Wrappers are `static inline`, always_inline and nodebug: the front-end's
 * always-inline pass removes them and the remaining intrinsic calls carry the
 * user's source location.
 */
#ifndef LOCKSTEP_CUDA_H
#define LOCKSTEP_CUDA_H

#if !defined(__CUDA__)
#error "lockstep_cuda.h is for CUDA compilations (-x cuda)"
#endif

#ifndef __CUDACC__
#define __CUDACC__ 1
#endif
#ifndef CUDA_VERSION
#define CUDA_VERSION 11080
#endif
#ifndef CUDART_VERSION
#define CUDART_VERSION 11080
#endif
#define __LOCKSTEP__ 1

/* ===========================================================================
 * Qualifiers. (__noinline__ is a keyword of clang's CUDA mode.)
 * ========================================================================= */
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __host__ __attribute__((host))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __managed__ __attribute__((managed))
#define __align__(n) __attribute__((aligned(n)))
#define __builtin_align__(n) __attribute__((aligned(n)))
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __restrict__ __restrict
#define __device_builtin__
#define __cudart_builtin__
#define __grid_constant__
#define CUDARTAPI
#define CUDART_CB
#define CUDART_DEVICE __device__

/* Wrapper and intrinsic qualifiers used throughout the prelude. */
#define __LS_DEV static inline __attribute__((always_inline, nodebug, device))
#define __LS_HD static inline __attribute__((always_inline, nodebug, host, device))
#define __LS_INTRIN __attribute__((device))

/* ===========================================================================
 * Basic types.
 * ========================================================================= */
#include <stddef.h>
typedef unsigned int uint;
typedef unsigned short ushort;
typedef unsigned long ulong;
typedef unsigned char uchar;

/* Vector types: name, element type, alignment of the 2- and 4-element kinds. */
#define __LS_VEC(N, T, A2, A4)                                                    \
  struct N##1 { T x; };                                                           \
  struct __attribute__((aligned(A2))) N##2 { T x, y; };                           \
  struct N##3 { T x, y, z; };                                                     \
  struct __attribute__((aligned(A4))) N##4 { T x, y, z, w; };                     \
  typedef struct N##1 N##1;                                                       \
  typedef struct N##2 N##2;                                                       \
  typedef struct N##3 N##3;                                                       \
  typedef struct N##4 N##4;                                                       \
  __LS_HD N##1 make_##N##1(T x) { N##1 r; r.x = x; return r; }                    \
  __LS_HD N##2 make_##N##2(T x, T y) { N##2 r; r.x = x; r.y = y; return r; }      \
  __LS_HD N##3 make_##N##3(T x, T y, T z) {                                       \
    N##3 r; r.x = x; r.y = y; r.z = z; return r;                                  \
  }                                                                               \
  __LS_HD N##4 make_##N##4(T x, T y, T z, T w) {                                  \
    N##4 r; r.x = x; r.y = y; r.z = z; r.w = w; return r;                         \
  }
__LS_VEC(char, signed char, 2, 4)
__LS_VEC(uchar, unsigned char, 2, 4)
__LS_VEC(short, short, 4, 8)
__LS_VEC(ushort, unsigned short, 4, 8)
__LS_VEC(int, int, 8, 16)
__LS_VEC(uint, unsigned int, 8, 16)
__LS_VEC(long, long, 16, 16)
__LS_VEC(ulong, unsigned long, 16, 16)
__LS_VEC(longlong, long long, 16, 16)
__LS_VEC(ulonglong, unsigned long long, 16, 16)
__LS_VEC(float, float, 8, 16)
__LS_VEC(double, double, 16, 16)
#undef __LS_VEC

struct dim3 {
  unsigned int x, y, z;
  __attribute__((host, device, always_inline, nodebug)) constexpr dim3(
      unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1)
      : x(vx), y(vy), z(vz) {}
  __attribute__((host, device, always_inline, nodebug)) constexpr dim3(uint3 v)
      : x(v.x), y(v.y), z(v.z) {}
  __attribute__((host, device, always_inline, nodebug)) constexpr operator uint3() const {
    return uint3{x, y, z};
  }
};
typedef struct dim3 dim3;

/* ===========================================================================
 * Built-in variables: clang's own header (reads of llvm.nvvm.read.ptx.sreg.*)
 * plus the conversions it declares. It also defines warpSize (32).
 * ========================================================================= */
#include <__clang_cuda_builtin_vars.h>

#define __LS_BUILTIN_CONVERSIONS(T)                                             \
  __attribute__((device, always_inline, nodebug)) inline T::operator dim3() const { \
    return dim3(x, y, z);                                                       \
  }                                                                             \
  __attribute__((device, always_inline, nodebug)) inline T::operator uint3() const { \
    return uint3{x, y, z};                                                      \
  }
__LS_BUILTIN_CONVERSIONS(__cuda_builtin_threadIdx_t)
__LS_BUILTIN_CONVERSIONS(__cuda_builtin_blockIdx_t)
__LS_BUILTIN_CONVERSIONS(__cuda_builtin_blockDim_t)
__LS_BUILTIN_CONVERSIONS(__cuda_builtin_gridDim_t)
#undef __LS_BUILTIN_CONVERSIONS

/* ===========================================================================
 * Synchronisation. __syncthreads() is a clang builtin (llvm.nvvm.barrier0).
 * ========================================================================= */
__LS_INTRIN void __lockstep_grid_sync(void);
__LS_INTRIN void __lockstep_warp_sync(unsigned int mask);
__LS_INTRIN void __lockstep_fence(int flags);
__LS_INTRIN void __lockstep_barrier(int flags);
__LS_INTRIN unsigned int __lockstep_lane_id(void);

__LS_DEV int __syncthreads_count(int pred) { return __nvvm_bar0_popc(pred); }
__LS_DEV int __syncthreads_and(int pred) { return __nvvm_bar0_and(pred); }
__LS_DEV int __syncthreads_or(int pred) { return __nvvm_bar0_or(pred); }
/* Fences order shared (1) and global (2) memory. */
__LS_DEV void __threadfence_block(void) { __lockstep_fence(3); }
__LS_DEV void __threadfence(void) { __lockstep_fence(3); }
__LS_DEV void __threadfence_system(void) { __lockstep_fence(3); }
__LS_DEV void __syncwarp(unsigned int mask = 0xffffffffu) { __lockstep_warp_sync(mask); }

/* ===========================================================================
 * Atomics: __atomic_* builtins (atomicrmw / cmpxchg), relaxed like CUDA's.
 * ========================================================================= */
__LS_INTRIN unsigned int __lockstep_atomic_inc(unsigned int *p, unsigned int v);
__LS_INTRIN unsigned int __lockstep_atomic_dec(unsigned int *p, unsigned int v);
/* Marks the atomic that follows it, on `p`, as block-scoped
 * (`atomicAdd_block`...): it is atomic only among the threads of one block,
 * so two blocks updating one location with it race (`AtomicScope::Block`). */
__LS_INTRIN void __lockstep_block_scoped_atomic(const volatile void *p);

#define __LS_ATOMIC_RMW(NAME, BUILTIN, T)                                       \
  __LS_DEV T NAME(T *p, T v) { return BUILTIN(p, v, __ATOMIC_RELAXED); }          \
  __LS_DEV T NAME##_block(T *p, T v) { __lockstep_block_scoped_atomic(p); return BUILTIN(p, v, __ATOMIC_RELAXED); } \
  __LS_DEV T NAME##_system(T *p, T v) { return BUILTIN(p, v, __ATOMIC_RELAXED); }
#define __LS_ATOMIC_CAS(T)                                                      \
  __LS_DEV T atomicCAS(T *p, T compare, T v) {                                  \
    __atomic_compare_exchange_n(p, &compare, v, false, __ATOMIC_RELAXED,        \
                                __ATOMIC_RELAXED);                              \
    return compare;                                                             \
  }                                                                             \
  __LS_DEV T atomicCAS_block(T *p, T compare, T v) { __lockstep_block_scoped_atomic(p); return atomicCAS(p, compare, v); } \
  __LS_DEV T atomicCAS_system(T *p, T compare, T v) { return atomicCAS(p, compare, v); }
#define __LS_ATOMIC_EXCH(T)                                                     \
  __LS_DEV T atomicExch(T *p, T v) {                                            \
    T old;                                                                      \
    __atomic_exchange(p, &v, &old, __ATOMIC_RELAXED);                           \
    return old;                                                                 \
  }                                                                             \
  __LS_DEV T atomicExch_block(T *p, T v) { __lockstep_block_scoped_atomic(p); return atomicExch(p, v); } \
  __LS_DEV T atomicExch_system(T *p, T v) { return atomicExch(p, v); }

__LS_ATOMIC_RMW(atomicAdd, __atomic_fetch_add, int)
__LS_ATOMIC_RMW(atomicAdd, __atomic_fetch_add, unsigned int)
__LS_ATOMIC_RMW(atomicAdd, __atomic_fetch_add, unsigned long long)
__LS_ATOMIC_RMW(atomicAdd, __atomic_fetch_add, float)
__LS_ATOMIC_RMW(atomicAdd, __atomic_fetch_add, double)
__LS_ATOMIC_RMW(atomicSub, __atomic_fetch_sub, int)
__LS_ATOMIC_RMW(atomicSub, __atomic_fetch_sub, unsigned int)
__LS_ATOMIC_RMW(atomicMin, __atomic_fetch_min, int)
__LS_ATOMIC_RMW(atomicMin, __atomic_fetch_min, unsigned int)
__LS_ATOMIC_RMW(atomicMin, __atomic_fetch_min, long long)
__LS_ATOMIC_RMW(atomicMin, __atomic_fetch_min, unsigned long long)
__LS_ATOMIC_RMW(atomicMax, __atomic_fetch_max, int)
__LS_ATOMIC_RMW(atomicMax, __atomic_fetch_max, unsigned int)
__LS_ATOMIC_RMW(atomicMax, __atomic_fetch_max, long long)
__LS_ATOMIC_RMW(atomicMax, __atomic_fetch_max, unsigned long long)
__LS_ATOMIC_RMW(atomicAnd, __atomic_fetch_and, int)
__LS_ATOMIC_RMW(atomicAnd, __atomic_fetch_and, unsigned int)
__LS_ATOMIC_RMW(atomicAnd, __atomic_fetch_and, unsigned long long)
__LS_ATOMIC_RMW(atomicOr, __atomic_fetch_or, int)
__LS_ATOMIC_RMW(atomicOr, __atomic_fetch_or, unsigned int)
__LS_ATOMIC_RMW(atomicOr, __atomic_fetch_or, unsigned long long)
__LS_ATOMIC_RMW(atomicXor, __atomic_fetch_xor, int)
__LS_ATOMIC_RMW(atomicXor, __atomic_fetch_xor, unsigned int)
__LS_ATOMIC_RMW(atomicXor, __atomic_fetch_xor, unsigned long long)
__LS_ATOMIC_EXCH(int)
__LS_ATOMIC_EXCH(unsigned int)
__LS_ATOMIC_EXCH(unsigned long long)
__LS_ATOMIC_EXCH(float)
__LS_ATOMIC_CAS(int)
__LS_ATOMIC_CAS(unsigned int)
__LS_ATOMIC_CAS(unsigned long long)
__LS_ATOMIC_CAS(unsigned short)
/* atomicInc: ((old >= v) ? 0 : old + 1); atomicDec: ((old == 0 || old > v) ? v : old - 1). */
__LS_DEV unsigned int atomicInc(unsigned int *p, unsigned int v) { return __lockstep_atomic_inc(p, v); }
__LS_DEV unsigned int atomicInc_block(unsigned int *p, unsigned int v) { __lockstep_block_scoped_atomic(p); return __lockstep_atomic_inc(p, v); }
__LS_DEV unsigned int atomicInc_system(unsigned int *p, unsigned int v) { return __lockstep_atomic_inc(p, v); }
__LS_DEV unsigned int atomicDec(unsigned int *p, unsigned int v) { return __lockstep_atomic_dec(p, v); }
__LS_DEV unsigned int atomicDec_block(unsigned int *p, unsigned int v) { __lockstep_block_scoped_atomic(p); return __lockstep_atomic_dec(p, v); }
__LS_DEV unsigned int atomicDec_system(unsigned int *p, unsigned int v) { return __lockstep_atomic_dec(p, v); }
#undef __LS_ATOMIC_RMW
#undef __LS_ATOMIC_CAS
#undef __LS_ATOMIC_EXCH

/* ===========================================================================
 * Warp-level primitives.
 * ========================================================================= */
template <typename __T> __LS_INTRIN __T __lockstep_shfl(unsigned int mask, __T v, int lane, int width);
template <typename __T> __LS_INTRIN __T __lockstep_shfl_up(unsigned int mask, __T v, int delta, int width);
template <typename __T> __LS_INTRIN __T __lockstep_shfl_down(unsigned int mask, __T v, int delta, int width);
template <typename __T> __LS_INTRIN __T __lockstep_shfl_xor(unsigned int mask, __T v, int lane_mask, int width);
__LS_INTRIN unsigned int __lockstep_ballot(unsigned int mask, int pred);
__LS_INTRIN int __lockstep_all(unsigned int mask, int pred);
__LS_INTRIN int __lockstep_any(unsigned int mask, int pred);
__LS_INTRIN unsigned int __lockstep_activemask(void);

#define __LS_FULL_MASK 0xffffffffu
template <typename __T> __LS_DEV __T __shfl_sync(unsigned int mask, __T v, int lane, int width = 32) {
  return __lockstep_shfl(mask, v, lane, width);
}
template <typename __T> __LS_DEV __T __shfl_up_sync(unsigned int mask, __T v, unsigned int delta, int width = 32) {
  return __lockstep_shfl_up(mask, v, (int)delta, width);
}
template <typename __T> __LS_DEV __T __shfl_down_sync(unsigned int mask, __T v, unsigned int delta, int width = 32) {
  return __lockstep_shfl_down(mask, v, (int)delta, width);
}
template <typename __T> __LS_DEV __T __shfl_xor_sync(unsigned int mask, __T v, int lane_mask, int width = 32) {
  return __lockstep_shfl_xor(mask, v, lane_mask, width);
}
/* Pre-CUDA-9 forms: the whole warp. */
template <typename __T> __LS_DEV __T __shfl(__T v, int lane, int width = 32) {
  return __lockstep_shfl(__LS_FULL_MASK, v, lane, width);
}
template <typename __T> __LS_DEV __T __shfl_up(__T v, unsigned int delta, int width = 32) {
  return __lockstep_shfl_up(__LS_FULL_MASK, v, (int)delta, width);
}
template <typename __T> __LS_DEV __T __shfl_down(__T v, unsigned int delta, int width = 32) {
  return __lockstep_shfl_down(__LS_FULL_MASK, v, (int)delta, width);
}
template <typename __T> __LS_DEV __T __shfl_xor(__T v, int lane_mask, int width = 32) {
  return __lockstep_shfl_xor(__LS_FULL_MASK, v, lane_mask, width);
}
__LS_DEV unsigned int __ballot_sync(unsigned int mask, int pred) { return __lockstep_ballot(mask, pred); }
__LS_DEV int __all_sync(unsigned int mask, int pred) { return __lockstep_all(mask, pred); }
__LS_DEV int __any_sync(unsigned int mask, int pred) { return __lockstep_any(mask, pred); }
__LS_DEV unsigned int __activemask(void) { return __lockstep_activemask(); }
__LS_DEV unsigned int __ballot(int pred) { return __lockstep_ballot(__LS_FULL_MASK, pred); }
__LS_DEV int __any(int pred) { return __lockstep_any(__LS_FULL_MASK, pred); }
/* (__all is GPUVerify's "both threads" annotation, see lockstep_annotations.h;
 * the pre-CUDA-9 warp vote __all(pred) is not available.) */
/* __match_any_sync compares the operand's bits, whatever its type. */
__LS_INTRIN unsigned int __lockstep_match_any(unsigned int mask, unsigned long long bits);
template <typename __T> __LS_DEV unsigned int __match_any_sync(unsigned int mask, __T v) {
  unsigned long long __bits = 0;
  __builtin_memcpy(&__bits, &v, sizeof(__T));
  return __lockstep_match_any(mask, __bits);
}
template <typename __T> __device__ unsigned int __match_all_sync(unsigned int mask, __T v, int *pred);
__device__ unsigned int __reduce_add_sync(unsigned int mask, unsigned int v);
__device__ unsigned int __reduce_min_sync(unsigned int mask, unsigned int v);
__device__ unsigned int __reduce_max_sync(unsigned int mask, unsigned int v);
__device__ int __reduce_add_sync(unsigned int mask, int v);
__device__ int __reduce_min_sync(unsigned int mask, int v);
__device__ int __reduce_max_sync(unsigned int mask, int v);

/* ===========================================================================
 * Device library: C library calls, math (opaque), integer intrinsics.
 * ========================================================================= */
extern "C" {
__device__ int printf(const char *format, ...);
__device__ int vprintf(const char *format, const char *args);
__device__ void *malloc(size_t size);
__device__ void free(void *p);
/* assert() from <assert.h> calls __assert_fail on its failing path. */
__device__ void __assert_fail(const char *assertion, const char *file, unsigned int line,
                              const char *function) __attribute__((noreturn));
__device__ void __assertfail(const char *message, const char *file, unsigned int line,
                             const char *function, size_t char_size);
__device__ void __trap(void) __attribute__((noreturn));
__device__ void __brkpt(void);
__device__ long long clock64(void);
__device__ int clock(void);
__device__ unsigned long long __globaltimer(void);
__device__ void __nanosleep(unsigned int ns);
__device__ void *calloc(size_t n, size_t size);
__device__ void *realloc(void *p, size_t size);
__device__ size_t strlen(const char *s);
__device__ int strcmp(const char *a, const char *b);
__device__ int strncmp(const char *a, const char *b, size_t n);
__device__ char *strcpy(char *d, const char *s);
__device__ char *strncpy(char *d, const char *s, size_t n);
__device__ char *strcat(char *d, const char *s);
__device__ int memcmp(const void *a, const void *b, size_t n);
}
/* With -fno-builtin a plain memcpy call would stay a call: route the device
 * versions to the builtins (llvm.memcpy / llvm.memset / llvm.memmove). */
extern "C" {
static inline __attribute__((always_inline, nodebug, device)) void *memcpy(void *d, const void *s, size_t n) {
  return __builtin_memcpy(d, s, n);
}
static inline __attribute__((always_inline, nodebug, device)) void *memset(void *d, int c, size_t n) {
  return __builtin_memset(d, c, n);
}
static inline __attribute__((always_inline, nodebug, device)) void *memmove(void *d, const void *s, size_t n) {
  return __builtin_memmove(d, s, n);
}
}

/* Math: body-less, uninterpreted. */
extern "C" {
#define __LS_MATH1(F) __device__ float F##f(float); __device__ double F(double);
#define __LS_MATH2(F) __device__ float F##f(float, float); __device__ double F(double, double);
__LS_MATH1(sqrt) __LS_MATH1(rsqrt) __LS_MATH1(cbrt) __LS_MATH1(rcbrt)
__LS_MATH1(exp) __LS_MATH1(exp2) __LS_MATH1(exp10) __LS_MATH1(expm1)
__LS_MATH1(log) __LS_MATH1(log2) __LS_MATH1(log10) __LS_MATH1(log1p) __LS_MATH1(logb)
__LS_MATH1(sin) __LS_MATH1(cos) __LS_MATH1(tan) __LS_MATH1(asin) __LS_MATH1(acos) __LS_MATH1(atan)
__LS_MATH1(sinh) __LS_MATH1(cosh) __LS_MATH1(tanh) __LS_MATH1(asinh) __LS_MATH1(acosh) __LS_MATH1(atanh)
__LS_MATH1(sinpi) __LS_MATH1(cospi)
__LS_MATH1(fabs) __LS_MATH1(floor) __LS_MATH1(ceil) __LS_MATH1(round) __LS_MATH1(trunc)
__LS_MATH1(rint) __LS_MATH1(nearbyint)
__LS_MATH1(erf) __LS_MATH1(erfc) __LS_MATH1(erfinv) __LS_MATH1(erfcinv) __LS_MATH1(lgamma) __LS_MATH1(tgamma)
__LS_MATH1(normcdf) __LS_MATH1(normcdfinv) __LS_MATH1(j0) __LS_MATH1(j1) __LS_MATH1(y0) __LS_MATH1(y1)
__LS_MATH2(pow) __LS_MATH2(atan2) __LS_MATH2(fmod) __LS_MATH2(remainder) __LS_MATH2(fmin) __LS_MATH2(fmax)
__LS_MATH2(hypot) __LS_MATH2(fdim) __LS_MATH2(copysign) __LS_MATH2(nextafter)
#undef __LS_MATH1
#undef __LS_MATH2
__device__ float fmaf(float, float, float);
__device__ double fma(double, double, double);
__device__ float ldexpf(float, int);
__device__ double ldexp(double, int);
__device__ float frexpf(float, int *);
__device__ double frexp(double, int *);
__device__ float modff(float, float *);
__device__ double modf(double, double *);
__device__ float powif(float, int);
__device__ float scalbnf(float, int);
__device__ int ilogbf(float);
__device__ long lrintf(float);
__device__ long lroundf(float);
__device__ long long llrintf(float);
__device__ long long llroundf(float);
__device__ long lrint(double);
__device__ long lround(double);
__device__ void sincosf(float, float *, float *);
__device__ void sincos(double, double *, double *);
__device__ void sincospif(float, float *, float *);
__device__ float remquof(float, float, int *);
__device__ float norm3df(float, float, float);
__device__ float rnorm3df(float, float, float);
__device__ float norm4df(float, float, float, float);
__device__ float rhypotf(float, float);
__device__ int abs(int);
__device__ long labs(long);
__device__ long long llabs(long long);
__device__ int __signbitf(float);
__device__ int __finitef(float);
__device__ int __isinff(float);
__device__ int __isnanf(float);
__device__ int __signbitd(double);
__device__ int __finite(double);
__device__ int __isinf(double);
__device__ int __isnan(double);

/* Fast-math and rounding-mode intrinsics. */
__device__ float __expf(float);
__device__ float __exp10f(float);
__device__ float __logf(float);
__device__ float __log2f(float);
__device__ float __log10f(float);
__device__ float __powf(float, float);
__device__ float __sinf(float);
__device__ float __cosf(float);
__device__ float __tanf(float);
__device__ void __sincosf(float, float *, float *);
__device__ float __fdividef(float, float);
__device__ double __fdivide(double, double);
__device__ float __saturatef(float);
__device__ float __frcp_rn(float);
__device__ float __fsqrt_rn(float);
__device__ float __frsqrt_rn(float);
#define __LS_ROUNDED(R)                                                          \
  __device__ float __fadd_##R(float, float); __device__ float __fsub_##R(float, float); \
  __device__ float __fmul_##R(float, float); __device__ float __fdiv_##R(float, float); \
  __device__ float __fmaf_##R(float, float, float);                            \
  __device__ double __dadd_##R(double, double); __device__ double __dsub_##R(double, double); \
  __device__ double __dmul_##R(double, double); __device__ double __ddiv_##R(double, double); \
  __device__ double __fma_##R(double, double, double);                         \
  __device__ int __float2int_##R(float); __device__ unsigned int __float2uint_##R(float); \
  __device__ long long __float2ll_##R(float); __device__ unsigned long long __float2ull_##R(float); \
  __device__ int __double2int_##R(double); __device__ unsigned int __double2uint_##R(double); \
  __device__ long long __double2ll_##R(double); __device__ unsigned long long __double2ull_##R(double); \
  __device__ float __int2float_##R(int); __device__ float __uint2float_##R(unsigned int); \
  __device__ float __ll2float_##R(long long); __device__ float __ull2float_##R(unsigned long long); \
  __device__ float __double2float_##R(double);                                 \
  __device__ double __ll2double_##R(long long); __device__ double __ull2double_##R(unsigned long long);
__LS_ROUNDED(rn) __LS_ROUNDED(rz) __LS_ROUNDED(ru) __LS_ROUNDED(rd)
#undef __LS_ROUNDED
__device__ double __int2double_rn(int);
__device__ double __uint2double_rn(unsigned int);
__device__ float __int_as_float(int);
__device__ int __float_as_int(float);
__device__ float __uint_as_float(unsigned int);
__device__ unsigned int __float_as_uint(float);
__device__ double __longlong_as_double(long long);
__device__ long long __double_as_longlong(double);
__device__ double __hiloint2double(int, int);
__device__ int __double2hiint(double);
__device__ int __double2loint(double);

/* Integer intrinsics without a closed form here. */
__device__ int __popc(unsigned int);
__device__ int __popcll(unsigned long long);
__device__ int __clz(int);
__device__ int __clzll(long long);
__device__ int __ffs(int);
__device__ int __ffsll(long long);
__device__ unsigned int __brev(unsigned int);
__device__ unsigned long long __brevll(unsigned long long);
__device__ unsigned int __byte_perm(unsigned int, unsigned int, unsigned int);
__device__ int __hadd(int, int);
__device__ int __rhadd(int, int);
__device__ unsigned int __uhadd(unsigned int, unsigned int);
__device__ unsigned int __urhadd(unsigned int, unsigned int);
__device__ unsigned int __sad(int, int, unsigned int);
__device__ unsigned int __usad(unsigned int, unsigned int, unsigned int);
__device__ long long __mul64hi(long long, long long);
__device__ unsigned long long __umul64hi(unsigned long long, unsigned long long);
__device__ unsigned int __funnelshift_l(unsigned int, unsigned int, unsigned int);
__device__ unsigned int __funnelshift_r(unsigned int, unsigned int, unsigned int);
__device__ unsigned int __funnelshift_lc(unsigned int, unsigned int, unsigned int);
__device__ unsigned int __funnelshift_rc(unsigned int, unsigned int, unsigned int);
} /* extern "C" */

/* Integer intrinsics with an exact closed form (index arithmetic stays
 * provable): 24-bit multiplies and high halves of 32-bit products. */
__LS_DEV int __mul24(int x, int y) {
  return (int)((unsigned int)((x << 8) >> 8) * (unsigned int)((y << 8) >> 8));
}
__LS_DEV unsigned int __umul24(unsigned int x, unsigned int y) {
  return (x & 0xffffffu) * (y & 0xffffffu);
}
__LS_DEV int __mulhi(int x, int y) { return (int)(((long long)x * (long long)y) >> 32); }
__LS_DEV unsigned int __umulhi(unsigned int x, unsigned int y) {
  return (unsigned int)(((unsigned long long)x * (unsigned long long)y) >> 32);
}

/* Cache-hinted loads and stores: plain accesses. */
template <typename __T> __LS_DEV __T __ldg(const __T *p) { return *p; }
template <typename __T> __LS_DEV __T __ldca(const __T *p) { return *p; }
template <typename __T> __LS_DEV __T __ldcg(const __T *p) { return *p; }
template <typename __T> __LS_DEV __T __ldcs(const __T *p) { return *p; }
template <typename __T> __LS_DEV __T __ldlu(const __T *p) { return *p; }
template <typename __T> __LS_DEV __T __ldcv(const __T *p) { return *p; }
template <typename __T> __LS_DEV void __stwb(__T *p, __T v) { *p = v; }
template <typename __T> __LS_DEV void __stcg(__T *p, __T v) { *p = v; }
template <typename __T> __LS_DEV void __stcs(__T *p, __T v) { *p = v; }
template <typename __T> __LS_DEV void __stwt(__T *p, __T v) { *p = v; }

/* min / max overloads (host and device, like CUDA's). */
#define __LS_MINMAX(T)                                                          \
  __LS_HD T min(T a, T b) { return a < b ? a : b; }                             \
  __LS_HD T max(T a, T b) { return a > b ? a : b; }
__LS_MINMAX(int)
__LS_MINMAX(unsigned int)
__LS_MINMAX(long)
__LS_MINMAX(unsigned long)
__LS_MINMAX(long long)
__LS_MINMAX(unsigned long long)
__LS_MINMAX(float)
__LS_MINMAX(double)
#undef __LS_MINMAX
__LS_HD unsigned int min(int a, unsigned int b) { return min((unsigned int)a, b); }
__LS_HD unsigned int min(unsigned int a, int b) { return min(a, (unsigned int)b); }
__LS_HD unsigned int max(int a, unsigned int b) { return max((unsigned int)a, b); }
__LS_HD unsigned int max(unsigned int a, int b) { return max(a, (unsigned int)b); }
__LS_HD unsigned long long min(long long a, unsigned long long b) { return min((unsigned long long)a, b); }
__LS_HD unsigned long long min(unsigned long long a, long long b) { return min(a, (unsigned long long)b); }
__LS_HD unsigned long long max(long long a, unsigned long long b) { return max((unsigned long long)a, b); }
__LS_HD unsigned long long max(unsigned long long a, long long b) { return max(a, (unsigned long long)b); }
__LS_HD double min(float a, double b) { return min((double)a, b); }
__LS_HD double min(double a, float b) { return min(a, (double)b); }
__LS_HD double max(float a, double b) { return max((double)a, b); }
__LS_HD double max(double a, float b) { return max(a, (double)b); }
__LS_HD unsigned int umin(unsigned int a, unsigned int b) { return min(a, b); }
__LS_HD unsigned int umax(unsigned int a, unsigned int b) { return max(a, b); }
__LS_HD long long llmin(long long a, long long b) { return min(a, b); }
__LS_HD long long llmax(long long a, long long b) { return max(a, b); }
__LS_HD unsigned long long ullmin(unsigned long long a, unsigned long long b) { return min(a, b); }
__LS_HD unsigned long long ullmax(unsigned long long a, unsigned long long b) { return max(a, b); }

/* ===========================================================================
 * The GPUVerify annotation language.
 * ========================================================================= */
#include "lockstep_annotations.h"

/* ===========================================================================
 * Host-side runtime API (declarations only) and kernel launches.
 * ========================================================================= */
#include "lockstep_cuda_runtime.h"
#include "lockstep_device_model.h"

/* ===========================================================================
 * ESBMC-GPU's launch functions (declared by its call_kernel.h and cuda.h):
 * ESBMC_verify_kernel(kernel, grid, block, args...) and variants whose suffix
 * names the argument types. Each is exactly kernel<<<grid, block>>>(args...).
 * ========================================================================= */
#define __LS_ESBMC_LAUNCH(kernel, grid, block, ...) kernel<<<grid, block>>>(__VA_ARGS__)

#define ESBMC_verify_kernel(kernel, grid, block, ...) __LS_ESBMC_LAUNCH(kernel, grid, block, ##__VA_ARGS__)
#define ESBMC_verify_kernel_u(kernel, grid, block, ...) __LS_ESBMC_LAUNCH(kernel, grid, block, ##__VA_ARGS__)
#define ESBMC_verify_kernel_ui(kernel, grid, block, ...) __LS_ESBMC_LAUNCH(kernel, grid, block, ##__VA_ARGS__)
#define ESBMC_verify_kernel_uint(kernel, grid, block, ...) __LS_ESBMC_LAUNCH(kernel, grid, block, ##__VA_ARGS__)
#define ESBMC_verify_kernel_i(kernel, grid, block, ...) __LS_ESBMC_LAUNCH(kernel, grid, block, ##__VA_ARGS__)
#define ESBMC_verify_kernel_int(kernel, grid, block, ...) __LS_ESBMC_LAUNCH(kernel, grid, block, ##__VA_ARGS__)
#define ESBMC_verify_kernel_intt(kernel, grid, block, ...) __LS_ESBMC_LAUNCH(kernel, grid, block, ##__VA_ARGS__)
#define ESBMC_verify_kernel_c(kernel, grid, block, ...) __LS_ESBMC_LAUNCH(kernel, grid, block, ##__VA_ARGS__)
#define ESBMC_verify_kernel_f(kernel, grid, block, ...) __LS_ESBMC_LAUNCH(kernel, grid, block, ##__VA_ARGS__)
#define ESBMC_verify_kernel_d(kernel, grid, block, ...) __LS_ESBMC_LAUNCH(kernel, grid, block, ##__VA_ARGS__)
#define ESBMC_verify_kernel_l(kernel, grid, block, ...) __LS_ESBMC_LAUNCH(kernel, grid, block, ##__VA_ARGS__)
#define ESBMC_verify_kernel_ull(kernel, grid, block, ...) __LS_ESBMC_LAUNCH(kernel, grid, block, ##__VA_ARGS__)
#define ESBMC_verify_kernel_fuint(kernel, grid, block, ...) __LS_ESBMC_LAUNCH(kernel, grid, block, ##__VA_ARGS__)
#define ESBMC_verify_kernel_fuintt(kernel, grid, block, ...) __LS_ESBMC_LAUNCH(kernel, grid, block, ##__VA_ARGS__)
#define ESBMC_verify_kernel_fuintint(kernel, grid, block, ...) __LS_ESBMC_LAUNCH(kernel, grid, block, ##__VA_ARGS__)
#define ESBMC_verify_kernel_fint(kernel, grid, block, ...) __LS_ESBMC_LAUNCH(kernel, grid, block, ##__VA_ARGS__)
#define ESBMC_verify_kernel_ff(kernel, grid, block, ...) __LS_ESBMC_LAUNCH(kernel, grid, block, ##__VA_ARGS__)
#define ESBMC_verify_kernel_two(kernel, grid, block, ...) __LS_ESBMC_LAUNCH(kernel, grid, block, ##__VA_ARGS__)
#define ESBMC_verify_kernel_three(kernel, grid, block, ...) __LS_ESBMC_LAUNCH(kernel, grid, block, ##__VA_ARGS__)
#define ESBMC_verify_kernel_four(kernel, grid, block, ...) __LS_ESBMC_LAUNCH(kernel, grid, block, ##__VA_ARGS__)
#define ESBMC_verify_kernel_five(kernel, grid, block, ...) __LS_ESBMC_LAUNCH(kernel, grid, block, ##__VA_ARGS__)
#define ESBMC_verify_kernel_with_two_args(kernel, grid, block, ...) __LS_ESBMC_LAUNCH(kernel, grid, block, ##__VA_ARGS__)
#define ESBMC_verify_kernel_with_three_args(kernel, grid, block, ...) __LS_ESBMC_LAUNCH(kernel, grid, block, ##__VA_ARGS__)
#define ESBMC_verify_kernel_with_four_args(kernel, grid, block, ...) __LS_ESBMC_LAUNCH(kernel, grid, block, ##__VA_ARGS__)
#define ESBMC_verify_kernel_two_args(kernel, grid, block, ...) __LS_ESBMC_LAUNCH(kernel, grid, block, ##__VA_ARGS__)
#define ESBMC_verify_kernel_three_args(kernel, grid, block, ...) __LS_ESBMC_LAUNCH(kernel, grid, block, ##__VA_ARGS__)
#define ESBMC_verify_kernel_three_args_iuull(kernel, grid, block, ...) __LS_ESBMC_LAUNCH(kernel, grid, block, ##__VA_ARGS__)
#define ESBMC_verify_kernel_four_args(kernel, grid, block, ...) __LS_ESBMC_LAUNCH(kernel, grid, block, ##__VA_ARGS__)


#endif /* LOCKSTEP_CUDA_H */
