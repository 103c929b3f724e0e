/* lockstep prelude: the CUDA runtime API as seen by host code, and textures.
 *
 * Included by lockstep_cuda.h. Declarations only (plus the runtime's inline
 * C++ conveniences): whole programs compiled with --cuda-device-only parse
 * their host code but never generate it; the host-program model reads these
 * calls by name.
 */
#ifndef LOCKSTEP_CUDA_RUNTIME_H
#define LOCKSTEP_CUDA_RUNTIME_H

#define __LS_HOST __attribute__((host))
#define __LS_HOST_INLINE static inline __attribute__((host, always_inline, nodebug))

/* ===========================================================================
 * Types.
 * ========================================================================= */
enum cudaError {
  cudaSuccess = 0,
  cudaErrorInvalidValue = 1,
  cudaErrorMemoryAllocation = 2,
  cudaErrorInitializationError = 3,
  cudaErrorCudartUnloading = 4,
  cudaErrorProfilerDisabled = 5,
  cudaErrorInvalidConfiguration = 9,
  cudaErrorInvalidPitchValue = 12,
  cudaErrorInvalidSymbol = 13,
  cudaErrorInvalidHostPointer = 16,
  cudaErrorInvalidDevicePointer = 17,
  cudaErrorInvalidTexture = 18,
  cudaErrorInvalidTextureBinding = 19,
  cudaErrorInvalidChannelDescriptor = 20,
  cudaErrorInvalidMemcpyDirection = 21,
  cudaErrorInvalidFilterSetting = 26,
  cudaErrorInvalidNormSetting = 27,
  cudaErrorStubLibrary = 34,
  cudaErrorInsufficientDriver = 35,
  cudaErrorInvalidSurface = 37,
  cudaErrorDuplicateVariableName = 43,
  cudaErrorDuplicateTextureName = 44,
  cudaErrorDuplicateSurfaceName = 45,
  cudaErrorDevicesUnavailable = 46,
  cudaErrorIncompatibleDriverContext = 49,
  cudaErrorMissingConfiguration = 52,
  cudaErrorLaunchMaxDepthExceeded = 65,
  cudaErrorLaunchFileScopedTex = 66,
  cudaErrorLaunchFileScopedSurf = 67,
  cudaErrorSyncDepthExceeded = 68,
  cudaErrorLaunchPendingCountExceeded = 69,
  cudaErrorInvalidDeviceFunction = 98,
  cudaErrorNoDevice = 100,
  cudaErrorInvalidDevice = 101,
  cudaErrorStartupFailure = 127,
  cudaErrorInvalidKernelImage = 200,
  cudaErrorDeviceUninitialized = 201,
  cudaErrorMapBufferObjectFailed = 205,
  cudaErrorUnmapBufferObjectFailed = 206,
  cudaErrorNoKernelImageForDevice = 209,
  cudaErrorECCUncorrectable = 214,
  cudaErrorInvalidSource = 300,
  cudaErrorFileNotFound = 301,
  cudaErrorInvalidResourceHandle = 400,
  cudaErrorNotFound = 500,
  cudaErrorNotReady = 600,
  cudaErrorIllegalAddress = 700,
  cudaErrorLaunchOutOfResources = 701,
  cudaErrorLaunchTimeout = 702,
  cudaErrorPeerAccessAlreadyEnabled = 704,
  cudaErrorPeerAccessNotEnabled = 705,
  cudaErrorSetOnActiveProcess = 708,
  cudaErrorAssert = 710,
  cudaErrorHostMemoryAlreadyRegistered = 712,
  cudaErrorHostMemoryNotRegistered = 713,
  cudaErrorLaunchFailure = 719,
  cudaErrorCooperativeLaunchTooLarge = 720,
  cudaErrorNotSupported = 801,
  cudaErrorUnknown = 999,
  cudaErrorApiFailureBase = 10000
};
typedef enum cudaError cudaError_t;

enum cudaMemcpyKind {
  cudaMemcpyHostToHost = 0,
  cudaMemcpyHostToDevice = 1,
  cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3,
  cudaMemcpyDefault = 4
};

