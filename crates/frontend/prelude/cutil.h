/* lockstep prelude: the old CUDA SDK utility header <cutil.h> (error-check
 * macros and timers). The checks reduce to the call itself. */
#ifndef LOCKSTEP_INC_CUTIL_H
#define LOCKSTEP_INC_CUTIL_H
#include "lockstep_cuda.h"
#include "lockstep_host_math.h"

typedef enum { CUTFalse = 0, CUTTrue = 1 } CUTBoolean;

#define CUDA_SAFE_CALL(call) (call)
#define CUDA_SAFE_CALL_NO_SYNC(call) (call)
#define CUDA_SAFE_THREAD_SYNC() cudaThreadSynchronize()
#define CU_SAFE_CALL(call) (call)
#define CU_SAFE_CALL_NO_SYNC(call) (call)
#define CUT_SAFE_CALL(call) (call)
#define CUFFT_SAFE_CALL(call) (call)
#define CUT_CHECK_ERROR(msg) ((void)(msg))
#define CUT_CHECK_ERROR_GL() ((void)0)
#define CUT_CONDITION(val) ((void)(val))
#define CUT_DEVICE_INIT(argc, argv) ((void)(argc), (void)(argv))
#define CUT_DEVICE_INIT_DRV(dev, argc, argv) ((void)(argc), (void)(argv))
#define CUT_EXIT(argc, argv) exit(EXIT_SUCCESS)
#define cutilSafeCall(call) (call)
#define cutilSafeCallNoSync(call) (call)
#define cutilSafeThreadSync() cudaThreadSynchronize()
#define cutilCheckError(call) (call)
#define cutilCheckMsg(msg) ((void)(msg))
#define cutilCondition(val) ((void)(val))
#define cutilExit(argc, argv) exit(EXIT_SUCCESS)
#define cutilDeviceSynchronize() cudaDeviceSynchronize()
#define cutilDeviceInit(argc, argv) 0
#define cutilChooseCudaDevice(argc, argv) 0

extern "C" {
__attribute__((host)) CUTBoolean cutCreateTimer(unsigned int *name);
__attribute__((host)) CUTBoolean cutDeleteTimer(unsigned int name);
__attribute__((host)) CUTBoolean cutStartTimer(unsigned int name);
__attribute__((host)) CUTBoolean cutStopTimer(unsigned int name);
__attribute__((host)) CUTBoolean cutResetTimer(unsigned int name);
__attribute__((host)) float cutGetTimerValue(unsigned int name);
__attribute__((host)) float cutGetAverageTimerValue(unsigned int name);
__attribute__((host)) CUTBoolean cutComparef(const float *reference, const float *data, unsigned int len);
__attribute__((host)) CUTBoolean cutComparei(const int *reference, const int *data, unsigned int len);
__attribute__((host)) CUTBoolean cutCompareub(const unsigned char *reference, const unsigned char *data,
                                              unsigned int len);
__attribute__((host)) CUTBoolean cutCompareL2fe(const float *reference, const float *data, unsigned int len,
                                                float epsilon);
__attribute__((host)) CUTBoolean cutCheckCmdLineFlag(int argc, const char **argv, const char *flag_name);
__attribute__((host)) CUTBoolean cutGetCmdLineArgumenti(int argc, const char **argv, const char *arg_name,
                                                        int *val);
__attribute__((host)) char *cutFindFilePath(const char *filename, const char *executablePath);
__attribute__((host)) void cutFree(void *ptr);
}

#endif /* LOCKSTEP_INC_CUTIL_H */
