/* lockstep prelude: <curand_philox4x32_x.h> resolves to the cuRAND model. */
#ifndef LOCKSTEP_INC_CURAND_PHILOX4X32_X_H
#define LOCKSTEP_INC_CURAND_PHILOX4X32_X_H
#include "lockstep_curand.h"
#endif
