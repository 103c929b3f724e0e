/* lockstep prelude: <cuda_device_runtime_api.h> resolves to the force-included CUDA prelude. */
#ifndef LOCKSTEP_INC_CUDA_DEVICE_RUNTIME_API_H
#define LOCKSTEP_INC_CUDA_DEVICE_RUNTIME_API_H
#include "lockstep_cuda.h"
#include "lockstep_host_libc.h"
#endif
