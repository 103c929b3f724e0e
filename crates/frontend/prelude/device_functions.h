/* lockstep prelude: <device_functions.h> resolves to the force-included CUDA prelude. */
#ifndef LOCKSTEP_INC_DEVICE_FUNCTIONS_H
#define LOCKSTEP_INC_DEVICE_FUNCTIONS_H
#include "lockstep_cuda.h"
#endif
