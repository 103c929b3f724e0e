/* lockstep prelude: a minimal <cooperative_groups.h>.
 *
 * Block-level groups synchronise with __syncthreads(), the grid with
 * __lockstep_grid_sync(), warp tiles (size <= 32) with __lockstep_warp_sync()
 * over the tile's lanes. Ranks and sizes are computed from the built-in
 * variables.
 */
#ifndef LOCKSTEP_INC_COOPERATIVE_GROUPS_H
#define LOCKSTEP_INC_COOPERATIVE_GROUPS_H
#include "lockstep_cuda.h"

#define __LS_CG static inline __attribute__((always_inline, nodebug, device))
#define __LS_CG_MEMBER __attribute__((always_inline, nodebug, device))
/* The helpers that fold the three dimensions into a linear rank or size keep
   their debug information: the lowering sees, in a read's inlined frames,
   that its `y` or `z` read is part of a rank (see the front-end's
   `inline_origin`), so a kernel whose own code reads only `x` is still one
   written for 1-D launches. */
#define __LS_CG_RANK static inline __attribute__((always_inline, device))

namespace cooperative_groups {

__LS_CG_RANK unsigned int __ls_block_rank(void) {
  return (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
}
__LS_CG_RANK unsigned int __ls_block_size(void) { return blockDim.x * blockDim.y * blockDim.z; }
__LS_CG_RANK unsigned long long __ls_grid_block_rank(void) {
  return (blockIdx.z * (unsigned long long)gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
}
__LS_CG_RANK unsigned long long __ls_grid_blocks(void) { return (unsigned long long)gridDim.x * gridDim.y * gridDim.z; }

/* A group of threads of a block (the result of the dynamic tiled_partition). */
class thread_group {
protected:
  unsigned int __size;
  unsigned int __rank;
  unsigned int __mask;
  bool __is_block;

public:
  __LS_CG_MEMBER thread_group(unsigned int size, unsigned int rank, unsigned int mask, bool is_block)
      : __size(size), __rank(rank), __mask(mask), __is_block(is_block) {}
  __LS_CG_MEMBER void sync() const {
    if (__is_block)
      __syncthreads();
    else
      __lockstep_warp_sync(__mask);
  }
  __LS_CG_MEMBER unsigned int size() const { return __size; }
  __LS_CG_MEMBER unsigned int num_threads() const { return __size; }
  __LS_CG_MEMBER unsigned int thread_rank() const { return __rank; }
  __LS_CG_MEMBER bool is_valid() const { return true; }
};

class thread_block {
public:
  __LS_CG_MEMBER void sync() const { __syncthreads(); }
  __LS_CG_MEMBER unsigned int size() const { return __ls_block_size(); }
  __LS_CG_MEMBER unsigned int num_threads() const { return __ls_block_size(); }
  __LS_CG_MEMBER unsigned int thread_rank() const { return __ls_block_rank(); }
  __LS_CG_MEMBER dim3 group_index() const { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
  __LS_CG_MEMBER dim3 thread_index() const { return dim3(threadIdx.x, threadIdx.y, threadIdx.z); }
  __LS_CG_MEMBER dim3 group_dim() const { return dim3(blockDim.x, blockDim.y, blockDim.z); }
  __LS_CG_MEMBER dim3 dim_threads() const { return dim3(blockDim.x, blockDim.y, blockDim.z); }
  __LS_CG_MEMBER bool is_valid() const { return true; }
  __LS_CG_MEMBER operator thread_group() const { return thread_group(size(), thread_rank(), 0xffffffffu, true); }
};

class grid_group {
public:
  __LS_CG_MEMBER void sync() const { __lockstep_grid_sync(); }
  __LS_CG_MEMBER unsigned long long size() const { return __ls_block_size() * __ls_grid_blocks(); }
  __LS_CG_MEMBER unsigned long long num_threads() const { return size(); }
  __LS_CG_MEMBER unsigned long long thread_rank() const {
    return __ls_grid_block_rank() * __ls_block_size() + __ls_block_rank();
  }
  __LS_CG_MEMBER unsigned long long block_rank() const { return __ls_grid_block_rank(); }
  __LS_CG_MEMBER unsigned long long num_blocks() const { return __ls_grid_blocks(); }
  __LS_CG_MEMBER dim3 group_dim() const { return dim3(gridDim.x, gridDim.y, gridDim.z); }
  __LS_CG_MEMBER dim3 dim_blocks() const { return dim3(gridDim.x, gridDim.y, gridDim.z); }
  __LS_CG_MEMBER dim3 block_index() const { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
  __LS_CG_MEMBER bool is_valid() const { return true; }
};

/* A statically sized tile of a block; Size is a power of two <= 32 (warp
 * tiles) or a larger divisor of the block (synchronises the whole block). */
template <unsigned int Size, typename Parent = void> class thread_block_tile {
public:
  __LS_CG_MEMBER thread_block_tile() {}
  /* `thread_block_tile<32> t = tiled_partition<32>(block);`: a tile of a
   * known parent converts to one whose parent is not named, as CUDA's does. */
  template <typename P> __LS_CG_MEMBER thread_block_tile(const thread_block_tile<Size, P> &) {}
  __LS_CG_MEMBER static unsigned int __lane() { return __ls_block_rank() & 31u; }
  __LS_CG_MEMBER static unsigned int __tile_mask() {
    if (Size >= 32)
      return 0xffffffffu;
    return ((1u << Size) - 1u) << (__lane() / Size * Size);
  }
  __LS_CG_MEMBER void sync() const {
    if (Size > 32)
      __syncthreads();
    else
      __lockstep_warp_sync(__tile_mask());
  }
  __LS_CG_MEMBER unsigned int size() const { return Size; }
  __LS_CG_MEMBER unsigned int num_threads() const { return Size; }
  __LS_CG_MEMBER unsigned int thread_rank() const { return __ls_block_rank() % Size; }
  __LS_CG_MEMBER unsigned int meta_group_rank() const { return __ls_block_rank() / Size; }
  __LS_CG_MEMBER unsigned int meta_group_size() const { return (__ls_block_size() + Size - 1) / Size; }
  __LS_CG_MEMBER bool is_valid() const { return true; }
  template <typename T> __LS_CG_MEMBER T shfl(T v, int lane) const {
    return __shfl_sync(__tile_mask(), v, lane, Size);
  }
  template <typename T> __LS_CG_MEMBER T shfl_down(T v, unsigned int delta) const {
    return __shfl_down_sync(__tile_mask(), v, delta, Size);
  }
  template <typename T> __LS_CG_MEMBER T shfl_up(T v, unsigned int delta) const {
    return __shfl_up_sync(__tile_mask(), v, delta, Size);
  }
  template <typename T> __LS_CG_MEMBER T shfl_xor(T v, int lane_mask) const {
    return __shfl_xor_sync(__tile_mask(), v, lane_mask, Size);
  }
  __LS_CG_MEMBER unsigned int ballot(int pred) const { return __ballot_sync(__tile_mask(), pred); }
  __LS_CG_MEMBER int any(int pred) const { return __any_sync(__tile_mask(), pred); }
  __LS_CG_MEMBER int all(int pred) const { return __all_sync(__tile_mask(), pred); }
  __LS_CG_MEMBER operator thread_group() const {
    return thread_group(Size, thread_rank(), __tile_mask(), Size > 32);
  }
};

/* The active threads of a warp. */
class coalesced_group {
public:
  __LS_CG_MEMBER void sync() const { __lockstep_warp_sync(__activemask()); }
  __LS_CG_MEMBER unsigned int size() const { return __popc(__activemask()); }
  __LS_CG_MEMBER unsigned int num_threads() const { return size(); }
  __LS_CG_MEMBER unsigned int thread_rank() const {
    return __popc(__activemask() & ((1u << (__ls_block_rank() & 31u)) - 1u));
  }
  __LS_CG_MEMBER unsigned int ballot(int pred) const { return __ballot_sync(__activemask(), pred); }
  __LS_CG_MEMBER int any(int pred) const { return __any_sync(__activemask(), pred); }
  __LS_CG_MEMBER int all(int pred) const { return __all_sync(__activemask(), pred); }
};

__LS_CG thread_block this_thread_block(void) { return thread_block(); }
__LS_CG grid_group this_grid(void) { return grid_group(); }
__LS_CG coalesced_group coalesced_threads(void) { return coalesced_group(); }

template <unsigned int Size, typename Parent>
__LS_CG thread_block_tile<Size, Parent> tiled_partition(const Parent &) {
  return thread_block_tile<Size, Parent>();
}
__LS_CG thread_group tiled_partition(const thread_block &, unsigned int size) {
  unsigned int rank = __ls_block_rank();
  unsigned int mask = size >= 32 ? 0xffffffffu : ((1u << size) - 1u) << ((rank & 31u) / size * size);
  return thread_group(size, rank % size, mask, size > 32);
}
__LS_CG thread_group tiled_partition(const thread_group &parent, unsigned int size) {
  unsigned int rank = parent.thread_rank();
  unsigned int mask = size >= 32 ? 0xffffffffu : ((1u << size) - 1u) << ((__ls_block_rank() & 31u) / size * size);
  return thread_group(size, rank % size, mask, size > 32);
}

template <typename Group> __LS_CG void sync(const Group &g) { g.sync(); }
/* CUDA 9.0's name for sync(). */
template <typename Group> __LS_CG void synchronize(const Group &g) { g.sync(); }
template <typename Group> __LS_CG unsigned long long thread_rank(const Group &g) { return g.thread_rank(); }
template <typename Group> __LS_CG unsigned long long group_size(const Group &g) { return g.size(); }

} // namespace cooperative_groups

#undef __LS_CG
#undef __LS_CG_MEMBER
#endif /* LOCKSTEP_INC_COOPERATIVE_GROUPS_H */
