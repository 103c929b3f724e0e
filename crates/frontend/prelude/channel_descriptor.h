/* lockstep prelude: <channel_descriptor.h> resolves to the force-included CUDA prelude. */
#ifndef LOCKSTEP_INC_CHANNEL_DESCRIPTOR_H
#define LOCKSTEP_INC_CHANNEL_DESCRIPTOR_H
#include "lockstep_cuda.h"
#endif
