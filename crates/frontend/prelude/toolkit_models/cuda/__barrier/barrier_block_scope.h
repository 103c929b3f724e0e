/* lockstep's model of libcu++'s block-scope `cuda::barrier` (CCCL 2.8).
 *
 * The toolkit's class cannot be a `__shared__` variable under clang: its
 * destructor is user-provided (it invalidates the hardware barrier on
 * sm_80+), and clang refuses every `__shared__` variable whose constructor
 * or destructor is not empty, where nvcc only warns (the warning CUDA's own
 * samples silence with `#pragma nv_diag_suppress static_var_with_dynamic_init`).
 * Its waits are also spin loops on the barrier's word, which no engine can
 * read as a barrier. This header takes the toolkit's place (lockstep puts
 * its folder before the toolkit's on the include path, and falls back to
 * the toolkit's own header for any other CCCL version) and keeps the
 * class's layout and interface, with the meaning lockstep checks:
 *
 * - `init(&bar, n)` writes the barrier (so that a thread using it before
 *   the initialising thread's write is ordered races with that write) and
 *   asserts that `n` is the number of threads of the block: lockstep models
 *   the barrier as a barrier of the whole block, which is what it is when
 *   every thread of the block arrives and `n` counts them all.
 * - `arrive()` reads the barrier and arrives; `wait(token)` waits. The pair
 *   is a block barrier (`__lockstep_block_barrier_arrive` and `_wait`),
 *   checked for divergence like `__syncthreads()`; the lowering accepts the
 *   pair only when the thread accesses no memory between them, since work
 *   between an arrival and its wait is ordered with neither side.
 * - `arrive_and_wait()` is the same pair with nothing between.
 * - `arrive(n)` passes `n` to the arrival, which the lowering accepts only
 *   when it is the constant 1 (one arrival per thread).
 * - Every other operation (`arrive_and_drop`, `wait_parity`, the
 *   `try_wait*` family) calls a `__lockstep_unmodelled_*` intrinsic, which
 *   makes the kernels that reach it `unknown`, naming the call.
 */
#include <cuda/std/__cccl/version.h>
#if CCCL_VERSION != 2008002
#  include_next <cuda/__barrier/barrier_block_scope.h>
#else
#ifndef _CUDA___BARRIER_BARRIER_BLOCK_SCOPE_H
#define _CUDA___BARRIER_BARRIER_BLOCK_SCOPE_H

#include <cuda/std/detail/__config>
#include <cuda/__fwd/barrier.h>
#include <cuda/__fwd/barrier_native_handle.h>
#include <cuda/std/__atomic/scopes.h>
#include <cuda/std/__barrier/barrier.h>
#include <cuda/std/__barrier/empty_completion.h>
#include <cuda/std/__barrier/poll_tester.h>
#include <cuda/std/__new_>
#include <cuda/std/chrono>
#include <cuda/std/cstdint>

#define __LS_BARRIER __attribute__((always_inline, nodebug)) __device__

extern "C" __device__ void __lockstep_block_barrier_arrive(long long __update);
extern "C" __device__ void __lockstep_block_barrier_wait(void);
extern "C" __device__ void __lockstep_unmodelled_barrier_arrive_and_drop(void);
extern "C" __device__ void __lockstep_unmodelled_barrier_wait_parity(void);
extern "C" __device__ void __lockstep_unmodelled_barrier_try_wait(void);

_LIBCUDACXX_BEGIN_NAMESPACE_CUDA

// Needed for pipeline.arrive_on, as in the toolkit.
struct __block_scope_barrier_base
{};

template <>
class barrier<thread_scope_block, _CUDA_VSTD::__empty_completion> : public __block_scope_barrier_base
{
  using __barrier_base = _CUDA_VSTD::__barrier_base<_CUDA_VSTD::__empty_completion, thread_scope_block>;
  // The toolkit's member, so that the native handle (its address) and the
  // layout stay the same; lockstep reads and writes its first word.
  __barrier_base __barrier;

  _CCCL_DEVICE friend inline _CUDA_VSTD::uint64_t*
  device::_LIBCUDACXX_ABI_NAMESPACE::barrier_native_handle(barrier<thread_scope_block>& b);

