/* lockstep prelude: <math_functions.h> resolves to the force-included CUDA prelude. */
#ifndef LOCKSTEP_INC_MATH_FUNCTIONS_H
#define LOCKSTEP_INC_MATH_FUNCTIONS_H
#include "lockstep_cuda.h"
#include "lockstep_host_math.h"
#endif
