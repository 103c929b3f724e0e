/* lockstep prelude: the GPUVerify annotation language.
 *
 * Included by lockstep_cuda.h and lockstep_opencl.h; not meant to be included
 * directly. Every annotation is a thin wrapper over the __lockstep_* intrinsics
 * of crates/frontend/INTRINSICS.md: wrappers are static, always_inline and
 * nodebug, so that after the front-end's always-inline pass only the
 * intrinsic calls remain, located at the user's line.
 *
 * Statement annotations take a condition; expression annotations return a
 * value. Pointer-taking annotations accept any object pointer: in CUDA through
 * `const volatile void *`, in OpenCL C through one overload per address space.
 */
#ifndef LOCKSTEP_ANNOTATIONS_H
#define LOCKSTEP_ANNOTATIONS_H

#if defined(__OPENCL_C_VERSION__)
/* ---- OpenCL C 1.2 --------------------------------------------------------- */
#define __LS_INTRINSIC __attribute__((overloadable))
#define __LS_WRAPPER static inline __attribute__((always_inline, overloadable, nodebug))
typedef int __ls_cond;          /* condition argument of statement intrinsics */
typedef bool __ls_bool;         /* condition parameter of the wrappers */
typedef size_t __ls_size;
typedef ulong __ls_offset;
/* Declares DECL(SPACE) once per address space. */
#define __LS_FOR_EACH_SPACE(DECL) DECL(__global) DECL(__local) DECL(__constant) DECL(__private)
#else
/* ---- CUDA ------------------------------------------------------------------ */
#define __LS_INTRINSIC __attribute__((device))
#define __LS_WRAPPER static inline __attribute__((always_inline, nodebug, device))
typedef bool __ls_cond;
typedef bool __ls_bool;
typedef __SIZE_TYPE__ __ls_size;
typedef __SIZE_TYPE__ __ls_offset;
#define __LS_FOR_EACH_SPACE(DECL) DECL()
#endif

/* ---------------------------------------------------------------------------
 * Intrinsics: statements.
 * ------------------------------------------------------------------------- */
__LS_INTRINSIC void __lockstep_assert(__ls_cond c);
__LS_INTRINSIC void __lockstep_assume(__ls_cond c);
__LS_INTRINSIC void __lockstep_requires(__ls_cond c);
__LS_INTRINSIC void __lockstep_ensures(__ls_cond c);
__LS_INTRINSIC void __lockstep_invariant(__ls_cond c);
__LS_INTRINSIC void __lockstep_global_invariant(__ls_cond c);
__LS_INTRINSIC void __lockstep_function_wide_invariant(__ls_cond c);
__LS_INTRINSIC void __lockstep_candidate_invariant(__ls_cond c);
__LS_INTRINSIC void __lockstep_candidate_global_invariant(__ls_cond c);
__LS_INTRINSIC void __lockstep_function_wide_candidate_invariant(__ls_cond c);
__LS_INTRINSIC void __lockstep_global_requires(__ls_cond c);
__LS_INTRINSIC void __lockstep_global_ensures(__ls_cond c);
__LS_INTRINSIC void __lockstep_global_assert(__ls_cond c);
__LS_INTRINSIC void __lockstep_axiom(__ls_cond c);

/* ---------------------------------------------------------------------------
 * Intrinsics: expressions without pointers.
 * ------------------------------------------------------------------------- */
__LS_INTRINSIC bool __lockstep_enabled(void);
__LS_INTRINSIC bool __lockstep_same_group(void);
__LS_INTRINSIC bool __lockstep_implies(__ls_cond a, __ls_cond b);
__LS_INTRINSIC int __lockstep_return_val_int(void);
__LS_INTRINSIC unsigned int __lockstep_return_val_uint(void);
__LS_INTRINSIC long __lockstep_return_val_long(void);
__LS_INTRINSIC unsigned long __lockstep_return_val_ulong(void);
__LS_INTRINSIC bool __lockstep_return_val_bool(void);
__LS_INTRINSIC float __lockstep_return_val_float(void);
#if !defined(__OPENCL_C_VERSION__) || defined(cl_khr_fp64)
__LS_INTRINSIC double __lockstep_return_val_double(void);
#endif


/* ---------------------------------------------------------------------------
 * Intrinsics: type-generic expressions (the result has the argument's type).
 * ------------------------------------------------------------------------- */
#if defined(__OPENCL_C_VERSION__)
#define __LS_GENERIC_INT(NAME)                                                 \
  __LS_INTRINSIC char NAME(char); __LS_INTRINSIC uchar NAME(uchar);            \
  __LS_INTRINSIC short NAME(short); __LS_INTRINSIC ushort NAME(ushort);        \
  __LS_INTRINSIC int NAME(int); __LS_INTRINSIC uint NAME(uint);                \
  __LS_INTRINSIC long NAME(long); __LS_INTRINSIC ulong NAME(ulong);            \
  __LS_INTRINSIC bool NAME(bool);
#define __LS_PREDICATE_INT(NAME)                                               \
  __LS_INTRINSIC bool NAME(char); __LS_INTRINSIC bool NAME(uchar);             \
  __LS_INTRINSIC bool NAME(short); __LS_INTRINSIC bool NAME(ushort);           \
  __LS_INTRINSIC bool NAME(int); __LS_INTRINSIC bool NAME(uint);               \
  __LS_INTRINSIC bool NAME(long); __LS_INTRINSIC bool NAME(ulong);             \
  __LS_INTRINSIC bool NAME(bool);
__LS_GENERIC_INT(__lockstep_other_int)
__LS_GENERIC_INT(__lockstep_other_bool)
__LS_GENERIC_INT(__lockstep_old_int)
__LS_GENERIC_INT(__lockstep_old_bool)
__LS_INTRINSIC float __lockstep_old_float(float);
__LS_PREDICATE_INT(__lockstep_uniform_int)
__LS_PREDICATE_INT(__lockstep_uniform_bool)
__LS_PREDICATE_INT(__lockstep_distinct_int)
__LS_PREDICATE_INT(__lockstep_distinct_bool)
#undef __LS_GENERIC_INT
#undef __LS_PREDICATE_INT
#else
template <typename __T> __LS_INTRINSIC __T __lockstep_other_int(__T);
template <typename __T> __LS_INTRINSIC __T __lockstep_other_bool(__T);
template <typename __T> __LS_INTRINSIC __T __lockstep_other_ptr(__T);
template <typename __T> __LS_INTRINSIC __T __lockstep_old_int(__T);
template <typename __T> __LS_INTRINSIC __T __lockstep_old_bool(__T);
template <typename __T> __LS_INTRINSIC __T __lockstep_old_float(__T);
template <typename __T> __LS_INTRINSIC __T __lockstep_old_ptr(__T);
template <typename __T> __LS_INTRINSIC bool __lockstep_uniform_int(__T);
template <typename __T> __LS_INTRINSIC bool __lockstep_uniform_bool(__T);
template <typename __T> __LS_INTRINSIC bool __lockstep_distinct_int(__T);
template <typename __T> __LS_INTRINSIC bool __lockstep_distinct_bool(__T);
__LS_INTRINSIC void *__lockstep_return_val_ptr(void);
#endif

/* ---------------------------------------------------------------------------
 * Intrinsics: pointers (one overload per address space in OpenCL).
 * ------------------------------------------------------------------------- */
#define __LS_PTR_INTRINSICS(AS)                                                             \
  __LS_INTRINSIC bool __lockstep_read(const volatile AS void *p);                          \
  __LS_INTRINSIC bool __lockstep_write(const volatile AS void *p);                         \
  __LS_INTRINSIC __ls_offset __lockstep_read_offset(const volatile AS void *p);            \
  __LS_INTRINSIC __ls_offset __lockstep_write_offset(const volatile AS void *p);           \
  __LS_INTRINSIC int __lockstep_ptr_base(const volatile AS void *p);                       \
  __LS_INTRINSIC int __lockstep_ptr_offset(const volatile AS void *p);                     \
  __LS_INTRINSIC void __lockstep_fresh_array(const volatile AS void *p);                   \
  __LS_INTRINSIC void __lockstep_writes_to(const volatile AS void *p);                     \
  __LS_INTRINSIC void __lockstep_reads_from(const volatile AS void *p);                    \
  __LS_INTRINSIC bool __lockstep_atomic_has_taken_value(const volatile AS void *p,         \
                                                        __ls_offset offset,                \
                                                        unsigned long value);
__LS_FOR_EACH_SPACE(__LS_PTR_INTRINSICS)
#undef __LS_PTR_INTRINSICS

/* Barrier invariants: the condition, then the threads to instantiate it with
 * (binary: pairs of threads, flattened). Fixed arities, because OpenCL C
 * forbids variadic functions. */
