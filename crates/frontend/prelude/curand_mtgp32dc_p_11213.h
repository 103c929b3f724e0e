/* lockstep prelude: <curand_mtgp32dc_p_11213.h> resolves to the cuRAND model. */
#ifndef LOCKSTEP_INC_CURAND_MTGP32DC_P_11213_H
#define LOCKSTEP_INC_CURAND_MTGP32DC_P_11213_H
#include "lockstep_curand.h"
#endif
