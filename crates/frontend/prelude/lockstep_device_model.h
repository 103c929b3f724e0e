/* lockstep's model of the GPU a whole program runs on (host side only).
 *
 * A program's host code asks the runtime about its device
 * (`cudaGetDeviceProperties`, `cudaDeviceGetAttribute`) and sizes its
 * launches and buffers from the answers. lockstep checks the program for
 * one modelled device, a compute capability 7.0 GPU: 80 multiprocessors,
 * 1024 threads and 48 KiB of shared memory per block (96 KiB opt-in),
 * 16 GiB of memory. The report states it as an assumption.
 *
 * The model is C++ compiled with the program, so that it fills the
 * `cudaDeviceProp` of whichever headers the program was compiled against
 * (lockstep's own or a real toolkit's) by field name. The front-end
 * redirects every call of `NAME` to `__lockstep_model_NAME` (see
 * `host_models.rs`); `lockstep_model_device_used` tells the host
 * interpreter to add the assumption to the report, and attributes this
 * model does not know go to `lockstep_model_unknown_attribute`,
 * which the interpreter treats as an unknown value. */
#ifndef LOCKSTEP_DEVICE_MODEL_H
#define LOCKSTEP_DEVICE_MODEL_H
#if defined(__cplusplus) && !defined(__CUDA_ARCH__)

extern "C" void lockstep_model_device_used(void);
extern "C" cudaError_t lockstep_model_unknown_attribute(int *value, int attr, int device);

extern "C" {

inline __attribute__((used)) cudaError_t __lockstep_model_cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device) {
  if (device != 0) {
    return (cudaError_t)101; /* cudaErrorInvalidDevice */
  }
  lockstep_model_device_used();
  __builtin_memset(prop, 0, sizeof *prop);
  /* The name "lockstep", one character at a time: a string constant
   * would be a global object of every program that includes this. */
  prop->name[0] = 'l';
  prop->name[1] = 'o';
  prop->name[2] = 'c';
  prop->name[3] = 'k';
  prop->name[4] = 's';
  prop->name[5] = 't';
  prop->name[6] = 'e';
  prop->name[7] = 'p';
  prop->totalGlobalMem = (size_t)16 << 30;
  prop->sharedMemPerBlock = 48 << 10;
  prop->regsPerBlock = 65536;
  prop->warpSize = 32;
  prop->memPitch = 2147483647;
  prop->maxThreadsPerBlock = 1024;
  prop->maxThreadsDim[0] = 1024;
  prop->maxThreadsDim[1] = 1024;
  prop->maxThreadsDim[2] = 64;
  prop->maxGridSize[0] = 2147483647;
  prop->maxGridSize[1] = 65535;
  prop->maxGridSize[2] = 65535;
  prop->clockRate = 1530000;
  prop->totalConstMem = 64 << 10;
  prop->major = 7;
  prop->minor = 0;
  prop->textureAlignment = 512;
  prop->texturePitchAlignment = 32;
  prop->deviceOverlap = 1;
  prop->multiProcessorCount = 80;
  prop->canMapHostMemory = 1;
  prop->computeMode = 0;
  prop->maxTexture1D = 131072;
  prop->maxTexture2D[0] = 131072;
  prop->maxTexture2D[1] = 65536;
  prop->maxTexture3D[0] = 16384;
  prop->maxTexture3D[1] = 16384;
  prop->maxTexture3D[2] = 16384;
  prop->surfaceAlignment = 512;
  prop->concurrentKernels = 1;
  prop->ECCEnabled = 1;
  prop->asyncEngineCount = 2;
  prop->unifiedAddressing = 1;
  prop->memoryClockRate = 877000;
  prop->memoryBusWidth = 4096;
  prop->l2CacheSize = 6 << 20;
  prop->maxThreadsPerMultiProcessor = 2048;
  prop->streamPrioritiesSupported = 1;
  prop->globalL1CacheSupported = 1;
  prop->localL1CacheSupported = 1;
  prop->sharedMemPerMultiprocessor = 96 << 10;
  prop->regsPerMultiprocessor = 65536;
  prop->managedMemory = 1;
  prop->concurrentManagedAccess = 1;
  prop->cooperativeLaunch = 1;
  prop->cooperativeMultiDeviceLaunch = 1;
  prop->sharedMemPerBlockOptin = 96 << 10;
  return cudaSuccess;
}

/* CUDA 12's headers rename `cudaGetDeviceProperties` to this. */
inline __attribute__((used)) cudaError_t __lockstep_model_cudaGetDeviceProperties_v2(struct cudaDeviceProp *prop, int device) {
  return __lockstep_model_cudaGetDeviceProperties(prop, device);
}

