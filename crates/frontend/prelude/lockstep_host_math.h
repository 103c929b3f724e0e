/* lockstep prelude: host <math.h>, as nvcc's runtime headers include it.
 * About 100 ms of clang time, so only the full-runtime headers
 * (cuda_runtime.h, cuda_runtime_api.h, call_kernel.h, cutil.h,
 * math_functions.h) include it, not <cuda.h>. */
#ifndef LOCKSTEP_HOST_MATH_H
#define LOCKSTEP_HOST_MATH_H
#include "lockstep_host_libc.h"
#include <math.h>
#endif
