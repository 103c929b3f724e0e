/* lockstep prelude: <curand_mtgp32_kernel.h> resolves to the cuRAND model. */
#ifndef LOCKSTEP_INC_CURAND_MTGP32_KERNEL_H
#define LOCKSTEP_INC_CURAND_MTGP32_KERNEL_H
#include "lockstep_curand.h"
#endif