enum cudaFuncCache {
  cudaFuncCachePreferNone = 0,
  cudaFuncCachePreferShared = 1,
  cudaFuncCachePreferL1 = 2,
  cudaFuncCachePreferEqual = 3
};

enum cudaSharedMemConfig {
  cudaSharedMemBankSizeDefault = 0,
  cudaSharedMemBankSizeFourByte = 1,
  cudaSharedMemBankSizeEightByte = 2
};

enum cudaLimit {
  cudaLimitStackSize = 0,
  cudaLimitPrintfFifoSize = 1,
  cudaLimitMallocHeapSize = 2,
  cudaLimitDevRuntimeSyncDepth = 3,
  cudaLimitDevRuntimePendingLaunchCount = 4
};

enum cudaComputeMode {
  cudaComputeModeDefault = 0,
  cudaComputeModeExclusive = 1,
  cudaComputeModeProhibited = 2,
  cudaComputeModeExclusiveProcess = 3
};

enum cudaDeviceAttr {
  cudaDevAttrMaxThreadsPerBlock = 1,
  cudaDevAttrMaxBlockDimX = 2,
  cudaDevAttrMaxBlockDimY = 3,
  cudaDevAttrMaxBlockDimZ = 4,
  cudaDevAttrMaxGridDimX = 5,
  cudaDevAttrMaxGridDimY = 6,
  cudaDevAttrMaxGridDimZ = 7,
  cudaDevAttrMaxSharedMemoryPerBlock = 8,
  cudaDevAttrTotalConstantMemory = 9,
  cudaDevAttrWarpSize = 10,
  cudaDevAttrMultiProcessorCount = 16,
  cudaDevAttrComputeCapabilityMajor = 75,
  cudaDevAttrComputeCapabilityMinor = 76
};

enum cudaMemoryType {
  cudaMemoryTypeUnregistered = 0,
  cudaMemoryTypeHost = 1,
  cudaMemoryTypeDevice = 2,
  cudaMemoryTypeManaged = 3
};

/* Flags. */
#define cudaHostAllocDefault 0x00
#define cudaHostAllocPortable 0x01
#define cudaHostAllocMapped 0x02
#define cudaHostAllocWriteCombined 0x04
#define cudaHostRegisterDefault 0x00
#define cudaHostRegisterPortable 0x01
#define cudaHostRegisterMapped 0x02
#define cudaMemAttachGlobal 0x01
#define cudaMemAttachHost 0x02
#define cudaMemAttachSingle 0x04
#define cudaEventDefault 0x00
#define cudaEventBlockingSync 0x01
#define cudaEventDisableTiming 0x02
#define cudaStreamDefault 0x00
#define cudaStreamNonBlocking 0x01
#define cudaDeviceScheduleAuto 0x00
#define cudaDeviceScheduleSpin 0x01
#define cudaDeviceScheduleYield 0x02
#define cudaDeviceScheduleBlockingSync 0x04
#define cudaDeviceBlockingSync 0x04
#define cudaDeviceMapHost 0x08
#define cudaDeviceLmemResizeToMax 0x10

typedef struct CUstream_st *cudaStream_t;
typedef struct CUevent_st *cudaEvent_t;
typedef struct cudaArray *cudaArray_t;
typedef const struct cudaArray *cudaArray_const_t;
typedef struct CUgraph_st *cudaGraph_t;
typedef unsigned long long cudaTextureObject_t;
typedef unsigned long long cudaSurfaceObject_t;
#define cudaStreamLegacy ((cudaStream_t)0x1)
#define cudaStreamPerThread ((cudaStream_t)0x2)