/* The same device, one attribute at a time (CUDA's `cudaDeviceAttr`
 * numbers, which lockstep's headers and the toolkit's share). */
inline __attribute__((used)) cudaError_t __lockstep_model_cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attribute, int device) {
  if (device != 0) {
    return (cudaError_t)101; /* cudaErrorInvalidDevice */
  }
  int v;
  switch ((int)attribute) {
  case 1: v = 1024; break;        /* MaxThreadsPerBlock */
  case 2: case 3: v = 1024; break; /* MaxBlockDimX, Y */
  case 4: v = 64; break;          /* MaxBlockDimZ */
  case 5: v = 2147483647; break;  /* MaxGridDimX */
  case 6: case 7: v = 65535; break;
  case 8: v = 48 << 10; break;    /* MaxSharedMemoryPerBlock */
  case 9: v = 64 << 10; break;    /* TotalConstantMemory */
  case 10: v = 32; break;         /* WarpSize */
  case 11: v = 2147483647; break; /* MaxPitch */
  case 12: v = 65536; break;      /* MaxRegistersPerBlock */
  case 13: v = 1530000; break;    /* ClockRate (kHz) */
  case 14: v = 512; break;        /* TextureAlignment */
  case 15: v = 1; break;          /* GpuOverlap */
  case 16: v = 80; break;         /* MultiProcessorCount */
  case 17: case 18: v = 0; break; /* KernelExecTimeout, Integrated */
  case 19: v = 1; break;          /* CanMapHostMemory */
  case 20: v = 0; break;          /* ComputeMode: default */
  case 30: v = 512; break;        /* SurfaceAlignment */
  case 31: case 32: v = 1; break; /* ConcurrentKernels, EccEnabled */
  case 33: case 34: case 35: v = 0; break; /* PciBusId, PciDeviceId, TccDriver */
  case 36: v = 877000; break;     /* MemoryClockRate (kHz) */
  case 37: v = 4096; break;       /* GlobalMemoryBusWidth */
  case 38: v = 6 << 20; break;    /* L2CacheSize */
  case 39: v = 2048; break;       /* MaxThreadsPerMultiProcessor */
  case 40: v = 2; break;          /* AsyncEngineCount */
  case 41: v = 1; break;          /* UnifiedAddressing */
  case 50: v = 0; break;          /* PciDomainId */
  case 51: v = 32; break;         /* TexturePitchAlignment */
  case 75: v = 7; break;          /* ComputeCapabilityMajor */
  case 76: v = 0; break;          /* ComputeCapabilityMinor */
  case 78: case 79: case 80: v = 1; break; /* StreamPriorities, Global/LocalL1Cache */
  case 81: v = 96 << 10; break;   /* MaxSharedMemoryPerMultiprocessor */
  case 82: v = 65536; break;      /* MaxRegistersPerMultiprocessor */
  case 83: v = 1; break;          /* ManagedMemory */
  case 84: case 85: case 86: v = 0; break; /* IsMultiGpuBoard, its group, HostNativeAtomic */
  case 87: v = 2; break;          /* SingleToDoublePrecisionPerfRatio */
  case 88: v = 0; break;          /* PageableMemoryAccess */
  case 89: case 90: case 91: v = 1; break; /* ConcurrentManagedAccess, Preemption, host pointers */
  case 95: case 96: v = 1; break; /* CooperativeLaunch, CooperativeMultiDeviceLaunch */
  case 97: v = 96 << 10; break;   /* MaxSharedMemoryPerBlockOptin */
  case 98: v = 0; break;          /* CanFlushRemoteWrites */
  case 99: v = 1; break;          /* HostRegisterSupported */
  case 100: case 101: v = 0; break;
  case 106: v = 32; break;        /* MaxBlocksPerMultiprocessor */
  case 108: case 109: v = 0; break; /* no persisting L2 */
  case 111: v = 0; break;         /* ReservedSharedMemoryPerBlock */
  case 115: v = 1; break;         /* MemoryPoolsSupported */
  case 116: v = 0; break;         /* GPUDirectRDMASupported */
  case 120: v = 0; break;         /* ClusterLaunch (compute capability 9.0) */
  case 125: v = 1; break;         /* IpcEventSupport */
  case 126: v = 1; break;         /* MemSyncDomainCount */
  default:
    return lockstep_model_unknown_attribute(value, (int)attribute, device);
  }
  lockstep_model_device_used();
  *value = v;
  return cudaSuccess;
}

} /* extern "C" */

#endif
#endif
