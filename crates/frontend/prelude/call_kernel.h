/* lockstep prelude: ESBMC-GPU's <call_kernel.h>.
 *
 * ESBMC-GPU programs launch kernels with ESBMC_verify_kernel(kernel, grid,
 * block, args...) and variants whose suffix names the argument types
 * (_u, _f, _c, _i, _ui, _intt, _fuintint, ...). Each is exactly a launch,
 * kernel<<<grid, block>>>(args...), so the host-program model sees an
 * ordinary launch.
 */
#ifndef LOCKSTEP_INC_CALL_KERNEL_H
#define LOCKSTEP_INC_CALL_KERNEL_H
#include "lockstep_cuda.h"
#include "lockstep_host_math.h"

/* The ESBMC_verify_kernel* launch macros are defined by lockstep_cuda.h. */

#endif /* LOCKSTEP_INC_CALL_KERNEL_H */