struct cudaDeviceProp {
  char name[256];
  char uuid[16];
  size_t totalGlobalMem;
  size_t sharedMemPerBlock;
  int regsPerBlock;
  int warpSize;
  size_t memPitch;
  int maxThreadsPerBlock;
  int maxThreadsDim[3];
  int maxGridSize[3];
  int clockRate;
  size_t totalConstMem;
  int major;
  int minor;
  size_t textureAlignment;
  size_t texturePitchAlignment;
  int deviceOverlap;
  int multiProcessorCount;
  int kernelExecTimeoutEnabled;
  int integrated;
  int canMapHostMemory;
  int computeMode;
  int maxTexture1D;
  int maxTexture2D[2];
  int maxTexture3D[3];
  size_t surfaceAlignment;
  int concurrentKernels;
  int ECCEnabled;
  int pciBusID;
  int pciDeviceID;
  int pciDomainID;
  int tccDriver;
  int asyncEngineCount;
  int unifiedAddressing;
  int memoryClockRate;
  int memoryBusWidth;
  int l2CacheSize;
  int maxThreadsPerMultiProcessor;
  int streamPrioritiesSupported;
  int globalL1CacheSupported;
  int localL1CacheSupported;
  size_t sharedMemPerMultiprocessor;
  int regsPerMultiprocessor;
  int managedMemory;
  int isMultiGpuBoard;
  int multiGpuBoardGroupID;
  int concurrentManagedAccess;
  int cooperativeLaunch;
  int cooperativeMultiDeviceLaunch;
  size_t sharedMemPerBlockOptin;
};
typedef struct cudaDeviceProp cudaDeviceProp;

struct cudaPointerAttributes {
  enum cudaMemoryType type;
  int device;
  void *devicePointer;
  void *hostPointer;
};

struct cudaFuncAttributes {
  size_t sharedSizeBytes;
  size_t constSizeBytes;
  size_t localSizeBytes;
  int maxThreadsPerBlock;
  int numRegs;
  int ptxVersion;
  int binaryVersion;
};

enum cudaChannelFormatKind {
  cudaChannelFormatKindSigned = 0,
  cudaChannelFormatKindUnsigned = 1,
  cudaChannelFormatKindFloat = 2,
  cudaChannelFormatKindNone = 3
};
struct cudaChannelFormatDesc {
  int x, y, z, w;
  enum cudaChannelFormatKind f;
};
struct cudaExtent {
  size_t width, height, depth;
};
struct cudaPos {
  size_t x, y, z;
};
struct cudaPitchedPtr {
  void *ptr;
  size_t pitch, xsize, ysize;
};

/* ===========================================================================
 * Runtime API functions.
 * ========================================================================= */
extern "C" {
/* Memory. */
__LS_HOST cudaError_t cudaMalloc(void **devPtr, size_t size);
__LS_HOST cudaError_t cudaMallocManaged(void **devPtr, size_t size, unsigned int flags = cudaMemAttachGlobal);
__LS_HOST cudaError_t cudaMallocHost(void **ptr, size_t size);
__LS_HOST cudaError_t cudaHostAlloc(void **ptr, size_t size, unsigned int flags);
__LS_HOST cudaError_t cudaMallocPitch(void **devPtr, size_t *pitch, size_t width, size_t height);
__LS_HOST cudaError_t cudaMalloc3D(struct cudaPitchedPtr *pitchedDevPtr, struct cudaExtent extent);
__LS_HOST cudaError_t cudaMallocArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc,
                                      size_t width, size_t height = 0, unsigned int flags = 0);
__LS_HOST cudaError_t cudaFree(void *devPtr);
__LS_HOST cudaError_t cudaFreeHost(void *ptr);
__LS_HOST cudaError_t cudaFreeArray(cudaArray_t array);
__LS_HOST cudaError_t cudaHostRegister(void *ptr, size_t size, unsigned int flags);
__LS_HOST cudaError_t cudaHostUnregister(void *ptr);
__LS_HOST cudaError_t cudaHostGetDevicePointer(void **pDevice, void *pHost, unsigned int flags);
__LS_HOST cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind);
__LS_HOST cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind,
                                      cudaStream_t stream = 0);
__LS_HOST cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                                   size_t height, enum cudaMemcpyKind kind);
__LS_HOST cudaError_t cudaMemcpyToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                                        size_t count, enum cudaMemcpyKind kind);
__LS_HOST cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                                          size_t spitch, size_t width, size_t height,
                                          enum cudaMemcpyKind kind);
