/* lockstep prelude: <curand_normal.h> resolves to the cuRAND model. */
#ifndef LOCKSTEP_INC_CURAND_NORMAL_H
#define LOCKSTEP_INC_CURAND_NORMAL_H
#include "lockstep_curand.h"
#endif
