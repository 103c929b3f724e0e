/* lockstep prelude: <curand_uniform.h> resolves to the cuRAND model. */
#ifndef LOCKSTEP_INC_CURAND_UNIFORM_H
#define LOCKSTEP_INC_CURAND_UNIFORM_H
#include "lockstep_curand.h"
#endif
