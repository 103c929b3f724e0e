/* lockstep prelude: <driver_types.h> resolves to the force-included CUDA prelude. */
#ifndef LOCKSTEP_INC_DRIVER_TYPES_H
#define LOCKSTEP_INC_DRIVER_TYPES_H
#include "lockstep_cuda.h"
#include "lockstep_host_libc.h"
#endif
