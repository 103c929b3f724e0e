/* lockstep prelude: <vector_types.h> resolves to the force-included CUDA prelude. */
#ifndef LOCKSTEP_INC_VECTOR_TYPES_H
#define LOCKSTEP_INC_VECTOR_TYPES_H
#include "lockstep_cuda.h"
#endif