__LS_INTRINSIC void __lockstep_barrier_invariant(__ls_cond c, __ls_size t1);
__LS_INTRINSIC void __lockstep_barrier_invariant(__ls_cond c, __ls_size t1, __ls_size t2);
__LS_INTRINSIC void __lockstep_barrier_invariant(__ls_cond c, __ls_size t1, __ls_size t2, __ls_size t3);
__LS_INTRINSIC void __lockstep_barrier_invariant(__ls_cond c, __ls_size t1, __ls_size t2, __ls_size t3, __ls_size t4);
__LS_INTRINSIC void __lockstep_barrier_invariant(__ls_cond c, __ls_size t1, __ls_size t2, __ls_size t3, __ls_size t4, __ls_size t5);
__LS_INTRINSIC void __lockstep_barrier_invariant(__ls_cond c, __ls_size t1, __ls_size t2, __ls_size t3, __ls_size t4, __ls_size t5, __ls_size t6);
__LS_INTRINSIC void __lockstep_barrier_invariant(__ls_cond c, __ls_size t1, __ls_size t2, __ls_size t3, __ls_size t4, __ls_size t5, __ls_size t6, __ls_size t7);
__LS_INTRINSIC void __lockstep_barrier_invariant(__ls_cond c, __ls_size t1, __ls_size t2, __ls_size t3, __ls_size t4, __ls_size t5, __ls_size t6, __ls_size t7, __ls_size t8);
__LS_INTRINSIC void __lockstep_barrier_invariant(__ls_cond c, __ls_size t1, __ls_size t2, __ls_size t3, __ls_size t4, __ls_size t5, __ls_size t6, __ls_size t7, __ls_size t8, __ls_size t9);
__LS_INTRINSIC void __lockstep_barrier_invariant(__ls_cond c, __ls_size t1, __ls_size t2, __ls_size t3, __ls_size t4, __ls_size t5, __ls_size t6, __ls_size t7, __ls_size t8, __ls_size t9, __ls_size t10);
__LS_INTRINSIC void __lockstep_barrier_invariant(__ls_cond c, __ls_size t1, __ls_size t2, __ls_size t3, __ls_size t4, __ls_size t5, __ls_size t6, __ls_size t7, __ls_size t8, __ls_size t9, __ls_size t10, __ls_size t11);
__LS_INTRINSIC void __lockstep_barrier_invariant(__ls_cond c, __ls_size t1, __ls_size t2, __ls_size t3, __ls_size t4, __ls_size t5, __ls_size t6, __ls_size t7, __ls_size t8, __ls_size t9, __ls_size t10, __ls_size t11, __ls_size t12);
__LS_INTRINSIC void __lockstep_barrier_invariant(__ls_cond c, __ls_size t1, __ls_size t2, __ls_size t3, __ls_size t4, __ls_size t5, __ls_size t6, __ls_size t7, __ls_size t8, __ls_size t9, __ls_size t10, __ls_size t11, __ls_size t12, __ls_size t13);
__LS_INTRINSIC void __lockstep_barrier_invariant(__ls_cond c, __ls_size t1, __ls_size t2, __ls_size t3, __ls_size t4, __ls_size t5, __ls_size t6, __ls_size t7, __ls_size t8, __ls_size t9, __ls_size t10, __ls_size t11, __ls_size t12, __ls_size t13, __ls_size t14);
__LS_INTRINSIC void __lockstep_barrier_invariant(__ls_cond c, __ls_size t1, __ls_size t2, __ls_size t3, __ls_size t4, __ls_size t5, __ls_size t6, __ls_size t7, __ls_size t8, __ls_size t9, __ls_size t10, __ls_size t11, __ls_size t12, __ls_size t13, __ls_size t14, __ls_size t15);
__LS_INTRINSIC void __lockstep_barrier_invariant(__ls_cond c, __ls_size t1, __ls_size t2, __ls_size t3, __ls_size t4, __ls_size t5, __ls_size t6, __ls_size t7, __ls_size t8, __ls_size t9, __ls_size t10, __ls_size t11, __ls_size t12, __ls_size t13, __ls_size t14, __ls_size t15, __ls_size t16);
__LS_INTRINSIC void __lockstep_barrier_invariant(__ls_cond c, __ls_size t1, __ls_size t2, __ls_size t3, __ls_size t4, __ls_size t5, __ls_size t6, __ls_size t7, __ls_size t8, __ls_size t9, __ls_size t10, __ls_size t11, __ls_size t12, __ls_size t13, __ls_size t14, __ls_size t15, __ls_size t16, __ls_size t17);
__LS_INTRINSIC void __lockstep_barrier_invariant(__ls_cond c, __ls_size t1, __ls_size t2, __ls_size t3, __ls_size t4, __ls_size t5, __ls_size t6, __ls_size t7, __ls_size t8, __ls_size t9, __ls_size t10, __ls_size t11, __ls_size t12, __ls_size t13, __ls_size t14, __ls_size t15, __ls_size t16, __ls_size t17, __ls_size t18);
__LS_INTRINSIC void __lockstep_barrier_invariant(__ls_cond c, __ls_size t1, __ls_size t2, __ls_size t3, __ls_size t4, __ls_size t5, __ls_size t6, __ls_size t7, __ls_size t8, __ls_size t9, __ls_size t10, __ls_size t11, __ls_size t12, __ls_size t13, __ls_size t14, __ls_size t15, __ls_size t16, __ls_size t17, __ls_size t18, __ls_size t19);
__LS_INTRINSIC void __lockstep_barrier_invariant(__ls_cond c, __ls_size t1, __ls_size t2, __ls_size t3, __ls_size t4, __ls_size t5, __ls_size t6, __ls_size t7, __ls_size t8, __ls_size t9, __ls_size t10, __ls_size t11, __ls_size t12, __ls_size t13, __ls_size t14, __ls_size t15, __ls_size t16, __ls_size t17, __ls_size t18, __ls_size t19, __ls_size t20);
__LS_INTRINSIC void __lockstep_barrier_invariant(__ls_cond c, __ls_size t1, __ls_size t2, __ls_size t3, __ls_size t4, __ls_size t5, __ls_size t6, __ls_size t7, __ls_size t8, __ls_size t9, __ls_size t10, __ls_size t11, __ls_size t12, __ls_size t13, __ls_size t14, __ls_size t15, __ls_size t16, __ls_size t17, __ls_size t18, __ls_size t19, __ls_size t20, __ls_size t21);
__LS_INTRINSIC void __lockstep_barrier_invariant(__ls_cond c, __ls_size t1, __ls_size t2, __ls_size t3, __ls_size t4, __ls_size t5, __ls_size t6, __ls_size t7, __ls_size t8, __ls_size t9, __ls_size t10, __ls_size t11, __ls_size t12, __ls_size t13, __ls_size t14, __ls_size t15, __ls_size t16, __ls_size t17, __ls_size t18, __ls_size t19, __ls_size t20, __ls_size t21, __ls_size t22);
__LS_INTRINSIC void __lockstep_barrier_invariant(__ls_cond c, __ls_size t1, __ls_size t2, __ls_size t3, __ls_size t4, __ls_size t5, __ls_size t6, __ls_size t7, __ls_size t8, __ls_size t9, __ls_size t10, __ls_size t11, __ls_size t12, __ls_size t13, __ls_size t14, __ls_size t15, __ls_size t16, __ls_size t17, __ls_size t18, __ls_size t19, __ls_size t20, __ls_size t21, __ls_size t22, __ls_size t23);
__LS_INTRINSIC void __lockstep_barrier_invariant(__ls_cond c, __ls_size t1, __ls_size t2, __ls_size t3, __ls_size t4, __ls_size t5, __ls_size t6, __ls_size t7, __ls_size t8, __ls_size t9, __ls_size t10, __ls_size t11, __ls_size t12, __ls_size t13, __ls_size t14, __ls_size t15, __ls_size t16, __ls_size t17, __ls_size t18, __ls_size t19, __ls_size t20, __ls_size t21, __ls_size t22, __ls_size t23, __ls_size t24);
__LS_INTRINSIC void __lockstep_barrier_invariant(__ls_cond c, __ls_size t1, __ls_size t2, __ls_size t3, __ls_size t4, __ls_size t5, __ls_size t6, __ls_size t7, __ls_size t8, __ls_size t9, __ls_size t10, __ls_size t11, __ls_size t12, __ls_size t13, __ls_size t14, __ls_size t15, __ls_size t16, __ls_size t17, __ls_size t18, __ls_size t19, __ls_size t20, __ls_size t21, __ls_size t22, __ls_size t23, __ls_size t24, __ls_size t25);
__LS_INTRINSIC void __lockstep_barrier_invariant(__ls_cond c, __ls_size t1, __ls_size t2, __ls_size t3, __ls_size t4, __ls_size t5, __ls_size t6, __ls_size t7, __ls_size t8, __ls_size t9, __ls_size t10, __ls_size t11, __ls_size t12, __ls_size t13, __ls_size t14, __ls_size t15, __ls_size t16, __ls_size t17, __ls_size t18, __ls_size t19, __ls_size t20, __ls_size t21, __ls_size t22, __ls_size t23, __ls_size t24, __ls_size t25, __ls_size t26);
__LS_INTRINSIC void __lockstep_barrier_invariant(__ls_cond c, __ls_size t1, __ls_size t2, __ls_size t3, __ls_size t4, __ls_size t5, __ls_size t6, __ls_size t7, __ls_size t8, __ls_size t9, __ls_size t10, __ls_size t11, __ls_size t12, __ls_size t13, __ls_size t14, __ls_size t15, __ls_size t16, __ls_size t17, __ls_size t18, __ls_size t19, __ls_size t20, __ls_size t21, __ls_size t22, __ls_size t23, __ls_size t24, __ls_size t25, __ls_size t26, __ls_size t27);
__LS_INTRINSIC void __lockstep_barrier_invariant(__ls_cond c, __ls_size t1, __ls_size t2, __ls_size t3, __ls_size t4, __ls_size t5, __ls_size t6, __ls_size t7, __ls_size t8, __ls_size t9, __ls_size t10, __ls_size t11, __ls_size t12, __ls_size t13, __ls_size t14, __ls_size t15, __ls_size t16, __ls_size t17, __ls_size t18, __ls_size t19, __ls_size t20, __ls_size t21, __ls_size t22, __ls_size t23, __ls_size t24, __ls_size t25, __ls_size t26, __ls_size t27, __ls_size t28);
__LS_INTRINSIC void __lockstep_barrier_invariant(__ls_cond c, __ls_size t1, __ls_size t2, __ls_size t3, __ls_size t4, __ls_size t5, __ls_size t6, __ls_size t7, __ls_size t8, __ls_size t9, __ls_size t10, __ls_size t11, __ls_size t12, __ls_size t13, __ls_size t14, __ls_size t15, __ls_size t16, __ls_size t17, __ls_size t18, __ls_size t19, __ls_size t20, __ls_size t21, __ls_size t22, __ls_size t23, __ls_size t24, __ls_size t25, __ls_size t26, __ls_size t27, __ls_size t28, __ls_size t29);
__LS_INTRINSIC void __lockstep_barrier_invariant(__ls_cond c, __ls_size t1, __ls_size t2, __ls_size t3, __ls_size t4, __ls_size t5, __ls_size t6, __ls_size t7, __ls_size t8, __ls_size t9, __ls_size t10, __ls_size t11, __ls_size t12, __ls_size t13, __ls_size t14, __ls_size t15, __ls_size t16, __ls_size t17, __ls_size t18, __ls_size t19, __ls_size t20, __ls_size t21, __ls_size t22, __ls_size t23, __ls_size t24, __ls_size t25, __ls_size t26, __ls_size t27, __ls_size t28, __ls_size t29, __ls_size t30);
__LS_INTRINSIC void __lockstep_barrier_invariant(__ls_cond c, __ls_size t1, __ls_size t2, __ls_size t3, __ls_size t4, __ls_size t5, __ls_size t6, __ls_size t7, __ls_size t8, __ls_size t9, __ls_size t10, __ls_size t11, __ls_size t12, __ls_size t13, __ls_size t14, __ls_size t15, __ls_size t16, __ls_size t17, __ls_size t18, __ls_size t19, __ls_size t20, __ls_size t21, __ls_size t22, __ls_size t23, __ls_size t24, __ls_size t25, __ls_size t26, __ls_size t27, __ls_size t28, __ls_size t29, __ls_size t30, __ls_size t31);
__LS_INTRINSIC void __lockstep_barrier_invariant(__ls_cond c, __ls_size t1, __ls_size t2, __ls_size t3, __ls_size t4, __ls_size t5, __ls_size t6, __ls_size t7, __ls_size t8, __ls_size t9, __ls_size t10, __ls_size t11, __ls_size t12, __ls_size t13, __ls_size t14, __ls_size t15, __ls_size t16, __ls_size t17, __ls_size t18, __ls_size t19, __ls_size t20, __ls_size t21, __ls_size t22, __ls_size t23, __ls_size t24, __ls_size t25, __ls_size t26, __ls_size t27, __ls_size t28, __ls_size t29, __ls_size t30, __ls_size t31, __ls_size t32);
__LS_INTRINSIC void __lockstep_barrier_invariant_binary(__ls_cond c, __ls_size t1);
__LS_INTRINSIC void __lockstep_barrier_invariant_binary(__ls_cond c, __ls_size t1, __ls_size t2);
__LS_INTRINSIC void __lockstep_barrier_invariant_binary(__ls_cond c, __ls_size t1, __ls_size t2, __ls_size t3);
__LS_INTRINSIC void __lockstep_barrier_invariant_binary(__ls_cond c, __ls_size t1, __ls_size t2, __ls_size t3, __ls_size t4);
__LS_INTRINSIC void __lockstep_barrier_invariant_binary(__ls_cond c, __ls_size t1, __ls_size t2, __ls_size t3, __ls_size t4, __ls_size t5);
__LS_INTRINSIC void __lockstep_barrier_invariant_binary(__ls_cond c, __ls_size t1, __ls_size t2, __ls_size t3, __ls_size t4, __ls_size t5, __ls_size t6);
__LS_INTRINSIC void __lockstep_barrier_invariant_binary(__ls_cond c, __ls_size t1, __ls_size t2, __ls_size t3, __ls_size t4, __ls_size t5, __ls_size t6, __ls_size t7);
__LS_INTRINSIC void __lockstep_barrier_invariant_binary(__ls_cond c, __ls_size t1, __ls_size t2, __ls_size t3, __ls_size t4, __ls_size t5, __ls_size t6, __ls_size t7, __ls_size t8);
__LS_INTRINSIC void __lockstep_barrier_invariant_binary(__ls_cond c, __ls_size t1, __ls_size t2, __ls_size t3, __ls_size t4, __ls_size t5, __ls_size t6, __ls_size t7, __ls_size t8, __ls_size t9);
__LS_INTRINSIC void __lockstep_barrier_invariant_binary(__ls_cond c, __ls_size t1, __ls_size t2, __ls_size t3, __ls_size t4, __ls_size t5, __ls_size t6, __ls_size t7, __ls_size t8, __ls_size t9, __ls_size t10);
__LS_INTRINSIC void __lockstep_barrier_invariant_binary(__ls_cond c, __ls_size t1, __ls_size t2, __ls_size t3, __ls_size t4, __ls_size t5, __ls_size t6, __ls_size t7, __ls_size t8, __ls_size t9, __ls_size t10, __ls_size t11);
__LS_INTRINSIC void __lockstep_barrier_invariant_binary(__ls_cond c, __ls_size t1, __ls_size t2, __ls_size t3, __ls_size t4, __ls_size t5, __ls_size t6, __ls_size t7, __ls_size t8, __ls_size t9, __ls_size t10, __ls_size t11, __ls_size t12);
__LS_INTRINSIC void __lockstep_barrier_invariant_binary(__ls_cond c, __ls_size t1, __ls_size t2, __ls_size t3, __ls_size t4, __ls_size t5, __ls_size t6, __ls_size t7, __ls_size t8, __ls_size t9, __ls_size t10, __ls_size t11, __ls_size t12, __ls_size t13);
__LS_INTRINSIC void __lockstep_barrier_invariant_binary(__ls_cond c, __ls_size t1, __ls_size t2, __ls_size t3, __ls_size t4, __ls_size t5, __ls_size t6, __ls_size t7, __ls_size t8, __ls_size t9, __ls_size t10, __ls_size t11, __ls_size t12, __ls_size t13, __ls_size t14);
__LS_INTRINSIC void __lockstep_barrier_invariant_binary(__ls_cond c, __ls_size t1, __ls_size t2, __ls_size t3, __ls_size t4, __ls_size t5, __ls_size t6, __ls_size t7, __ls_size t8, __ls_size t9, __ls_size t10, __ls_size t11, __ls_size t12, __ls_size t13, __ls_size t14, __ls_size t15);
__LS_INTRINSIC void __lockstep_barrier_invariant_binary(__ls_cond c, __ls_size t1, __ls_size t2, __ls_size t3, __ls_size t4, __ls_size t5, __ls_size t6, __ls_size t7, __ls_size t8, __ls_size t9, __ls_size t10, __ls_size t11, __ls_size t12, __ls_size t13, __ls_size t14, __ls_size t15, __ls_size t16);
__LS_INTRINSIC void __lockstep_barrier_invariant_binary(__ls_cond c, __ls_size t1, __ls_size t2, __ls_size t3, __ls_size t4, __ls_size t5, __ls_size t6, __ls_size t7, __ls_size t8, __ls_size t9, __ls_size t10, __ls_size t11, __ls_size t12, __ls_size t13, __ls_size t14, __ls_size t15, __ls_size t16, __ls_size t17);
__LS_INTRINSIC void __lockstep_barrier_invariant_binary(__ls_cond c, __ls_size t1, __ls_size t2, __ls_size t3, __ls_size t4, __ls_size t5, __ls_size t6, __ls_size t7, __ls_size t8, __ls_size t9, __ls_size t10, __ls_size t11, __ls_size t12, __ls_size t13, __ls_size t14, __ls_size t15, __ls_size t16, __ls_size t17, __ls_size t18);
__LS_INTRINSIC void __lockstep_barrier_invariant_binary(__ls_cond c, __ls_size t1, __ls_size t2, __ls_size t3, __ls_size t4, __ls_size t5, __ls_size t6, __ls_size t7, __ls_size t8, __ls_size t9, __ls_size t10, __ls_size t11, __ls_size t12, __ls_size t13, __ls_size t14, __ls_size t15, __ls_size t16, __ls_size t17, __ls_size t18, __ls_size t19);
__LS_INTRINSIC void __lockstep_barrier_invariant_binary(__ls_cond c, __ls_size t1, __ls_size t2, __ls_size t3, __ls_size t4, __ls_size t5, __ls_size t6, __ls_size t7, __ls_size t8, __ls_size t9, __ls_size t10, __ls_size t11, __ls_size t12, __ls_size t13, __ls_size t14, __ls_size t15, __ls_size t16, __ls_size t17, __ls_size t18, __ls_size t19, __ls_size t20);
__LS_INTRINSIC void __lockstep_barrier_invariant_binary(__ls_cond c, __ls_size t1, __ls_size t2, __ls_size t3, __ls_size t4, __ls_size t5, __ls_size t6, __ls_size t7, __ls_size t8, __ls_size t9, __ls_size t10, __ls_size t11, __ls_size t12, __ls_size t13, __ls_size t14, __ls_size t15, __ls_size t16, __ls_size t17, __ls_size t18, __ls_size t19, __ls_size t20, __ls_size t21);
__LS_INTRINSIC void __lockstep_barrier_invariant_binary(__ls_cond c, __ls_size t1, __ls_size t2, __ls_size t3, __ls_size t4, __ls_size t5, __ls_size t6, __ls_size t7, __ls_size t8, __ls_size t9, __ls_size t10, __ls_size t11, __ls_size t12, __ls_size t13, __ls_size t14, __ls_size t15, __ls_size t16, __ls_size t17, __ls_size t18, __ls_size t19, __ls_size t20, __ls_size t21, __ls_size t22);
__LS_INTRINSIC void __lockstep_barrier_invariant_binary(__ls_cond c, __ls_size t1, __ls_size t2, __ls_size t3, __ls_size t4, __ls_size t5, __ls_size t6, __ls_size t7, __ls_size t8, __ls_size t9, __ls_size t10, __ls_size t11, __ls_size t12, __ls_size t13, __ls_size t14, __ls_size t15, __ls_size t16, __ls_size t17, __ls_size t18, __ls_size t19, __ls_size t20, __ls_size t21, __ls_size t22, __ls_size t23);
__LS_INTRINSIC void __lockstep_barrier_invariant_binary(__ls_cond c, __ls_size t1, __ls_size t2, __ls_size t3, __ls_size t4, __ls_size t5, __ls_size t6, __ls_size t7, __ls_size t8, __ls_size t9, __ls_size t10, __ls_size t11, __ls_size t12, __ls_size t13, __ls_size t14, __ls_size t15, __ls_size t16, __ls_size t17, __ls_size t18, __ls_size t19, __ls_size t20, __ls_size t21, __ls_size t22, __ls_size t23, __ls_size t24);
__LS_INTRINSIC void __lockstep_barrier_invariant_binary(__ls_cond c, __ls_size t1, __ls_size t2, __ls_size t3, __ls_size t4, __ls_size t5, __ls_size t6, __ls_size t7, __ls_size t8, __ls_size t9, __ls_size t10, __ls_size t11, __ls_size t12, __ls_size t13, __ls_size t14, __ls_size t15, __ls_size t16, __ls_size t17, __ls_size t18, __ls_size t19, __ls_size t20, __ls_size t21, __ls_size t22, __ls_size t23, __ls_size t24, __ls_size t25);
__LS_INTRINSIC void __lockstep_barrier_invariant_binary(__ls_cond c, __ls_size t1, __ls_size t2, __ls_size t3, __ls_size t4, __ls_size t5, __ls_size t6, __ls_size t7, __ls_size t8, __ls_size t9, __ls_size t10, __ls_size t11, __ls_size t12, __ls_size t13, __ls_size t14, __ls_size t15, __ls_size t16, __ls_size t17, __ls_size t18, __ls_size t19, __ls_size t20, __ls_size t21, __ls_size t22, __ls_size t23, __ls_size t24, __ls_size t25, __ls_size t26);
__LS_INTRINSIC void __lockstep_barrier_invariant_binary(__ls_cond c, __ls_size t1, __ls_size t2, __ls_size t3, __ls_size t4, __ls_size t5, __ls_size t6, __ls_size t7, __ls_size t8, __ls_size t9, __ls_size t10, __ls_size t11, __ls_size t12, __ls_size t13, __ls_size t14, __ls_size t15, __ls_size t16, __ls_size t17, __ls_size t18, __ls_size t19, __ls_size t20, __ls_size t21, __ls_size t22, __ls_size t23, __ls_size t24, __ls_size t25, __ls_size t26, __ls_size t27);
__LS_INTRINSIC void __lockstep_barrier_invariant_binary(__ls_cond c, __ls_size t1, __ls_size t2, __ls_size t3, __ls_size t4, __ls_size t5, __ls_size t6, __ls_size t7, __ls_size t8, __ls_size t9, __ls_size t10, __ls_size t11, __ls_size t12, __ls_size t13, __ls_size t14, __ls_size t15, __ls_size t16, __ls_size t17, __ls_size t18, __ls_size t19, __ls_size t20, __ls_size t21, __ls_size t22, __ls_size t23, __ls_size t24, __ls_size t25, __ls_size t26, __ls_size t27, __ls_size t28);
__LS_INTRINSIC void __lockstep_barrier_invariant_binary(__ls_cond c, __ls_size t1, __ls_size t2, __ls_size t3, __ls_size t4, __ls_size t5, __ls_size t6, __ls_size t7, __ls_size t8, __ls_size t9, __ls_size t10, __ls_size t11, __ls_size t12, __ls_size t13, __ls_size t14, __ls_size t15, __ls_size t16, __ls_size t17, __ls_size t18, __ls_size t19, __ls_size t20, __ls_size t21, __ls_size t22, __ls_size t23, __ls_size t24, __ls_size t25, __ls_size t26, __ls_size t27, __ls_size t28, __ls_size t29);
__LS_INTRINSIC void __lockstep_barrier_invariant_binary(__ls_cond c, __ls_size t1, __ls_size t2, __ls_size t3, __ls_size t4, __ls_size t5, __ls_size t6, __ls_size t7, __ls_size t8, __ls_size t9, __ls_size t10, __ls_size t11, __ls_size t12, __ls_size t13, __ls_size t14, __ls_size t15, __ls_size t16, __ls_size t17, __ls_size t18, __ls_size t19, __ls_size t20, __ls_size t21, __ls_size t22, __ls_size t23, __ls_size t24, __ls_size t25, __ls_size t26, __ls_size t27, __ls_size t28, __ls_size t29, __ls_size t30);
__LS_INTRINSIC void __lockstep_barrier_invariant_binary(__ls_cond c, __ls_size t1, __ls_size t2, __ls_size t3, __ls_size t4, __ls_size t5, __ls_size t6, __ls_size t7, __ls_size t8, __ls_size t9, __ls_size t10, __ls_size t11, __ls_size t12, __ls_size t13, __ls_size t14, __ls_size t15, __ls_size t16, __ls_size t17, __ls_size t18, __ls_size t19, __ls_size t20, __ls_size t21, __ls_size t22, __ls_size t23, __ls_size t24, __ls_size t25, __ls_size t26, __ls_size t27, __ls_size t28, __ls_size t29, __ls_size t30, __ls_size t31);
__LS_INTRINSIC void __lockstep_barrier_invariant_binary(__ls_cond c, __ls_size t1, __ls_size t2, __ls_size t3, __ls_size t4, __ls_size t5, __ls_size t6, __ls_size t7, __ls_size t8, __ls_size t9, __ls_size t10, __ls_size t11, __ls_size t12, __ls_size t13, __ls_size t14, __ls_size t15, __ls_size t16, __ls_size t17, __ls_size t18, __ls_size t19, __ls_size t20, __ls_size t21, __ls_size t22, __ls_size t23, __ls_size t24, __ls_size t25, __ls_size t26, __ls_size t27, __ls_size t28, __ls_size t29, __ls_size t30, __ls_size t31, __ls_size t32);