  template <typename _Barrier>
  friend class _CUDA_VSTD::__barrier_poll_tester_phase;
  template <typename _Barrier>
  friend class _CUDA_VSTD::__barrier_poll_tester_parity;

  __LS_BARRIER _CUDA_VSTD::uint64_t* __word() const
  {
    return reinterpret_cast<_CUDA_VSTD::uint64_t*>(const_cast<__barrier_base*>(&__barrier));
  }

public:
  using arrival_token = typename __barrier_base::arrival_token;
  // Defaulted, and no destructor: what makes a `__shared__` barrier legal.
  barrier() = default;

  barrier(const barrier&)            = delete;
  barrier& operator=(const barrier&) = delete;

  __LS_BARRIER barrier(_CUDA_VSTD::ptrdiff_t __expected,
                       _CUDA_VSTD::__empty_completion __completion = _CUDA_VSTD::__empty_completion())
  {
    init(this, __expected, __completion);
  }

  __LS_BARRIER friend void init(
    barrier* __b, _CUDA_VSTD::ptrdiff_t __expected, _CUDA_VSTD::__empty_completion = _CUDA_VSTD::__empty_completion())
  {
    __assert(__expected == (_CUDA_VSTD::ptrdiff_t) (blockDim.x * blockDim.y * blockDim.z));
    *__b->__word() = (_CUDA_VSTD::uint64_t) __expected;
  }

  _CCCL_NODISCARD __LS_BARRIER arrival_token arrive(_CUDA_VSTD::ptrdiff_t __update = 1)
  {
    arrival_token __token = *__word();
    __lockstep_block_barrier_arrive(__update);
    return __token;
  }

  __LS_BARRIER void wait(arrival_token&& __phase) const
  {
    (void) __phase;
    __lockstep_block_barrier_wait();
  }

  __LS_BARRIER void arrive_and_wait()
  {
    // The read of the barrier that a use before `init`'s write races with
    // (a discarded `*__word()` would not be a load).
    arrival_token __token = *__word();
    __lockstep_block_barrier_arrive(1);
    wait(_CUDA_VSTD::move(__token));
  }

  __LS_BARRIER void wait_parity(bool __phase_parity) const
  {
    (void) __phase_parity;
    __lockstep_unmodelled_barrier_wait_parity();
  }

  __LS_BARRIER void arrive_and_drop()
  {
    __lockstep_unmodelled_barrier_arrive_and_drop();
  }

  __LS_BARRIER static constexpr ptrdiff_t max() noexcept
  {
    return (1 << 20) - 1;
  }

  template <class _Rep, class _Period>
  _CCCL_NODISCARD __LS_BARRIER bool
  try_wait_for(arrival_token&&, const _CUDA_VSTD::chrono::duration<_Rep, _Period>&)
  {
    __lockstep_unmodelled_barrier_try_wait();
    return true;
  }

  template <class _Clock, class _Duration>
  _CCCL_NODISCARD __LS_BARRIER bool
  try_wait_until(arrival_token&&, const _CUDA_VSTD::chrono::time_point<_Clock, _Duration>&)
  {
    __lockstep_unmodelled_barrier_try_wait();
    return true;
  }

  template <class _Rep, class _Period>
  _CCCL_NODISCARD __LS_BARRIER bool
  try_wait_parity_for(bool, const _CUDA_VSTD::chrono::duration<_Rep, _Period>&)
  {
    __lockstep_unmodelled_barrier_try_wait();
    return true;
  }

  template <class _Clock, class _Duration>
  _CCCL_NODISCARD __LS_BARRIER bool
  try_wait_parity_until(bool, const _CUDA_VSTD::chrono::time_point<_Clock, _Duration>&)
  {
    __lockstep_unmodelled_barrier_try_wait();
    return true;
  }

private:
  // The poll testers of `cuda::std::barrier` call these.
  __LS_BARRIER bool __try_wait(arrival_token) const
  {
    __lockstep_unmodelled_barrier_try_wait();
    return true;
  }
  __LS_BARRIER bool __try_wait_parity(bool) const
  {
    __lockstep_unmodelled_barrier_try_wait();
    return true;
  }
};

_LIBCUDACXX_END_NAMESPACE_CUDA

#undef __LS_BARRIER

#endif // _CUDA___BARRIER_BARRIER_BLOCK_SCOPE_H
#endif // CCCL_VERSION