__LS_HOST cudaError_t cudaMemcpyPeer(void *dst, int dstDevice, const void *src, int srcDevice, size_t count);
__LS_HOST cudaError_t cudaMemset(void *devPtr, int value, size_t count);
__LS_HOST cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count, cudaStream_t stream = 0);
__LS_HOST cudaError_t cudaMemset2D(void *devPtr, size_t pitch, int value, size_t width, size_t height);
__LS_HOST cudaError_t cudaMemGetInfo(size_t *free, size_t *total);
__LS_HOST cudaError_t cudaMemPrefetchAsync(const void *devPtr, size_t count, int dstDevice,
                                           cudaStream_t stream = 0);
__LS_HOST cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *attributes, const void *ptr);

/* Devices and errors. */
__LS_HOST cudaError_t cudaDeviceSynchronize(void);
__LS_HOST cudaError_t cudaThreadSynchronize(void);
__LS_HOST cudaError_t cudaDeviceReset(void);
__LS_HOST cudaError_t cudaThreadExit(void);
__LS_HOST cudaError_t cudaGetLastError(void);
__LS_HOST cudaError_t cudaPeekAtLastError(void);
__LS_HOST const char *cudaGetErrorString(cudaError_t error);
__LS_HOST const char *cudaGetErrorName(cudaError_t error);
__LS_HOST cudaError_t cudaSetDevice(int device);
__LS_HOST cudaError_t cudaGetDevice(int *device);
__LS_HOST cudaError_t cudaGetDeviceCount(int *count);
__LS_HOST cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device);
__LS_HOST cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int device);
__LS_HOST cudaError_t cudaChooseDevice(int *device, const struct cudaDeviceProp *prop);
__LS_HOST cudaError_t cudaSetDeviceFlags(unsigned int flags);
__LS_HOST cudaError_t cudaDeviceSetLimit(enum cudaLimit limit, size_t value);
__LS_HOST cudaError_t cudaDeviceGetLimit(size_t *value, enum cudaLimit limit);
__LS_HOST cudaError_t cudaDeviceSetCacheConfig(enum cudaFuncCache cacheConfig);
__LS_HOST cudaError_t cudaDeviceSetSharedMemConfig(enum cudaSharedMemConfig config);
__LS_HOST cudaError_t cudaThreadSetCacheConfig(enum cudaFuncCache cacheConfig);
__LS_HOST cudaError_t cudaDeviceCanAccessPeer(int *canAccessPeer, int device, int peerDevice);
__LS_HOST cudaError_t cudaDeviceEnablePeerAccess(int peerDevice, unsigned int flags);
__LS_HOST cudaError_t cudaDriverGetVersion(int *driverVersion);
__LS_HOST cudaError_t cudaRuntimeGetVersion(int *runtimeVersion);
__LS_HOST cudaError_t cudaFuncSetCacheConfig(const void *func, enum cudaFuncCache cacheConfig);
__LS_HOST cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *func);
__LS_HOST cudaError_t cudaProfilerStart(void);
__LS_HOST cudaError_t cudaProfilerStop(void);

/* Streams and events. */
__LS_HOST cudaError_t cudaStreamCreate(cudaStream_t *stream);
__LS_HOST cudaError_t cudaStreamCreateWithFlags(cudaStream_t *stream, unsigned int flags);
__LS_HOST cudaError_t cudaStreamDestroy(cudaStream_t stream);
__LS_HOST cudaError_t cudaStreamSynchronize(cudaStream_t stream);
__LS_HOST cudaError_t cudaStreamQuery(cudaStream_t stream);
__LS_HOST cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags = 0);
__LS_HOST cudaError_t cudaEventCreate(cudaEvent_t *event);
__LS_HOST cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags);
__LS_HOST cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream = 0);
__LS_HOST cudaError_t cudaEventQuery(cudaEvent_t event);
__LS_HOST cudaError_t cudaEventSynchronize(cudaEvent_t event);
__LS_HOST cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end);
__LS_HOST cudaError_t cudaEventDestroy(cudaEvent_t event);

