/* lockstep prelude: <curand_precalc.h> resolves to the cuRAND model. */
#ifndef LOCKSTEP_INC_CURAND_PRECALC_H
#define LOCKSTEP_INC_CURAND_PRECALC_H
#include "lockstep_curand.h"
#endif
