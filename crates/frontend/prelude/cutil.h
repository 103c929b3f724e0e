/* lockstep prelude: the CUDA SDK 2.x-4.x utility header <cutil.h>, with the
 * inline helpers of <cutil_inline.h> (cutil_inline_runtime.h).
 *
 * The macros behave as the SDK defined them, because a whole program's
 * behaviour depends on them: a failing call makes CUDA_SAFE_CALL print and
 * exit(EXIT_FAILURE) (the rest of main does not run), CUT_SAFE_CALL tests a
 * CUTBoolean, CUT_CHECK_ERROR reads and clears the runtime's last error,
 * CUT_EXIT waits for a key (unless -noprompt) and exits with EXIT_SUCCESS,
 * and the cutil_inline helpers exit(-1) on an error. The helpers of the
 * SDK's libcutil that these need (command-line parsing, comparisons) are
 * defined here in plain C, so that the host-program model runs them like
 * the program's own code; the timers stay declarations, which the model
 * treats as reads of the clock.
 *
 * The SDK's macros are statements, not expressions: `CUDA_SAFE_CALL(x);`
 * expands to a block and an empty statement, as it did with the SDK, so a
 * program that compiled against the SDK compiles here. */
#ifndef LOCKSTEP_INC_CUTIL_H
#define LOCKSTEP_INC_CUTIL_H
#include "lockstep_cuda.h"
#include "lockstep_host_math.h"

typedef enum { CUTFalse = 0, CUTTrue = 1 } CUTBoolean;

#define __LS_CUTIL __attribute__((host)) inline

extern "C" {
/* Timers: the model gives each a name and reads their values as the clock. */
__attribute__((host)) CUTBoolean cutCreateTimer(unsigned int *name);
__attribute__((host)) CUTBoolean cutDeleteTimer(unsigned int name);
__attribute__((host)) CUTBoolean cutStartTimer(unsigned int name);
__attribute__((host)) CUTBoolean cutStopTimer(unsigned int name);
__attribute__((host)) CUTBoolean cutResetTimer(unsigned int name);
__attribute__((host)) float cutGetTimerValue(unsigned int name);
__attribute__((host)) float cutGetAverageTimerValue(unsigned int name);
__attribute__((host)) char *cutFindFilePath(const char *filename, const char *executablePath);

/* libcutil frees what its loaders allocated with free(). */
__LS_CUTIL void cutFree(void *ptr) { free(ptr); }

/* The SDK's command-line reader: an argument is `-name` or `--name`,
 * optionally followed by `=value`. Returns the value part ("" without one)
 * of the first argument named `name`, or a null pointer. */
__LS_CUTIL const char *__lockstep_cut_argument(int argc, const char **argv, const char *name) {
  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i];
    if (arg == 0 || arg[0] != '-')
      continue;
    arg += (arg[1] == '-') ? 2 : 1;
    int k = 0;
    while (name[k] != '\0' && arg[k] == name[k])
      k++;
    if (name[k] != '\0')
      continue;
    if (arg[k] == '\0')
      return arg + k;
    if (arg[k] == '=')
      return arg + k + 1;
  }
  return 0;
}

__LS_CUTIL CUTBoolean cutCheckCmdLineFlag(const int argc, const char **argv, const char *flag_name) {
  return __lockstep_cut_argument(argc, argv, flag_name) ? CUTTrue : CUTFalse;
}

/* The value must be a (signed) decimal number for the argument to count. */
__LS_CUTIL CUTBoolean cutGetCmdLineArgumenti(const int argc, const char **argv, const char *arg_name, int *val) {
  const char *v = __lockstep_cut_argument(argc, argv, arg_name);
  if (v == 0)
    return CUTFalse;
  int sign = 1, n = 0, digits = 0;
  if (*v == '-' || *v == '+')
    sign = (*v++ == '-') ? -1 : 1;
  for (; *v >= '0' && *v <= '9'; v++, digits++)
    n = n * 10 + (*v - '0');
  if (digits == 0 || *v != '\0')
    return CUTFalse;
  *val = sign * n;
  return CUTTrue;
}