/* ===========================================================================
 * The user-facing annotation language.
 * ========================================================================= */

/* Statements. */
__LS_WRAPPER void __assert(__ls_bool c) { __lockstep_assert((__ls_cond)c); }
__LS_WRAPPER void __assume(__ls_bool c) { __lockstep_assume((__ls_cond)c); }
__LS_WRAPPER void __requires(__ls_bool c) { __lockstep_requires((__ls_cond)c); }
__LS_WRAPPER void __ensures(__ls_bool c) { __lockstep_ensures((__ls_cond)c); }
__LS_WRAPPER void __invariant(__ls_bool c) { __lockstep_invariant((__ls_cond)c); }
__LS_WRAPPER void __global_invariant(__ls_bool c) { __lockstep_global_invariant((__ls_cond)c); }
__LS_WRAPPER void __candidate_invariant(__ls_bool c) { __lockstep_candidate_invariant((__ls_cond)c); }
__LS_WRAPPER void __candidate_global_invariant(__ls_bool c) { __lockstep_candidate_global_invariant((__ls_cond)c); }
__LS_WRAPPER void __function_wide_invariant(__ls_bool c) { __lockstep_function_wide_invariant((__ls_cond)c); }
__LS_WRAPPER void __function_wide_candidate_invariant(__ls_bool c) { __lockstep_function_wide_candidate_invariant((__ls_cond)c); }
__LS_WRAPPER void __global_requires(__ls_bool c) { __lockstep_global_requires((__ls_cond)c); }
__LS_WRAPPER void __global_ensures(__ls_bool c) { __lockstep_global_ensures((__ls_cond)c); }
__LS_WRAPPER void __global_assert(__ls_bool c) { __lockstep_global_assert((__ls_cond)c); }

