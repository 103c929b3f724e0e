/* lockstep prelude: a minimal <cooperative_groups/memcpy_async.h>.
 *
 * cg::memcpy_async over a whole thread block, and cg::wait, as lockstep's
 * group-wide asynchronous copy (the model of OpenCL's
 * async_work_group_copy, see INTRINSICS.md): the copy may land at any time
 * until the wait, so an access to its source or destination in between
 * races with it; cg::wait completes every copy of the block and then syncs
 * the block, as CUDA's does. Copies over tiles, wait_prior<N> with N > 0
 * and the layout overloads are not declared here: a file using them is
 * compiled against the toolkit's headers.
 */
#ifndef LOCKSTEP_INC_COOPERATIVE_GROUPS_MEMCPY_ASYNC_H
#define LOCKSTEP_INC_COOPERATIVE_GROUPS_MEMCPY_ASYNC_H
#include <cooperative_groups.h>
/* <cooperative_groups.h> undefines its helper macros at its end. */
#define __LS_CG static inline __attribute__((always_inline, nodebug, device))
#define __LS_CG_MEMBER __attribute__((always_inline, nodebug, device))

__LS_INTRIN void __lockstep_memcpy_async(void *dst, const void *src, unsigned long long bytes);
__LS_INTRIN void __lockstep_wait_all_copies(void);

namespace cuda {
/* A byte count with a promised alignment (libcu++'s cuda::aligned_size_t). */
template <unsigned long long Align> struct aligned_size_t {
  unsigned long long value;
  __LS_CG_MEMBER aligned_size_t(unsigned long long v) : value(v) {}
  __LS_CG_MEMBER operator unsigned long long() const { return value; }
};
}

namespace cooperative_groups {

template <typename T>
__LS_CG void memcpy_async(const thread_block &, T *dst, const T *src, unsigned long long bytes) {
  __lockstep_memcpy_async((void *)dst, (const void *)src, bytes);
}
template <typename T, unsigned long long Align>
__LS_CG void memcpy_async(const thread_block &, T *dst, const T *src, cuda::aligned_size_t<Align> bytes) {
  __lockstep_memcpy_async((void *)dst, (const void *)src, bytes.value);
}
__LS_CG void memcpy_async(const thread_block &, void *dst, const void *src, unsigned long long bytes) {
  __lockstep_memcpy_async(dst, src, bytes);
}

__LS_CG void wait(const thread_block &) { __lockstep_wait_all_copies(); }
template <unsigned int N> __LS_CG void wait_prior(const thread_block &g) {
  static_assert(N == 0, "lockstep models wait_prior<0> only (a wait for every copy)");
  wait(g);
}

} // namespace cooperative_groups
#undef __LS_CG
#undef __LS_CG_MEMBER
#endif
