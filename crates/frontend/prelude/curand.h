/* lockstep prelude: <curand.h> resolves to the cuRAND model. */
#ifndef LOCKSTEP_INC_CURAND_H
#define LOCKSTEP_INC_CURAND_H
#include "lockstep_curand.h"
#endif