/* Expressions. */
__LS_WRAPPER bool __implies(__ls_bool a, __ls_bool b) { return __lockstep_implies((__ls_cond)a, (__ls_cond)b); }
__LS_WRAPPER bool __enabled(void) { return __lockstep_enabled(); }
/* GPUVerify's "enabled at the immediate dominator": approximated by __enabled. */
__LS_WRAPPER bool __dominator_enabled(void) { return __lockstep_enabled(); }
#define __same_group (__lockstep_same_group())
#define __ite(c, a, b) ((c) ? (a) : (b))
/* x mod y for a power of two y. */
#define __mod_pow2(x, y) ((x) & ((y) - 1))

/* Two-thread expressions: the value in the other thread of the pair. */
#define __other_int(x) __lockstep_other_int(x)
#define __other_bool(x) __lockstep_other_bool(x)
#define __uniform_int(x) __lockstep_uniform_int(x)
#define __uniform_bool(x) __lockstep_uniform_bool(x)
#define __distinct_int(x) __lockstep_distinct_int(x)
#define __distinct_bool(x) __lockstep_distinct_bool(x)
/* The condition holds in both threads of the pair. */
__LS_WRAPPER bool __all(__ls_bool c) { return c & __lockstep_other_bool(c); }
/* The condition holds in at most one thread of the pair. */
__LS_WRAPPER bool __exclusive(__ls_bool c) { return !(c & __lockstep_other_bool(c)); }

