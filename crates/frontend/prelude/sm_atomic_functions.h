/* lockstep prelude: <sm_atomic_functions.h> resolves to the force-included CUDA prelude. */
#ifndef LOCKSTEP_INC_SM_ATOMIC_FUNCTIONS_H
#define LOCKSTEP_INC_SM_ATOMIC_FUNCTIONS_H
#include "lockstep_cuda.h"
#endif
