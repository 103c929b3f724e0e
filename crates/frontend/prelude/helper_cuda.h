/* lockstep prelude: the CUDA samples' <helper_cuda.h> error-check helpers,
 * reduced to the calls themselves. */
#ifndef LOCKSTEP_INC_HELPER_CUDA_H
#define LOCKSTEP_INC_HELPER_CUDA_H
#include "lockstep_cuda.h"
#include "lockstep_host_math.h"
#define checkCudaErrors(call) (call)
#define getLastCudaError(msg) ((void)(msg))
#define printLastCudaError(msg) ((void)(msg))
#define findCudaDevice(argc, argv) 0
#define gpuDeviceInit(dev) (dev)
#define gpuGetMaxGflopsDeviceId() 0
#define _ConvertSMVer2Cores(major, minor) 64
#endif
