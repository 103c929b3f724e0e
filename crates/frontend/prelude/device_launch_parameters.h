/* lockstep prelude: <device_launch_parameters.h> resolves to the force-included CUDA prelude. */
#ifndef LOCKSTEP_INC_DEVICE_LAUNCH_PARAMETERS_H
#define LOCKSTEP_INC_DEVICE_LAUNCH_PARAMETERS_H
#include "lockstep_cuda.h"
#include "lockstep_host_libc.h"
#endif