__LS_CUTIL CUTBoolean cutGetCmdLineArgumentf(const int argc, const char **argv, const char *arg_name, float *val) {
  const char *v = __lockstep_cut_argument(argc, argv, arg_name);
  if (v == 0 || *v == '\0')
    return CUTFalse;
  *val = (float)atof(v);
  return CUTTrue;
}

__LS_CUTIL CUTBoolean cutGetCmdLineArgumentstr(const int argc, const char **argv, const char *arg_name, char **val) {
  const char *v = __lockstep_cut_argument(argc, argv, arg_name);
  if (v == 0 || *v == '\0')
    return CUTFalse;
  *val = (char *)v;
  return CUTTrue;
}

/* The "flexible assert" behind CUT_CONDITION: false prints and fails. */
__LS_CUTIL CUTBoolean cutCheckCondition(int val, const char *file, const int line) {
  if (!val) {
    fprintf(stderr, "Condition failed in file '%s' in line %i.\n", file, line);
    return CUTFalse;
  }
  return CUTTrue;
}

/* The comparisons of results with a reference ("gold") array. */
__LS_CUTIL CUTBoolean cutComparef(const float *reference, const float *data, const unsigned int len) {
  for (unsigned int i = 0; i < len; i++)
    if (reference[i] != data[i])
      return CUTFalse;
  return CUTTrue;
}
__LS_CUTIL CUTBoolean cutComparei(const int *reference, const int *data, const unsigned int len) {
  for (unsigned int i = 0; i < len; i++)
    if (reference[i] != data[i])
      return CUTFalse;
  return CUTTrue;
}
__LS_CUTIL CUTBoolean cutCompareub(const unsigned char *reference, const unsigned char *data, const unsigned int len) {
  for (unsigned int i = 0; i < len; i++)
    if (reference[i] != data[i])
      return CUTFalse;
  return CUTTrue;
}
__LS_CUTIL CUTBoolean cutComparefe(const float *reference, const float *data, const unsigned int len,
                                   const float epsilon) {
  for (unsigned int i = 0; i < len; i++) {
    float diff = reference[i] - data[i];
    if (diff > epsilon || -diff > epsilon)
      return CUTFalse;
  }
  return CUTTrue;
}
/* The relative L2 error ||reference - data|| / ||reference|| against epsilon. */
__LS_CUTIL CUTBoolean cutCompareL2fe(const float *reference, const float *data, const unsigned int len,
                                     const float epsilon) {
  float error = 0, norm = 0;
  for (unsigned int i = 0; i < len; i++) {
    float diff = reference[i] - data[i];
    error += diff * diff;
    norm += reference[i] * reference[i];
  }
  error = sqrtf(error);
  norm = sqrtf(norm);
  if (fabsf(norm) < 1e-7f)
    return CUTFalse;
  return (error / norm < epsilon) ? CUTTrue : CUTFalse;
}
}

#if CUDART_VERSION >= 4000
#define CUT_DEVICE_SYNCHRONIZE() cudaDeviceSynchronize()
#else
#define CUT_DEVICE_SYNCHRONIZE() cudaThreadSynchronize()
#endif

#define CUT_BANK_CHECKER(array, index) array[index]

/* ---- <cutil.h>'s macros ------------------------------------------------ */

#define CUDA_SAFE_CALL_NO_SYNC(call)                                                                      \
  {                                                                                                       \
    cudaError __lockstep_err = call;                                                                      \
    if (cudaSuccess != __lockstep_err) {                                                                  \
      fprintf(stderr, "Cuda error in file '%s' in line %i : %s.\n", __FILE__, __LINE__,                   \
              cudaGetErrorString(__lockstep_err));                                                        \
      exit(EXIT_FAILURE);                                                                                 \
    }                                                                                                     \
  }
#define CUDA_SAFE_CALL(call) CUDA_SAFE_CALL_NO_SYNC(call);

