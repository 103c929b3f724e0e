/* lockstep prelude: <curand_mtgp32_host.h> resolves to the cuRAND model. */
#ifndef LOCKSTEP_INC_CURAND_MTGP32_HOST_H
#define LOCKSTEP_INC_CURAND_MTGP32_HOST_H
#include "lockstep_curand.h"
#endif
