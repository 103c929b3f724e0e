/* lockstep prelude: <cuda.h> resolves to the force-included CUDA prelude. */
#ifndef LOCKSTEP_INC_CUDA_H
#define LOCKSTEP_INC_CUDA_H
#include "lockstep_cuda.h"
#include "lockstep_host_libc.h"
#endif