/* Unlike the others, a failed synchronisation only prints. */
#define CUDA_SAFE_THREAD_SYNC()                                                                           \
  {                                                                                                       \
    cudaError __lockstep_err = CUT_DEVICE_SYNCHRONIZE();                                                  \
    if (cudaSuccess != __lockstep_err) {                                                                  \
      fprintf(stderr, "Cuda errors in file '%s' in line %i : %s.\n", __FILE__, __LINE__,                  \
              cudaGetErrorString(__lockstep_err));                                                        \
    }                                                                                                     \
  }

/* The driver API and CUFFT are not modelled: their checks keep the call. */
#define CU_SAFE_CALL_NO_SYNC(call) call
#define CU_SAFE_CALL(call) call
#define CUFFT_SAFE_CALL(call) call

/* An `if` without braces, as in the SDK: `call` must yield a CUTBoolean. */
#define CUT_SAFE_CALL(call)                                                                               \
  if (CUTTrue != call) {                                                                                  \
    fprintf(stderr, "Cut error in file '%s' in line %i.\n", __FILE__, __LINE__);                          \
    exit(EXIT_FAILURE);                                                                                   \
  }

/* One step of the SDK's error checks: a CUDA error from `check` prints the
 * SDK's message and exits. */
#define __LS_CUT_EXIT_ON_ERROR(check, errorMessage)                                                       \
  {                                                                                                       \
    cudaError_t __lockstep_err = (check);                                                                 \
    if (cudaSuccess != __lockstep_err) {                                                                  \
      fprintf(stderr, "Cuda error: %s in file '%s' in line %i : %s.\n", errorMessage, __FILE__, __LINE__, \
              cudaGetErrorString(__lockstep_err));                                                        \
      exit(EXIT_FAILURE);                                                                                 \
    }                                                                                                     \
  }

/* Debug builds also wait for the device and check its error. */
#ifdef _DEBUG
#define CUT_CHECK_ERROR(errorMessage)                                                                     \
  {                                                                                                       \
    __LS_CUT_EXIT_ON_ERROR(cudaGetLastError(), errorMessage)                                              \
    __LS_CUT_EXIT_ON_ERROR(CUT_DEVICE_SYNCHRONIZE(), errorMessage)                                        \
  }
#else
#define CUT_CHECK_ERROR(errorMessage) __LS_CUT_EXIT_ON_ERROR(cudaGetLastError(), errorMessage)
#endif
#define CUT_CHECK_ERROR_GL()

#define CUDA_CHECK_CTX_LOST(errorMessage)                                                                 \
  {                                                                                                       \
    __LS_CUT_EXIT_ON_ERROR(cudaGetLastError(), errorMessage)                                              \
    __LS_CUT_EXIT_ON_ERROR(CUT_DEVICE_SYNCHRONIZE(), errorMessage)                                        \
  }

/* The SDK's own spelling, trailing `while(0);` included: a null result
 * (malloc failed) exits. */
#define CUT_SAFE_MALLOC(mallocCall)                                                                       \
  {                                                                                                       \
    if (!(mallocCall)) {                                                                                  \
      fprintf(stderr, "Host malloc failure in file '%s' in line %i\n", __FILE__, __LINE__);               \
      exit(EXIT_FAILURE);                                                                                 \
    }                                                                                                     \
  }                                                                                                       \
  while (0);

#define CUT_CONDITION(val)                                                                                \
  if (CUTFalse == cutCheckCondition(val, __FILE__, __LINE__)) {                                           \
    exit(EXIT_FAILURE);                                                                                   \
  }

