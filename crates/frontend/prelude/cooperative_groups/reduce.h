/* lockstep prelude: a minimal <cooperative_groups/reduce.h>.
 *
 * cg::reduce over a warp tile (Size <= 32) as a butterfly of shfl_xor
 * steps, which leaves the result in every thread of the tile, as CUDA's
 * does; the operators are the function objects of <cooperative_groups>.
 */
#ifndef LOCKSTEP_INC_COOPERATIVE_GROUPS_REDUCE_H
#define LOCKSTEP_INC_COOPERATIVE_GROUPS_REDUCE_H
#include <cooperative_groups.h>
/* <cooperative_groups.h> undefines its helper macros at its end. */
#define __LS_CG static inline __attribute__((always_inline, nodebug, device))
#define __LS_CG_MEMBER __attribute__((always_inline, nodebug, device))

namespace cooperative_groups {

template <typename T> struct plus {
  __LS_CG_MEMBER T operator()(T a, T b) const { return a + b; }
};
template <typename T> struct less {
  __LS_CG_MEMBER T operator()(T a, T b) const { return b < a ? b : a; }
};
template <typename T> struct greater {
  __LS_CG_MEMBER T operator()(T a, T b) const { return a < b ? b : a; }
};
template <typename T> struct bit_and {
  __LS_CG_MEMBER T operator()(T a, T b) const { return a & b; }
};
template <typename T> struct bit_or {
  __LS_CG_MEMBER T operator()(T a, T b) const { return a | b; }
};
template <typename T> struct bit_xor {
  __LS_CG_MEMBER T operator()(T a, T b) const { return a ^ b; }
};

template <unsigned int Size, typename Parent, typename T, typename Op>
__LS_CG T reduce(const thread_block_tile<Size, Parent> &g, T v, Op op) {
  for (unsigned int offset = Size / 2; offset > 0; offset /= 2)
    v = op(v, g.shfl_xor(v, offset));
  return v;
}

} // namespace cooperative_groups

#undef __LS_CG
#undef __LS_CG_MEMBER
#endif