/* At most one thread of the pair (GPUVerify's other name for __exclusive). */
__LS_WRAPPER bool __at_most_one(__ls_bool c) { return !(c & __lockstep_other_bool(c)); }
/* x is zero or a power of two. */
#define __is_pow2(x) ((((x) & ((x) - 1)) == 0))

/* Values on entry (postconditions) and the return value. */
#define __old_int(x) __lockstep_old_int(x)
#define __old_uint(x) __lockstep_old_int(x)
#define __old_bool(x) __lockstep_old_bool(x)
#define __old_float(x) __lockstep_old_float(x)
#define __return_val_int() __lockstep_return_val_int()
#define __return_val_uint() __lockstep_return_val_uint()
#define __return_val_unsigned() __lockstep_return_val_uint()
#define __return_val_long() __lockstep_return_val_long()
#define __return_val_ulong() __lockstep_return_val_ulong()
#define __return_val_bool() __lockstep_return_val_bool()
#define __return_val_float() __lockstep_return_val_float()
#define __return_val_double() __lockstep_return_val_double()
#if !defined(__OPENCL_C_VERSION__)
#define __other_ptr(p) __lockstep_other_ptr(p)
#define __old_ptr(p) __lockstep_old_ptr(p)
#define __return_val_ptr() __lockstep_return_val_ptr()
/* The return value of a function returning the function-pointer type T. */
#define __return_val_funptr(T) ((T)__lockstep_return_val_ptr())
#endif

/* Memory-access expressions and statements. */
#define __LS_PTR_WRAPPERS(AS)                                                                   \
  __LS_WRAPPER bool __read(const volatile AS void *p) { return __lockstep_read(p); }           \
  __LS_WRAPPER bool __write(const volatile AS void *p) { return __lockstep_write(p); }         \
  __LS_WRAPPER __ls_offset __read_offset_bytes(const volatile AS void *p) {                    \
    return __lockstep_read_offset(p);                                                          \
  }                                                                                            \
  __LS_WRAPPER __ls_offset __write_offset_bytes(const volatile AS void *p) {                   \
    return __lockstep_write_offset(p);                                                         \
  }                                                                                            \
  __LS_WRAPPER int __ptr_base(const volatile AS void *p) { return __lockstep_ptr_base(p); }    \
  __LS_WRAPPER int __ptr_offset_bytes(const volatile AS void *p) {                             \
    return __lockstep_ptr_offset(p);                                                           \
  }                                                                                            \
  __LS_WRAPPER bool __read_implies(const volatile AS void *p, __ls_bool c) {                   \
    return __lockstep_implies((__ls_cond)__lockstep_read(p), (__ls_cond)c);                    \
  }                                                                                            \
  __LS_WRAPPER bool __write_implies(const volatile AS void *p, __ls_bool c) {                  \
    return __lockstep_implies((__ls_cond)__lockstep_write(p), (__ls_cond)c);                   \
  }                                                                                            \
  __LS_WRAPPER bool __no_read(const volatile AS void *p) { return !__lockstep_read(p); }      \
  __LS_WRAPPER bool __no_write(const volatile AS void *p) { return !__lockstep_write(p); }    \
  __LS_WRAPPER void __requires_fresh_array(const volatile AS void *p) {                        \
    __lockstep_fresh_array(p);                                                                 \
  }                                                                                            \
  __LS_WRAPPER void __writes_to(const volatile AS void *p) { __lockstep_writes_to(p); }        \
  __LS_WRAPPER void __reads_from(const volatile AS void *p) { __lockstep_reads_from(p); }     \
  __LS_WRAPPER bool __atomic_has_taken_value(const volatile AS void *p, __ls_offset offset,     \
                                             unsigned long value) {                            \
    return __lockstep_atomic_has_taken_value(p, offset, value);                                \
  }
__LS_FOR_EACH_SPACE(__LS_PTR_WRAPPERS)
#undef __LS_PTR_WRAPPERS
/* Element (not byte) offsets. */
#define __read_offset(p) (__read_offset_bytes(p) / sizeof(*(p)))
#define __write_offset(p) (__write_offset_bytes(p) / sizeof(*(p)))
#define __ptr_offset(p) (__ptr_offset_bytes(p) / (int)sizeof(*(p)))

/* Permissions (barrier-invariant bookkeeping in GPUVerify): no effect here;
 * the arguments are type-checked but not evaluated, so they add no access. */
#define __read_permission(T, x) ((void)sizeof(T), (void)sizeof(x))
#define __write_permission(T, x) ((void)sizeof(T), (void)sizeof(x))

/* Axioms at file scope: a body-only function the lowering finds by its name
 * prefix; its condition is assumed for every thread of every kernel. */
#define __LS_CAT2(a, b) a##b
#define __LS_CAT(a, b) __LS_CAT2(a, b)
#if defined(__OPENCL_C_VERSION__)
#define __axiom(e)                                                             \
  __attribute__((used)) void __LS_CAT(__lockstep_axiom_fn_, __COUNTER__)(void) { \
    __lockstep_axiom((__ls_cond)(e));                                          \
  }
#else
#define __axiom(e)                                                             \
  extern "C" __attribute__((device, used)) void                                \
  __LS_CAT(__lockstep_axiom_fn_, __COUNTER__)(void) {                          \
    __lockstep_axiom((__ls_cond)(e));                                          \
  }
#endif

/* Uninterpreted functions: GPUVerify's DECLARE_UF_* declare a body-less
 * function, which the lowering treats as an uninterpreted call. */
#if defined(__OPENCL_C_VERSION__)
#define __LS_UF_QUALS
#else
#define __LS_UF_QUALS __attribute__((device))
#endif
#define DECLARE_UF_NULLARY(NAME, RET) __LS_UF_QUALS RET NAME(void)
#define DECLARE_UF_UNARY(NAME, RET, A1) __LS_UF_QUALS RET NAME(A1)
#define DECLARE_UF_BINARY(NAME, RET, A1, A2) __LS_UF_QUALS RET NAME(A1, A2)
#define DECLARE_UF_TERNARY(NAME, RET, A1, A2, A3) __LS_UF_QUALS RET NAME(A1, A2, A3)