/* Picks device 0 (or -device=N), checks that it supports CUDA, selects it. */
#define CUT_DEVICE_INIT(ARGC, ARGV)                                                                       \
  {                                                                                                       \
    int __lockstep_count;                                                                                 \
    CUDA_SAFE_CALL_NO_SYNC(cudaGetDeviceCount(&__lockstep_count));                                        \
    if (__lockstep_count == 0) {                                                                          \
      fprintf(stderr, "cutil error: no devices supporting CUDA.\n");                                      \
      exit(EXIT_FAILURE);                                                                                 \
    }                                                                                                     \
    int __lockstep_dev = 0;                                                                               \
    cutGetCmdLineArgumenti(ARGC, (const char **)ARGV, "device", &__lockstep_dev);                         \
    if (__lockstep_dev < 0)                                                                               \
      __lockstep_dev = 0;                                                                                 \
    if (__lockstep_dev > __lockstep_count - 1)                                                            \
      __lockstep_dev = __lockstep_count - 1;                                                              \
    cudaDeviceProp __lockstep_prop;                                                                       \
    CUDA_SAFE_CALL_NO_SYNC(cudaGetDeviceProperties(&__lockstep_prop, __lockstep_dev));                    \
    if (__lockstep_prop.major < 1) {                                                                      \
      fprintf(stderr, "cutil error: device does not support CUDA.\n");                                    \
      exit(EXIT_FAILURE);                                                                                 \
    }                                                                                                     \
    if (cutCheckCmdLineFlag(ARGC, (const char **)ARGV, "quiet") == CUTFalse)                              \
      fprintf(stderr, "Using device %d: %s\n", __lockstep_dev, __lockstep_prop.name);                     \
    CUDA_SAFE_CALL(cudaSetDevice(__lockstep_dev));                                                        \
  }
#define CUT_DEVICE_INIT_DRV(cuDevice, ARGC, ARGV) ((void)(ARGC), (void)(ARGV), (cuDevice) = 0)

/* Without -noprompt the SDK waits for ENTER (the key is not used), then
 * exits with EXIT_SUCCESS: nothing after CUT_EXIT runs. */
#define CUT_EXIT(argc, argv)                                                                              \
  if (!cutCheckCmdLineFlag(argc, (const char **)argv, "noprompt")) {                                      \
    printf("\nPress ENTER to exit...\n");                                                                 \
    fflush(stdout);                                                                                       \
    fflush(stderr);                                                                                       \
    getchar();                                                                                            \
  }                                                                                                       \
  exit(EXIT_SUCCESS);

/* ---- <cutil_inline.h>'s helpers ------------------------------------------ */

#if CUDART_VERSION >= 4000
#define cutilDeviceSynchronize() cudaDeviceSynchronize()
#define cutilDeviceReset() cudaDeviceReset()
#else
#define cutilDeviceSynchronize() cudaThreadSynchronize()
#define cutilDeviceReset() cudaThreadExit()
#endif

#define cutilSafeCallNoSync(err) __cudaSafeCallNoSync(err, __FILE__, __LINE__)
#define cutilSafeCall(err) __cudaSafeCall(err, __FILE__, __LINE__)
#define cutilSafeThreadSync() __cudaSafeThreadSync(__FILE__, __LINE__)
#define cutilCheckError(err) __cutilCheckError(err, __FILE__, __LINE__)
#define cutilCheckMsg(msg) __cutilGetLastError(msg, __FILE__, __LINE__)
#define cutilCheckMsgAndSync(msg) __cutilGetLastErrorAndSync(msg, __FILE__, __LINE__)
#define cutilSafeMalloc(mallocCall) __cutilSafeMalloc((mallocCall), __FILE__, __LINE__)
#define cutilCondition(val) __cutilCondition(val, __FILE__, __LINE__)
#define cutilExit(argc, argv) __cutilExit(argc, argv)

