/* lockstep prelude: <cuda_runtime.h> resolves to the force-included CUDA prelude. */
#ifndef LOCKSTEP_INC_CUDA_RUNTIME_H
#define LOCKSTEP_INC_CUDA_RUNTIME_H
#include "lockstep_cuda.h"
#include "lockstep_curand.h"
#include "cooperative_groups.h"
#include "lockstep_host_math.h"
#endif
