/* lockstep's model of libcu++'s thread-scope `cuda::barrier` (CCCL 2.8).
 *
 * The toolkit derives `barrier<thread_scope_thread>` from the block-scope
 * barrier, whose model here (`barrier_block_scope.h`) is a barrier of the
 * whole block. A thread-scope barrier synchronises nothing between threads:
 * only the thread that owns it arrives and waits (it orders that thread's
 * own asynchronous copies). So this model keeps the class apart from the
 * block-scope one, with the meaning lockstep checks:
 *
 * - `init(&bar, n)` writes the barrier's word (any expected count: the
 *   owner may arrive several times per phase);
 * - `arrive()` and `arrive_and_wait()` read it, so that a barrier shared
 *   by several threads (which its scope does not allow) shows up as a race
 *   with the owner's `init`;
 * - `wait(token)` orders nothing between threads: no block barrier, so
 *   data written by other threads before it is still unordered, as on the
 *   hardware;
 * - every other operation (`arrive_and_drop`) makes the kernels that reach
 *   it `unknown`, naming the call.
 */
#include <cuda/std/__cccl/version.h>
#if CCCL_VERSION != 2008002
#  include_next <cuda/__barrier/barrier_thread_scope.h>
#else
#ifndef _CUDA___BARRIER_BARRIER_THREAD_SCOPE_H
#define _CUDA___BARRIER_BARRIER_THREAD_SCOPE_H

#include <cuda/std/detail/__config>
#include <cuda/__barrier/barrier_block_scope.h>
#include <cuda/__fwd/barrier.h>
#include <cuda/std/__atomic/scopes.h>
#include <cuda/std/__barrier/empty_completion.h>
#include <cuda/std/cstdint>

#define __LS_THREAD_BARRIER __attribute__((always_inline, nodebug)) __device__

extern "C" __device__ void __lockstep_unmodelled_barrier_arrive_and_drop(void);

_LIBCUDACXX_BEGIN_NAMESPACE_CUDA

template <>
class barrier<thread_scope_thread, _CUDA_VSTD::__empty_completion>
{
  // The size of the toolkit's class (the block-scope barrier it derives
  // from), so that layouts and native handles stay as they are.
  _CUDA_VSTD::uint64_t __word[sizeof(barrier<thread_scope_block>) / sizeof(_CUDA_VSTD::uint64_t)];

public:
  using arrival_token = _CUDA_VSTD::uint64_t;
  barrier() = default;

  barrier(const barrier&)            = delete;
  barrier& operator=(const barrier&) = delete;

  __LS_THREAD_BARRIER barrier(_CUDA_VSTD::ptrdiff_t __expected,
                              _CUDA_VSTD::__empty_completion __completion = _CUDA_VSTD::__empty_completion())
  {
    init(this, __expected, __completion);
  }

  __LS_THREAD_BARRIER friend void init(
    barrier* __b, _CUDA_VSTD::ptrdiff_t __expected, _CUDA_VSTD::__empty_completion = _CUDA_VSTD::__empty_completion())
  {
    __b->__word[0] = (_CUDA_VSTD::uint64_t) __expected;
  }

  _CCCL_NODISCARD __LS_THREAD_BARRIER arrival_token arrive(_CUDA_VSTD::ptrdiff_t __update = 1)
  {
    (void) __update;
    return __word[0];
  }

  __LS_THREAD_BARRIER void wait(arrival_token&& __phase) const
  {
    (void) __phase;
  }

  __LS_THREAD_BARRIER void arrive_and_wait()
  {
    arrival_token __token = __word[0];
    wait(_CUDA_VSTD::move(__token));
  }

  __LS_THREAD_BARRIER void arrive_and_drop()
  {
    __lockstep_unmodelled_barrier_arrive_and_drop();
  }

  __LS_THREAD_BARRIER static constexpr ptrdiff_t max() noexcept
  {
    return (1 << 20) - 1;
  }
};

_LIBCUDACXX_END_NAMESPACE_CUDA

#undef __LS_THREAD_BARRIER

#endif // _CUDA___BARRIER_BARRIER_THREAD_SCOPE_H
#endif // CCCL_VERSION
