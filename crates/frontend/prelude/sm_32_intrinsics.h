/* lockstep prelude: <sm_32_intrinsics.h> resolves to the force-included CUDA prelude. */
#ifndef LOCKSTEP_INC_SM_32_INTRINSICS_H
#define LOCKSTEP_INC_SM_32_INTRINSICS_H
#include "lockstep_cuda.h"
#endif