/* Symbols (C API: the symbol's address). */
__LS_HOST cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src, size_t count,
                                         size_t offset = 0,
                                         enum cudaMemcpyKind kind = cudaMemcpyHostToDevice);
__LS_HOST cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count,
                                           size_t offset = 0,
                                           enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost);
__LS_HOST cudaError_t cudaMemcpyToSymbolAsync(const void *symbol, const void *src, size_t count,
                                              size_t offset, enum cudaMemcpyKind kind,
                                              cudaStream_t stream = 0);
__LS_HOST cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t count,
                                                size_t offset, enum cudaMemcpyKind kind,
                                                cudaStream_t stream = 0);
__LS_HOST cudaError_t cudaGetSymbolAddress(void **devPtr, const void *symbol);
__LS_HOST cudaError_t cudaGetSymbolSize(size_t *size, const void *symbol);

/* Launches: what clang's <<<...>>> needs, and the explicit API. */
__LS_HOST cudaError_t cudaConfigureCall(dim3 gridDim, dim3 blockDim, size_t sharedMem = 0,
                                        cudaStream_t stream = 0);
__LS_HOST unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem = 0,
                                               void *stream = 0);
__LS_HOST cudaError_t cudaSetupArgument(const void *arg, size_t size, size_t offset);
__LS_HOST cudaError_t cudaLaunch(const void *func);
__LS_HOST cudaError_t cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args,
                                       size_t sharedMem, cudaStream_t stream);
__LS_HOST cudaError_t cudaLaunchCooperativeKernel(const void *func, dim3 gridDim, dim3 blockDim,
                                                  void **args, size_t sharedMem, cudaStream_t stream);

/* Textures (host side). */
__LS_HOST struct cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w,
                                                             enum cudaChannelFormatKind f);
} /* extern "C" */