/* Barrier invariants. */
__LS_WRAPPER void __barrier_invariant_1(__ls_bool c, __ls_size t1) { __lockstep_barrier_invariant((__ls_cond)c, t1); }
__LS_WRAPPER void __barrier_invariant_2(__ls_bool c, __ls_size t1, __ls_size t2) { __lockstep_barrier_invariant((__ls_cond)c, t1, t2); }
__LS_WRAPPER void __barrier_invariant_3(__ls_bool c, __ls_size t1, __ls_size t2, __ls_size t3) { __lockstep_barrier_invariant((__ls_cond)c, t1, t2, t3); }
__LS_WRAPPER void __barrier_invariant_4(__ls_bool c, __ls_size t1, __ls_size t2, __ls_size t3, __ls_size t4) { __lockstep_barrier_invariant((__ls_cond)c, t1, t2, t3, t4); }
__LS_WRAPPER void __barrier_invariant_5(__ls_bool c, __ls_size t1, __ls_size t2, __ls_size t3, __ls_size t4, __ls_size t5) { __lockstep_barrier_invariant((__ls_cond)c, t1, t2, t3, t4, t5); }
__LS_WRAPPER void __barrier_invariant_6(__ls_bool c, __ls_size t1, __ls_size t2, __ls_size t3, __ls_size t4, __ls_size t5, __ls_size t6) { __lockstep_barrier_invariant((__ls_cond)c, t1, t2, t3, t4, t5, t6); }
__LS_WRAPPER void __barrier_invariant_7(__ls_bool c, __ls_size t1, __ls_size t2, __ls_size t3, __ls_size t4, __ls_size t5, __ls_size t6, __ls_size t7) { __lockstep_barrier_invariant((__ls_cond)c, t1, t2, t3, t4, t5, t6, t7); }
__LS_WRAPPER void __barrier_invariant_8(__ls_bool c, __ls_size t1, __ls_size t2, __ls_size t3, __ls_size t4, __ls_size t5, __ls_size t6, __ls_size t7, __ls_size t8) { __lockstep_barrier_invariant((__ls_cond)c, t1, t2, t3, t4, t5, t6, t7, t8); }
__LS_WRAPPER void __barrier_invariant_9(__ls_bool c, __ls_size t1, __ls_size t2, __ls_size t3, __ls_size t4, __ls_size t5, __ls_size t6, __ls_size t7, __ls_size t8, __ls_size t9) { __lockstep_barrier_invariant((__ls_cond)c, t1, t2, t3, t4, t5, t6, t7, t8, t9); }
__LS_WRAPPER void __barrier_invariant_10(__ls_bool c, __ls_size t1, __ls_size t2, __ls_size t3, __ls_size t4, __ls_size t5, __ls_size t6, __ls_size t7, __ls_size t8, __ls_size t9, __ls_size t10) { __lockstep_barrier_invariant((__ls_cond)c, t1, t2, t3, t4, t5, t6, t7, t8, t9, t10); }
__LS_WRAPPER void __barrier_invariant_11(__ls_bool c, __ls_size t1, __ls_size t2, __ls_size t3, __ls_size t4, __ls_size t5, __ls_size t6, __ls_size t7, __ls_size t8, __ls_size t9, __ls_size t10, __ls_size t11) { __lockstep_barrier_invariant((__ls_cond)c, t1, t2, t3, t4, t5, t6, t7, t8, t9, t10, t11); }
__LS_WRAPPER void __barrier_invariant_12(__ls_bool c, __ls_size t1, __ls_size t2, __ls_size t3, __ls_size t4, __ls_size t5, __ls_size t6, __ls_size t7, __ls_size t8, __ls_size t9, __ls_size t10, __ls_size t11, __ls_size t12) { __lockstep_barrier_invariant((__ls_cond)c, t1, t2, t3, t4, t5, t6, t7, t8, t9, t10, t11, t12); }
__LS_WRAPPER void __barrier_invariant_13(__ls_bool c, __ls_size t1, __ls_size t2, __ls_size t3, __ls_size t4, __ls_size t5, __ls_size t6, __ls_size t7, __ls_size t8, __ls_size t9, __ls_size t10, __ls_size t11, __ls_size t12, __ls_size t13) { __lockstep_barrier_invariant((__ls_cond)c, t1, t2, t3, t4, t5, t6, t7, t8, t9, t10, t11, t12, t13); }
__LS_WRAPPER void __barrier_invariant_14(__ls_bool c, __ls_size t1, __ls_size t2, __ls_size t3, __ls_size t4, __ls_size t5, __ls_size t6, __ls_size t7, __ls_size t8, __ls_size t9, __ls_size t10, __ls_size t11, __ls_size t12, __ls_size t13, __ls_size t14) { __lockstep_barrier_invariant((__ls_cond)c, t1, t2, t3, t4, t5, t6, t7, t8, t9, t10, t11, t12, t13, t14); }
__LS_WRAPPER void __barrier_invariant_15(__ls_bool c, __ls_size t1, __ls_size t2, __ls_size t3, __ls_size t4, __ls_size t5, __ls_size t6, __ls_size t7, __ls_size t8, __ls_size t9, __ls_size t10, __ls_size t11, __ls_size t12, __ls_size t13, __ls_size t14, __ls_size t15) { __lockstep_barrier_invariant((__ls_cond)c, t1, t2, t3, t4, t5, t6, t7, t8, t9, t10, t11, t12, t13, t14, t15); }
__LS_WRAPPER void __barrier_invariant_16(__ls_bool c, __ls_size t1, __ls_size t2, __ls_size t3, __ls_size t4, __ls_size t5, __ls_size t6, __ls_size t7, __ls_size t8, __ls_size t9, __ls_size t10, __ls_size t11, __ls_size t12, __ls_size t13, __ls_size t14, __ls_size t15, __ls_size t16) { __lockstep_barrier_invariant((__ls_cond)c, t1, t2, t3, t4, t5, t6, t7, t8, t9, t10, t11, t12, t13, t14, t15, t16); }
__LS_WRAPPER void __barrier_invariant_17(__ls_bool c, __ls_size t1, __ls_size t2, __ls_size t3, __ls_size t4, __ls_size t5, __ls_size t6, __ls_size t7, __ls_size t8, __ls_size t9, __ls_size t10, __ls_size t11, __ls_size t12, __ls_size t13, __ls_size t14, __ls_size t15, __ls_size t16, __ls_size t17) { __lockstep_barrier_invariant((__ls_cond)c, t1, t2, t3, t4, t5, t6, t7, t8, t9, t10, t11, t12, t13, t14, t15, t16, t17); }
__LS_WRAPPER void __barrier_invariant_18(__ls_bool c, __ls_size t1, __ls_size t2, __ls_size t3, __ls_size t4, __ls_size t5, __ls_size t6, __ls_size t7, __ls_size t8, __ls_size t9, __ls_size t10, __ls_size t11, __ls_size t12, __ls_size t13, __ls_size t14, __ls_size t15, __ls_size t16, __ls_size t17, __ls_size t18) { __lockstep_barrier_invariant((__ls_cond)c, t1, t2, t3, t4, t5, t6, t7, t8, t9, t10, t11, t12, t13, t14, t15, t16, t17, t18); }
__LS_WRAPPER void __barrier_invariant_19(__ls_bool c, __ls_size t1, __ls_size t2, __ls_size t3, __ls_size t4, __ls_size t5, __ls_size t6, __ls_size t7, __ls_size t8, __ls_size t9, __ls_size t10, __ls_size t11, __ls_size t12, __ls_size t13, __ls_size t14, __ls_size t15, __ls_size t16, __ls_size t17, __ls_size t18, __ls_size t19) { __lockstep_barrier_invariant((__ls_cond)c, t1, t2, t3, t4, t5, t6, t7, t8, t9, t10, t11, t12, t13, t14, t15, t16, t17, t18, t19); }
__LS_WRAPPER void __barrier_invariant_20(__ls_bool c, __ls_size t1, __ls_size t2, __ls_size t3, __ls_size t4, __ls_size t5, __ls_size t6, __ls_size t7, __ls_size t8, __ls_size t9, __ls_size t10, __ls_size t11, __ls_size t12, __ls_size t13, __ls_size t14, __ls_size t15, __ls_size t16, __ls_size t17, __ls_size t18, __ls_size t19, __ls_size t20) { __lockstep_barrier_invariant((__ls_cond)c, t1, t2, t3, t4, t5, t6, t7, t8, t9, t10, t11, t12, t13, t14, t15, t16, t17, t18, t19, t20); }
__LS_WRAPPER void __barrier_invariant_21(__ls_bool c, __ls_size t1, __ls_size t2, __ls_size t3, __ls_size t4, __ls_size t5, __ls_size t6, __ls_size t7, __ls_size t8, __ls_size t9, __ls_size t10, __ls_size t11, __ls_size t12, __ls_size t13, __ls_size t14, __ls_size t15, __ls_size t16, __ls_size t17, __ls_size t18, __ls_size t19, __ls_size t20, __ls_size t21) { __lockstep_barrier_invariant((__ls_cond)c, t1, t2, t3, t4, t5, t6, t7, t8, t9, t10, t11, t12, t13, t14, t15, t16, t17, t18, t19, t20, t21); }
__LS_WRAPPER void __barrier_invariant_22(__ls_bool c, __ls_size t1, __ls_size t2, __ls_size t3, __ls_size t4, __ls_size t5, __ls_size t6, __ls_size t7, __ls_size t8, __ls_size t9, __ls_size t10, __ls_size t11, __ls_size t12, __ls_size t13, __ls_size t14, __ls_size t15, __ls_size t16, __ls_size t17, __ls_size t18, __ls_size t19, __ls_size t20, __ls_size t21, __ls_size t22) { __lockstep_barrier_invariant((__ls_cond)c, t1, t2, t3, t4, t5, t6, t7, t8, t9, t10, t11, t12, t13, t14, t15, t16, t17, t18, t19, t20, t21, t22); }
__LS_WRAPPER void __barrier_invariant_23(__ls_bool c, __ls_size t1, __ls_size t2, __ls_size t3, __ls_size t4, __ls_size t5, __ls_size t6, __ls_size t7, __ls_size t8, __ls_size t9, __ls_size t10, __ls_size t11, __ls_size t12, __ls_size t13, __ls_size t14, __ls_size t15, __ls_size t16, __ls_size t17, __ls_size t18, __ls_size t19, __ls_size t20, __ls_size t21, __ls_size t22, __ls_size t23) { __lockstep_barrier_invariant((__ls_cond)c, t1, t2, t3, t4, t5, t6, t7, t8, t9, t10, t11, t12, t13, t14, t15, t16, t17, t18, t19, t20, t21, t22, t23); }
__LS_WRAPPER void __barrier_invariant_24(__ls_bool c, __ls_size t1, __ls_size t2, __ls_size t3, __ls_size t4, __ls_size t5, __ls_size t6, __ls_size t7, __ls_size t8, __ls_size t9, __ls_size t10, __ls_size t11, __ls_size t12, __ls_size t13, __ls_size t14, __ls_size t15, __ls_size t16, __ls_size t17, __ls_size t18, __ls_size t19, __ls_size t20, __ls_size t21, __ls_size t22, __ls_size t23, __ls_size t24) { __lockstep_barrier_invariant((__ls_cond)c, t1, t2, t3, t4, t5, t6, t7, t8, t9, t10, t11, t12, t13, t14, t15, t16, t17, t18, t19, t20, t21, t22, t23, t24); }
__LS_WRAPPER void __barrier_invariant_25(__ls_bool c, __ls_size t1, __ls_size t2, __ls_size t3, __ls_size t4, __ls_size t5, __ls_size t6, __ls_size t7, __ls_size t8, __ls_size t9, __ls_size t10, __ls_size t11, __ls_size t12, __ls_size t13, __ls_size t14, __ls_size t15, __ls_size t16, __ls_size t17, __ls_size t18, __ls_size t19, __ls_size t20, __ls_size t21, __ls_size t22, __ls_size t23, __ls_size t24, __ls_size t25) { __lockstep_barrier_invariant((__ls_cond)c, t1, t2, t3, t4, t5, t6, t7, t8, t9, t10, t11, t12, t13, t14, t15, t16, t17, t18, t19, t20, t21, t22, t23, t24, t25); }
__LS_WRAPPER void __barrier_invariant_26(__ls_bool c, __ls_size t1, __ls_size t2, __ls_size t3, __ls_size t4, __ls_size t5, __ls_size t6, __ls_size t7, __ls_size t8, __ls_size t9, __ls_size t10, __ls_size t11, __ls_size t12, __ls_size t13, __ls_size t14, __ls_size t15, __ls_size t16, __ls_size t17, __ls_size t18, __ls_size t19, __ls_size t20, __ls_size t21, __ls_size t22, __ls_size t23, __ls_size t24, __ls_size t25, __ls_size t26) { __lockstep_barrier_invariant((__ls_cond)c, t1, t2, t3, t4, t5, t6, t7, t8, t9, t10, t11, t12, t13, t14, t15, t16, t17, t18, t19, t20, t21, t22, t23, t24, t25, t26); }
__LS_WRAPPER void __barrier_invariant_27(__ls_bool c, __ls_size t1, __ls_size t2, __ls_size t3, __ls_size t4, __ls_size t5, __ls_size t6, __ls_size t7, __ls_size t8, __ls_size t9, __ls_size t10, __ls_size t11, __ls_size t12, __ls_size t13, __ls_size t14, __ls_size t15, __ls_size t16, __ls_size t17, __ls_size t18, __ls_size t19, __ls_size t20, __ls_size t21, __ls_size t22, __ls_size t23, __ls_size t24, __ls_size t25, __ls_size t26, __ls_size t27) { __lockstep_barrier_invariant((__ls_cond)c, t1, t2, t3, t4, t5, t6, t7, t8, t9, t10, t11, t12, t13, t14, t15, t16, t17, t18, t19, t20, t21, t22, t23, t24, t25, t26, t27); }
__LS_WRAPPER void __barrier_invariant_28(__ls_bool c, __ls_size t1, __ls_size t2, __ls_size t3, __ls_size t4, __ls_size t5, __ls_size t6, __ls_size t7, __ls_size t8, __ls_size t9, __ls_size t10, __ls_size t11, __ls_size t12, __ls_size t13, __ls_size t14, __ls_size t15, __ls_size t16, __ls_size t17, __ls_size t18, __ls_size t19, __ls_size t20, __ls_size t21, __ls_size t22, __ls_size t23, __ls_size t24, __ls_size t25, __ls_size t26, __ls_size t27, __ls_size t28) { __lockstep_barrier_invariant((__ls_cond)c, t1, t2, t3, t4, t5, t6, t7, t8, t9, t10, t11, t12, t13, t14, t15, t16, t17, t18, t19, t20, t21, t22, t23, t24, t25, t26, t27, t28); }
__LS_WRAPPER void __barrier_invariant_29(__ls_bool c, __ls_size t1, __ls_size t2, __ls_size t3, __ls_size t4, __ls_size t5, __ls_size t6, __ls_size t7, __ls_size t8, __ls_size t9, __ls_size t10, __ls_size t11, __ls_size t12, __ls_size t13, __ls_size t14, __ls_size t15, __ls_size t16, __ls_size t17, __ls_size t18, __ls_size t19, __ls_size t20, __ls_size t21, __ls_size t22, __ls_size t23, __ls_size t24, __ls_size t25, __ls_size t26, __ls_size t27, __ls_size t28, __ls_size t29) { __lockstep_barrier_invariant((__ls_cond)c, t1, t2, t3, t4, t5, t6, t7, t8, t9, t10, t11, t12, t13, t14, t15, t16, t17, t18, t19, t20, t21, t22, t23, t24, t25, t26, t27, t28, t29); }
__LS_WRAPPER void __barrier_invariant_30(__ls_bool c, __ls_size t1, __ls_size t2, __ls_size t3, __ls_size t4, __ls_size t5, __ls_size t6, __ls_size t7, __ls_size t8, __ls_size t9, __ls_size t10, __ls_size t11, __ls_size t12, __ls_size t13, __ls_size t14, __ls_size t15, __ls_size t16, __ls_size t17, __ls_size t18, __ls_size t19, __ls_size t20, __ls_size t21, __ls_size t22, __ls_size t23, __ls_size t24, __ls_size t25, __ls_size t26, __ls_size t27, __ls_size t28, __ls_size t29, __ls_size t30) { __lockstep_barrier_invariant((__ls_cond)c, t1, t2, t3, t4, t5, t6, t7, t8, t9, t10, t11, t12, t13, t14, t15, t16, t17, t18, t19, t20, t21, t22, t23, t24, t25, t26, t27, t28, t29, t30); }
__LS_WRAPPER void __barrier_invariant_31(__ls_bool c, __ls_size t1, __ls_size t2, __ls_size t3, __ls_size t4, __ls_size t5, __ls_size t6, __ls_size t7, __ls_size t8, __ls_size t9, __ls_size t10, __ls_size t11, __ls_size t12, __ls_size t13, __ls_size t14, __ls_size t15, __ls_size t16, __ls_size t17, __ls_size t18, __ls_size t19, __ls_size t20, __ls_size t21, __ls_size t22, __ls_size t23, __ls_size t24, __ls_size t25, __ls_size t26, __ls_size t27, __ls_size t28, __ls_size t29, __ls_size t30, __ls_size t31) { __lockstep_barrier_invariant((__ls_cond)c, t1, t2, t3, t4, t5, t6, t7, t8, t9, t10, t11, t12, t13, t14, t15, t16, t17, t18, t19, t20, t21, t22, t23, t24, t25, t26, t27, t28, t29, t30, t31); }
__LS_WRAPPER void __barrier_invariant_32(__ls_bool c, __ls_size t1, __ls_size t2, __ls_size t3, __ls_size t4, __ls_size t5, __ls_size t6, __ls_size t7, __ls_size t8, __ls_size t9, __ls_size t10, __ls_size t11, __ls_size t12, __ls_size t13, __ls_size t14, __ls_size t15, __ls_size t16, __ls_size t17, __ls_size t18, __ls_size t19, __ls_size t20, __ls_size t21, __ls_size t22, __ls_size t23, __ls_size t24, __ls_size t25, __ls_size t26, __ls_size t27, __ls_size t28, __ls_size t29, __ls_size t30, __ls_size t31, __ls_size t32) { __lockstep_barrier_invariant((__ls_cond)c, t1, t2, t3, t4, t5, t6, t7, t8, t9, t10, t11, t12, t13, t14, t15, t16, t17, t18, t19, t20, t21, t22, t23, t24, t25, t26, t27, t28, t29, t30, t31, t32); }
__LS_WRAPPER void __barrier_invariant_binary_1(__ls_bool c, __ls_size a1, __ls_size b1) { __lockstep_barrier_invariant_binary((__ls_cond)c, a1, b1); }
__LS_WRAPPER void __barrier_invariant_binary_2(__ls_bool c, __ls_size a1, __ls_size b1, __ls_size a2, __ls_size b2) { __lockstep_barrier_invariant_binary((__ls_cond)c, a1, b1, a2, b2); }
__LS_WRAPPER void __barrier_invariant_binary_3(__ls_bool c, __ls_size a1, __ls_size b1, __ls_size a2, __ls_size b2, __ls_size a3, __ls_size b3) { __lockstep_barrier_invariant_binary((__ls_cond)c, a1, b1, a2, b2, a3, b3); }
__LS_WRAPPER void __barrier_invariant_binary_4(__ls_bool c, __ls_size a1, __ls_size b1, __ls_size a2, __ls_size b2, __ls_size a3, __ls_size b3, __ls_size a4, __ls_size b4) { __lockstep_barrier_invariant_binary((__ls_cond)c, a1, b1, a2, b2, a3, b3, a4, b4); }
__LS_WRAPPER void __barrier_invariant_binary_5(__ls_bool c, __ls_size a1, __ls_size b1, __ls_size a2, __ls_size b2, __ls_size a3, __ls_size b3, __ls_size a4, __ls_size b4, __ls_size a5, __ls_size b5) { __lockstep_barrier_invariant_binary((__ls_cond)c, a1, b1, a2, b2, a3, b3, a4, b4, a5, b5); }
__LS_WRAPPER void __barrier_invariant_binary_6(__ls_bool c, __ls_size a1, __ls_size b1, __ls_size a2, __ls_size b2, __ls_size a3, __ls_size b3, __ls_size a4, __ls_size b4, __ls_size a5, __ls_size b5, __ls_size a6, __ls_size b6) { __lockstep_barrier_invariant_binary((__ls_cond)c, a1, b1, a2, b2, a3, b3, a4, b4, a5, b5, a6, b6); }
__LS_WRAPPER void __barrier_invariant_binary_7(__ls_bool c, __ls_size a1, __ls_size b1, __ls_size a2, __ls_size b2, __ls_size a3, __ls_size b3, __ls_size a4, __ls_size b4, __ls_size a5, __ls_size b5, __ls_size a6, __ls_size b6, __ls_size a7, __ls_size b7) { __lockstep_barrier_invariant_binary((__ls_cond)c, a1, b1, a2, b2, a3, b3, a4, b4, a5, b5, a6, b6, a7, b7); }
__LS_WRAPPER void __barrier_invariant_binary_8(__ls_bool c, __ls_size a1, __ls_size b1, __ls_size a2, __ls_size b2, __ls_size a3, __ls_size b3, __ls_size a4, __ls_size b4, __ls_size a5, __ls_size b5, __ls_size a6, __ls_size b6, __ls_size a7, __ls_size b7, __ls_size a8, __ls_size b8) { __lockstep_barrier_invariant_binary((__ls_cond)c, a1, b1, a2, b2, a3, b3, a4, b4, a5, b5, a6, b6, a7, b7, a8, b8); }
__LS_WRAPPER void __barrier_invariant_binary_9(__ls_bool c, __ls_size a1, __ls_size b1, __ls_size a2, __ls_size b2, __ls_size a3, __ls_size b3, __ls_size a4, __ls_size b4, __ls_size a5, __ls_size b5, __ls_size a6, __ls_size b6, __ls_size a7, __ls_size b7, __ls_size a8, __ls_size b8, __ls_size a9, __ls_size b9) { __lockstep_barrier_invariant_binary((__ls_cond)c, a1, b1, a2, b2, a3, b3, a4, b4, a5, b5, a6, b6, a7, b7, a8, b8, a9, b9); }
__LS_WRAPPER void __barrier_invariant_binary_10(__ls_bool c, __ls_size a1, __ls_size b1, __ls_size a2, __ls_size b2, __ls_size a3, __ls_size b3, __ls_size a4, __ls_size b4, __ls_size a5, __ls_size b5, __ls_size a6, __ls_size b6, __ls_size a7, __ls_size b7, __ls_size a8, __ls_size b8, __ls_size a9, __ls_size b9, __ls_size a10, __ls_size b10) { __lockstep_barrier_invariant_binary((__ls_cond)c, a1, b1, a2, b2, a3, b3, a4, b4, a5, b5, a6, b6, a7, b7, a8, b8, a9, b9, a10, b10); }
__LS_WRAPPER void __barrier_invariant_binary_11(__ls_bool c, __ls_size a1, __ls_size b1, __ls_size a2, __ls_size b2, __ls_size a3, __ls_size b3, __ls_size a4, __ls_size b4, __ls_size a5, __ls_size b5, __ls_size a6, __ls_size b6, __ls_size a7, __ls_size b7, __ls_size a8, __ls_size b8, __ls_size a9, __ls_size b9, __ls_size a10, __ls_size b10, __ls_size a11, __ls_size b11) { __lockstep_barrier_invariant_binary((__ls_cond)c, a1, b1, a2, b2, a3, b3, a4, b4, a5, b5, a6, b6, a7, b7, a8, b8, a9, b9, a10, b10, a11, b11); }
__LS_WRAPPER void __barrier_invariant_binary_12(__ls_bool c, __ls_size a1, __ls_size b1, __ls_size a2, __ls_size b2, __ls_size a3, __ls_size b3, __ls_size a4, __ls_size b4, __ls_size a5, __ls_size b5, __ls_size a6, __ls_size b6, __ls_size a7, __ls_size b7, __ls_size a8, __ls_size b8, __ls_size a9, __ls_size b9, __ls_size a10, __ls_size b10, __ls_size a11, __ls_size b11, __ls_size a12, __ls_size b12) { __lockstep_barrier_invariant_binary((__ls_cond)c, a1, b1, a2, b2, a3, b3, a4, b4, a5, b5, a6, b6, a7, b7, a8, b8, a9, b9, a10, b10, a11, b11, a12, b12); }
__LS_WRAPPER void __barrier_invariant_binary_13(__ls_bool c, __ls_size a1, __ls_size b1, __ls_size a2, __ls_size b2, __ls_size a3, __ls_size b3, __ls_size a4, __ls_size b4, __ls_size a5, __ls_size b5, __ls_size a6, __ls_size b6, __ls_size a7, __ls_size b7, __ls_size a8, __ls_size b8, __ls_size a9, __ls_size b9, __ls_size a10, __ls_size b10, __ls_size a11, __ls_size b11, __ls_size a12, __ls_size b12, __ls_size a13, __ls_size b13) { __lockstep_barrier_invariant_binary((__ls_cond)c, a1, b1, a2, b2, a3, b3, a4, b4, a5, b5, a6, b6, a7, b7, a8, b8, a9, b9, a10, b10, a11, b11, a12, b12, a13, b13); }
__LS_WRAPPER void __barrier_invariant_binary_14(__ls_bool c, __ls_size a1, __ls_size b1, __ls_size a2, __ls_size b2, __ls_size a3, __ls_size b3, __ls_size a4, __ls_size b4, __ls_size a5, __ls_size b5, __ls_size a6, __ls_size b6, __ls_size a7, __ls_size b7, __ls_size a8, __ls_size b8, __ls_size a9, __ls_size b9, __ls_size a10, __ls_size b10, __ls_size a11, __ls_size b11, __ls_size a12, __ls_size b12, __ls_size a13, __ls_size b13, __ls_size a14, __ls_size b14) { __lockstep_barrier_invariant_binary((__ls_cond)c, a1, b1, a2, b2, a3, b3, a4, b4, a5, b5, a6, b6, a7, b7, a8, b8, a9, b9, a10, b10, a11, b11, a12, b12, a13, b13, a14, b14); }
__LS_WRAPPER void __barrier_invariant_binary_15(__ls_bool c, __ls_size a1, __ls_size b1, __ls_size a2, __ls_size b2, __ls_size a3, __ls_size b3, __ls_size a4, __ls_size b4, __ls_size a5, __ls_size b5, __ls_size a6, __ls_size b6, __ls_size a7, __ls_size b7, __ls_size a8, __ls_size b8, __ls_size a9, __ls_size b9, __ls_size a10, __ls_size b10, __ls_size a11, __ls_size b11, __ls_size a12, __ls_size b12, __ls_size a13, __ls_size b13, __ls_size a14, __ls_size b14, __ls_size a15, __ls_size b15) { __lockstep_barrier_invariant_binary((__ls_cond)c, a1, b1, a2, b2, a3, b3, a4, b4, a5, b5, a6, b6, a7, b7, a8, b8, a9, b9, a10, b10, a11, b11, a12, b12, a13, b13, a14, b14, a15, b15); }
__LS_WRAPPER void __barrier_invariant_binary_16(__ls_bool c, __ls_size a1, __ls_size b1, __ls_size a2, __ls_size b2, __ls_size a3, __ls_size b3, __ls_size a4, __ls_size b4, __ls_size a5, __ls_size b5, __ls_size a6, __ls_size b6, __ls_size a7, __ls_size b7, __ls_size a8, __ls_size b8, __ls_size a9, __ls_size b9, __ls_size a10, __ls_size b10, __ls_size a11, __ls_size b11, __ls_size a12, __ls_size b12, __ls_size a13, __ls_size b13, __ls_size a14, __ls_size b14, __ls_size a15, __ls_size b15, __ls_size a16, __ls_size b16) { __lockstep_barrier_invariant_binary((__ls_cond)c, a1, b1, a2, b2, a3, b3, a4, b4, a5, b5, a6, b6, a7, b7, a8, b8, a9, b9, a10, b10, a11, b11, a12, b12, a13, b13, a14, b14, a15, b15, a16, b16); }

