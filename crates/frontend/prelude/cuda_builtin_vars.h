/* lockstep prelude: <cuda_builtin_vars.h> resolves to the force-included CUDA prelude. */
#ifndef LOCKSTEP_INC_CUDA_BUILTIN_VARS_H
#define LOCKSTEP_INC_CUDA_BUILTIN_VARS_H
#include "lockstep_cuda.h"
#endif