/* The runtime's C++ conveniences. */
template <typename __T>
__LS_HOST_INLINE cudaError_t cudaMalloc(__T **devPtr, size_t size) {
  return cudaMalloc((void **)(void *)devPtr, size);
}
template <typename __T>
__LS_HOST_INLINE cudaError_t cudaMallocManaged(__T **devPtr, size_t size,
                                               unsigned int flags = cudaMemAttachGlobal) {
  return cudaMallocManaged((void **)(void *)devPtr, size, flags);
}
template <typename __T>
__LS_HOST_INLINE cudaError_t cudaMallocHost(__T **ptr, size_t size, unsigned int flags = 0) {
  return cudaHostAlloc((void **)(void *)ptr, size, flags);
}
template <typename __T>
__LS_HOST_INLINE cudaError_t cudaHostAlloc(__T **ptr, size_t size, unsigned int flags) {
  return cudaHostAlloc((void **)(void *)ptr, size, flags);
}
template <typename __T>
__LS_HOST_INLINE cudaError_t cudaMallocPitch(__T **devPtr, size_t *pitch, size_t width, size_t height) {
  return cudaMallocPitch((void **)(void *)devPtr, pitch, width, height);
}
template <typename __T>
__LS_HOST_INLINE cudaError_t cudaHostGetDevicePointer(__T **pDevice, void *pHost, unsigned int flags) {
  return cudaHostGetDevicePointer((void **)(void *)pDevice, pHost, flags);
}
template <typename __T>
__LS_HOST_INLINE cudaError_t cudaMemcpyToSymbol(const __T &symbol, const void *src, size_t count,
                                                size_t offset = 0,
                                                enum cudaMemcpyKind kind = cudaMemcpyHostToDevice) {
  return cudaMemcpyToSymbol((const void *)&symbol, src, count, offset, kind);
}
template <typename __T>
__LS_HOST_INLINE cudaError_t cudaMemcpyFromSymbol(void *dst, const __T &symbol, size_t count,
                                                  size_t offset = 0,
                                                  enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost) {
  return cudaMemcpyFromSymbol(dst, (const void *)&symbol, count, offset, kind);
}
template <typename __T>
__LS_HOST_INLINE cudaError_t cudaMemcpyToSymbolAsync(const __T &symbol, const void *src, size_t count,
                                                     size_t offset = 0,
                                                     enum cudaMemcpyKind kind = cudaMemcpyHostToDevice,
                                                     cudaStream_t stream = 0) {
  return cudaMemcpyToSymbolAsync((const void *)&symbol, src, count, offset, kind, stream);
}
template <typename __T>
__LS_HOST_INLINE cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const __T &symbol, size_t count,
                                                       size_t offset = 0,
                                                       enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost,
                                                       cudaStream_t stream = 0) {
  return cudaMemcpyFromSymbolAsync(dst, (const void *)&symbol, count, offset, kind, stream);
}
template <typename __T>
__LS_HOST_INLINE cudaError_t cudaGetSymbolAddress(void **devPtr, const __T &symbol) {
  return cudaGetSymbolAddress(devPtr, (const void *)&symbol);
}
template <typename __T>
__LS_HOST_INLINE cudaError_t cudaGetSymbolSize(size_t *size, const __T &symbol) {
  return cudaGetSymbolSize(size, (const void *)&symbol);
}
template <typename __T>
__LS_HOST_INLINE cudaError_t cudaFuncSetCacheConfig(__T *func, enum cudaFuncCache cacheConfig) {
  return cudaFuncSetCacheConfig((const void *)func, cacheConfig);
}
template <typename __T>
__LS_HOST_INLINE cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, __T *func) {
  return cudaFuncGetAttributes(attr, (const void *)func);
}
template <typename __T>
__LS_HOST_INLINE cudaError_t cudaLaunchKernel(__T *func, dim3 gridDim, dim3 blockDim, void **args,
                                              size_t sharedMem = 0, cudaStream_t stream = 0) {
  return cudaLaunchKernel((const void *)func, gridDim, blockDim, args, sharedMem, stream);
}
template <typename __T>
__LS_HOST_INLINE cudaError_t cudaLaunchCooperativeKernel(__T *func, dim3 gridDim, dim3 blockDim,
                                                         void **args, size_t sharedMem = 0,
                                                         cudaStream_t stream = 0) {
  return cudaLaunchCooperativeKernel((const void *)func, gridDim, blockDim, args, sharedMem, stream);
}
template <typename __T> __LS_HOST_INLINE struct cudaChannelFormatDesc cudaCreateChannelDesc(void) {
  return cudaCreateChannelDesc((int)(sizeof(__T) * 8), 0, 0, 0, cudaChannelFormatKindNone);
}
__LS_HOST_INLINE struct cudaExtent make_cudaExtent(size_t w, size_t h, size_t d) {
  struct cudaExtent e = {w, h, d};
  return e;
}
__LS_HOST_INLINE struct cudaPos make_cudaPos(size_t x, size_t y, size_t z) {
  struct cudaPos p = {x, y, z};
  return p;
}
__LS_HOST_INLINE struct cudaPitchedPtr make_cudaPitchedPtr(void *d, size_t p, size_t xsz, size_t ysz) {
  struct cudaPitchedPtr r = {d, p, xsz, ysz};
  return r;
}

/* ===========================================================================
 * Texture references (legacy API): reads are uninterpreted device calls.
 * ========================================================================= */
enum cudaTextureReadMode { cudaReadModeElementType = 0, cudaReadModeNormalizedFloat = 1 };
enum cudaTextureAddressMode {
  cudaAddressModeWrap = 0,
  cudaAddressModeClamp = 1,
  cudaAddressModeMirror = 2,
  cudaAddressModeBorder = 3
};
enum cudaTextureFilterMode { cudaFilterModePoint = 0, cudaFilterModeLinear = 1 };
#define cudaTextureType1D 0x01
#define cudaTextureType2D 0x02
#define cudaTextureType3D 0x03

