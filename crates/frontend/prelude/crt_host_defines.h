/* lockstep prelude: <crt_host_defines.h> resolves to the force-included CUDA prelude. */
#ifndef LOCKSTEP_INC_CRT_HOST_DEFINES_H
#define LOCKSTEP_INC_CRT_HOST_DEFINES_H
#include "lockstep_cuda.h"
#endif
