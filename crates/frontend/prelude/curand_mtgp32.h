/* lockstep prelude: <curand_mtgp32.h> resolves to the cuRAND model. */
#ifndef LOCKSTEP_INC_CURAND_MTGP32_H
#define LOCKSTEP_INC_CURAND_MTGP32_H
#include "lockstep_curand.h"
#endif