struct textureReference {
  int normalized;
  enum cudaTextureFilterMode filterMode;
  enum cudaTextureAddressMode addressMode[3];
  struct cudaChannelFormatDesc channelDesc;
  int sRGB;
  unsigned int maxAnisotropy;
  int __lockstep_reserved[16];
};

template <typename __T, int __dim = 1, enum cudaTextureReadMode __mode = cudaReadModeElementType>
struct __attribute__((device_builtin_texture_type)) texture : public textureReference {
  __LS_HOST texture(int norm = 0, enum cudaTextureFilterMode fMode = cudaFilterModePoint,
                    enum cudaTextureAddressMode aMode = cudaAddressModeClamp) {
    normalized = norm;
    filterMode = fMode;
    addressMode[0] = addressMode[1] = addressMode[2] = aMode;
  }
};

template <typename __T, int __dim, enum cudaTextureReadMode __mode>
__device__ __T tex1Dfetch(texture<__T, __dim, __mode> t, int x);
template <typename __T, int __dim, enum cudaTextureReadMode __mode>
__device__ __T tex1D(texture<__T, __dim, __mode> t, float x);
template <typename __T, int __dim, enum cudaTextureReadMode __mode>
__device__ __T tex2D(texture<__T, __dim, __mode> t, float x, float y);
template <typename __T, int __dim, enum cudaTextureReadMode __mode>
__device__ __T tex3D(texture<__T, __dim, __mode> t, float x, float y, float z);
/* Texture objects. */
template <typename __T> __device__ __T tex1Dfetch(cudaTextureObject_t t, int x);
template <typename __T> __device__ __T tex1D(cudaTextureObject_t t, float x);
template <typename __T> __device__ __T tex2D(cudaTextureObject_t t, float x, float y);
template <typename __T> __device__ __T tex3D(cudaTextureObject_t t, float x, float y, float z);

extern "C" {
__LS_HOST cudaError_t cudaBindTexture(size_t *offset, const struct textureReference *texref,
                                      const void *devPtr, const struct cudaChannelFormatDesc *desc,
                                      size_t size = ~(size_t)0);
__LS_HOST cudaError_t cudaBindTexture2D(size_t *offset, const struct textureReference *texref,
                                        const void *devPtr, const struct cudaChannelFormatDesc *desc,
                                        size_t width, size_t height, size_t pitch);
__LS_HOST cudaError_t cudaBindTextureToArray(const struct textureReference *texref, cudaArray_const_t array,
                                             const struct cudaChannelFormatDesc *desc);
__LS_HOST cudaError_t cudaUnbindTexture(const struct textureReference *texref);
}
template <typename __T, int __dim, enum cudaTextureReadMode __mode>
__LS_HOST_INLINE cudaError_t cudaBindTexture(size_t *offset, const struct texture<__T, __dim, __mode> &tex,
                                             const void *devPtr, size_t size = ~(size_t)0) {
  return cudaBindTexture(offset, &tex, devPtr, &tex.channelDesc, size);
}
template <typename __T, int __dim, enum cudaTextureReadMode __mode>
__LS_HOST_INLINE cudaError_t cudaBindTexture(size_t *offset, const struct texture<__T, __dim, __mode> &tex,
                                             const void *devPtr, const struct cudaChannelFormatDesc &desc,
                                             size_t size = ~(size_t)0) {
  return cudaBindTexture(offset, &tex, devPtr, &desc, size);
}
template <typename __T, int __dim, enum cudaTextureReadMode __mode>
__LS_HOST_INLINE cudaError_t cudaBindTextureToArray(const struct texture<__T, __dim, __mode> &tex,
                                                    cudaArray_const_t array) {
  return cudaBindTextureToArray(&tex, array, &tex.channelDesc);
}
template <typename __T, int __dim, enum cudaTextureReadMode __mode>
__LS_HOST_INLINE cudaError_t cudaUnbindTexture(const struct texture<__T, __dim, __mode> &tex) {
  return cudaUnbindTexture(&tex);
}

#endif /* LOCKSTEP_CUDA_RUNTIME_H */
