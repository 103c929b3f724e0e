/* lockstep prelude: <cuda.h>. The CUDA prelude itself is force-included;
 * like GPUVerify's and ESBMC-GPU's cuda.h, this also makes cuRAND, cooperative
 * groups and the (cheap part of the) host C library visible. */
#ifndef LOCKSTEP_INC_CUDA_H
#define LOCKSTEP_INC_CUDA_H
#include "lockstep_cuda.h"
#include "lockstep_curand.h"
#include "cooperative_groups.h"
#include "lockstep_host_libc.h"
#endif