__LS_CUTIL void __cudaSafeCallNoSync(cudaError err, const char *file, const int line) {
  if (cudaSuccess != err) {
    fprintf(stderr, "%s(%i) : cudaSafeCallNoSync() Runtime API error : %s.\n", file, line, cudaGetErrorString(err));
    exit(-1);
  }
}
__LS_CUTIL void __cudaSafeCall(cudaError err, const char *file, const int line) {
  if (cudaSuccess != err) {
    fprintf(stderr, "%s(%i) : cudaSafeCall() Runtime API error : %s.\n", file, line, cudaGetErrorString(err));
    exit(-1);
  }
}
__LS_CUTIL void __cudaSafeThreadSync(const char *file, const int line) {
  cudaError err = cutilDeviceSynchronize();
  if (cudaSuccess != err) {
    fprintf(stderr, "%s(%i) : cudaDeviceSynchronize() Runtime API error : %s.\n", file, line,
            cudaGetErrorString(err));
    exit(-1);
  }
}
__LS_CUTIL void __cutilCheckError(CUTBoolean err, const char *file, const int line) {
  if (CUTTrue != err) {
    fprintf(stderr, "%s(%i) : CUTIL CUDA error.\n", file, line);
    exit(-1);
  }
}
__LS_CUTIL void __cutilGetLastError(const char *errorMessage, const char *file, const int line) {
  cudaError_t err = cudaGetLastError();
  if (cudaSuccess != err) {
    fprintf(stderr, "%s(%i) : cutilCheckMsg() CUTIL CUDA error : %s : %s.\n", file, line, errorMessage,
            cudaGetErrorString(err));
    exit(-1);
  }
}
__LS_CUTIL void __cutilGetLastErrorAndSync(const char *errorMessage, const char *file, const int line) {
  __cutilGetLastError(errorMessage, file, line);
  cudaError_t err = cutilDeviceSynchronize();
  if (cudaSuccess != err) {
    fprintf(stderr, "%s(%i) : cutilCheckMsg cudaDeviceSynchronize error : %s : %s.\n", file, line, errorMessage,
            cudaGetErrorString(err));
    exit(-1);
  }
}
__LS_CUTIL void __cutilSafeMalloc(void *pointer, const char *file, const int line) {
  if (!(pointer)) {
    fprintf(stderr, "%s(%i) : cutilSafeMalloc host malloc failure\n", file, line);
    exit(-1);
  }
}
__LS_CUTIL void __cutilCondition(int val, const char *file, const int line) {
  if (CUTFalse == cutCheckCondition(val, file, line))
    exit(-1);
}
__LS_CUTIL void __cutilExit(int argc, char **argv) {
  if (!cutCheckCmdLineFlag(argc, (const char **)argv, "noprompt")) {
    printf("\nPress ENTER to exit...\n");
    fflush(stdout);
    fflush(stderr);
    getchar();
  }
  exit(EXIT_SUCCESS);
}

/* The modelled machine has one device, so the fastest is device 0. */
__LS_CUTIL int cutGetMaxGflopsDeviceId() { return 0; }

__LS_CUTIL int cutilDeviceInit(int argc, char **argv) {
  int count;
  cutilSafeCallNoSync(cudaGetDeviceCount(&count));
  if (count == 0) {
    fprintf(stderr, "CUTIL CUDA error: no devices supporting CUDA.\n");
    exit(-1);
  }
  int dev = 0;
  cutGetCmdLineArgumenti(argc, (const char **)argv, "device", &dev);
  if (dev < 0)
    dev = 0;
  if (dev > count - 1)
    return -dev;
  cudaDeviceProp prop;
  cutilSafeCallNoSync(cudaGetDeviceProperties(&prop, dev));
  if (prop.major < 1) {
    fprintf(stderr, "cutil error: GPU device does not support CUDA.\n");
    exit(-1);
  }
  cutilSafeCall(cudaSetDevice(dev));
  return dev;
}

__LS_CUTIL int cutilChooseCudaDevice(int argc, char **argv) {
  int dev = 0;
  if (cutCheckCmdLineFlag(argc, (const char **)argv, "device")) {
    dev = cutilDeviceInit(argc, argv);
    if (dev < 0)
      __cutilExit(argc, argv);
  } else {
    dev = cutGetMaxGflopsDeviceId();
    cutilSafeCallNoSync(cudaSetDevice(dev));
  }
  return dev;
}

#endif /* LOCKSTEP_INC_CUTIL_H */
