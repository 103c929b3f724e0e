/* lockstep prelude: <texture_fetch_functions.h> resolves to the force-included CUDA prelude. */
#ifndef LOCKSTEP_INC_TEXTURE_FETCH_FUNCTIONS_H
#define LOCKSTEP_INC_TEXTURE_FETCH_FUNCTIONS_H
#include "lockstep_cuda.h"
#endif