/* Addition without overflow: predicates (__add_noovfl(x, y, ...)) and sums
 * whose overflow is assumed away (__add_noovfl_int(x, y) ...). */
#define __LS_NOOVFL_UNSIGNED(T, W)                                                 \
  __LS_WRAPPER bool __add_noovfl(T x, T y) { return (T)(x + y) >= x; }             \
  __LS_WRAPPER bool __add_noovfl(T x, T y, T z) {                                  \
    return ((T)(x + y) >= x) & ((T)(x + y + z) >= (T)(x + y));                     \
  }                                                                                \
  __LS_WRAPPER bool __add_noovfl(T x, T y, T z, T w) {                             \
    return ((T)(x + y) >= x) & ((T)(x + y + z) >= (T)(x + y)) &                    \
           ((T)(x + y + z + w) >= (T)(x + y + z));                                 \
  }                                                                                \
  __LS_WRAPPER T __LS_CAT(__add_noovfl_, W)(T x, T y) {                            \
    __lockstep_assume((__ls_cond)__add_noovfl(x, y));                              \
    return (T)(x + y);                                                             \
  }
#define __LS_NOOVFL_SIGNED(T, U, W)                                                \
  __LS_WRAPPER bool __add_noovfl(T x, T y) {                                       \
    T s = (T)((U)x + (U)y); /* wrapping sum: no signed overflow is evaluated */    \
    return ((x ^ s) & (y ^ s)) >= 0;                                               \
  }                                                                                \
  __LS_WRAPPER bool __add_noovfl(T x, T y, T z) {                                  \
    return __add_noovfl(x, y) & __add_noovfl((T)((U)x + (U)y), z);                 \
  }                                                                                \
  __LS_WRAPPER bool __add_noovfl(T x, T y, T z, T w) {                             \
    return __add_noovfl(x, y, z) & __add_noovfl((T)((U)x + (U)y + (U)z), w);       \
  }                                                                                \
  __LS_WRAPPER T __LS_CAT(__add_noovfl_, W)(T x, T y) {                            \
    __lockstep_assume((__ls_cond)__add_noovfl(x, y));                              \
    return (T)((U)x + (U)y);                                                       \
  }
__LS_NOOVFL_UNSIGNED(unsigned int, unsigned_int)
__LS_NOOVFL_UNSIGNED(unsigned long, unsigned_long)
__LS_NOOVFL_SIGNED(int, unsigned int, int)
__LS_NOOVFL_SIGNED(long, unsigned long, long)
#undef __LS_NOOVFL_UNSIGNED
#undef __LS_NOOVFL_SIGNED
#define __add_noovfl_unsigned(x, y) __add_noovfl_unsigned_int(x, y)
#define __add_noovfl_uint(x, y) __add_noovfl_unsigned_int(x, y)

#endif /* LOCKSTEP_ANNOTATIONS_H */
