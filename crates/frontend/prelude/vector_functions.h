/* lockstep prelude: <vector_functions.h> resolves to the force-included CUDA prelude. */
#ifndef LOCKSTEP_INC_VECTOR_FUNCTIONS_H
#define LOCKSTEP_INC_VECTOR_FUNCTIONS_H
#include "lockstep_cuda.h"
#endif
