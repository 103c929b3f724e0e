/* lockstep prelude: cuRAND (host and device APIs).
 *
 * Device generators are modelled, not implemented: each call reads and writes
 * its state (so that threads sharing one state race, as they do on a GPU) and
 * returns a fresh value (__lockstep_havoc_*). Host API functions are
 * declarations only.
 */
#ifndef LOCKSTEP_CURAND_H
#define LOCKSTEP_CURAND_H
#include "lockstep_cuda.h"

/* ===========================================================================
 * Host API.
 * ========================================================================= */
enum curandStatus {
  CURAND_STATUS_SUCCESS = 0,
  CURAND_STATUS_VERSION_MISMATCH = 100,
  CURAND_STATUS_NOT_INITIALIZED = 101,
  CURAND_STATUS_ALLOCATION_FAILED = 102,
  CURAND_STATUS_TYPE_ERROR = 103,
  CURAND_STATUS_OUT_OF_RANGE = 104,
  CURAND_STATUS_LENGTH_NOT_MULTIPLE = 105,
  CURAND_STATUS_DOUBLE_PRECISION_REQUIRED = 106,
  CURAND_STATUS_LAUNCH_FAILURE = 201,
  CURAND_STATUS_PREEXISTING_FAILURE = 202,
  CURAND_STATUS_INITIALIZATION_FAILED = 203,
  CURAND_STATUS_ARCH_MISMATCH = 204,
  CURAND_STATUS_INTERNAL_ERROR = 999
};
typedef enum curandStatus curandStatus_t;
enum curandRngType {
  CURAND_RNG_TEST = 0,
  CURAND_RNG_PSEUDO_DEFAULT = 100,
  CURAND_RNG_PSEUDO_XORWOW = 101,
  CURAND_RNG_PSEUDO_MRG32K3A = 121,
  CURAND_RNG_PSEUDO_MTGP32 = 141,
  CURAND_RNG_PSEUDO_MT19937 = 142,
  CURAND_RNG_PSEUDO_PHILOX4_32_10 = 161,
  CURAND_RNG_QUASI_DEFAULT = 200,
  CURAND_RNG_QUASI_SOBOL32 = 201,
  CURAND_RNG_QUASI_SCRAMBLED_SOBOL32 = 202,
  CURAND_RNG_QUASI_SOBOL64 = 203,
  CURAND_RNG_QUASI_SCRAMBLED_SOBOL64 = 204
};
typedef enum curandRngType curandRngType_t;
typedef struct curandGenerator_st *curandGenerator_t;

extern "C" {
__attribute__((host)) curandStatus_t curandCreateGenerator(curandGenerator_t *generator, curandRngType_t rng_type);
__attribute__((host)) curandStatus_t curandCreateGeneratorHost(curandGenerator_t *generator,
                                                               curandRngType_t rng_type);
__attribute__((host)) curandStatus_t curandDestroyGenerator(curandGenerator_t generator);
__attribute__((host)) curandStatus_t curandSetPseudoRandomGeneratorSeed(curandGenerator_t generator,
                                                                        unsigned long long seed);
__attribute__((host)) curandStatus_t curandSetGeneratorOffset(curandGenerator_t generator,
                                                              unsigned long long offset);
__attribute__((host)) curandStatus_t curandSetStream(curandGenerator_t generator, cudaStream_t stream);
__attribute__((host)) curandStatus_t curandGenerate(curandGenerator_t generator, unsigned int *outputPtr,
                                                    size_t num);
__attribute__((host)) curandStatus_t curandGenerateUniform(curandGenerator_t generator, float *outputPtr,
                                                           size_t num);
__attribute__((host)) curandStatus_t curandGenerateUniformDouble(curandGenerator_t generator,
                                                                 double *outputPtr, size_t num);
__attribute__((host)) curandStatus_t curandGenerateNormal(curandGenerator_t generator, float *outputPtr,
                                                          size_t n, float mean, float stddev);
__attribute__((host)) curandStatus_t curandGenerateNormalDouble(curandGenerator_t generator,
                                                                double *outputPtr, size_t n, double mean,
                                                                double stddev);
__attribute__((host)) curandStatus_t curandGenerateLogNormal(curandGenerator_t generator, float *outputPtr,
                                                             size_t n, float mean, float stddev);
__attribute__((host)) curandStatus_t curandGeneratePoisson(curandGenerator_t generator,
                                                           unsigned int *outputPtr, size_t n, double lambda);
__attribute__((host)) curandStatus_t curandGetVersion(int *version);
}

/* ===========================================================================
 * Device states.
 * ========================================================================= */
struct curandStateXORWOW {
  unsigned int d, v[5];
  int boxmuller_flag, boxmuller_flag_double;
  float boxmuller_extra;
  double boxmuller_extra_double;
};
typedef struct curandStateXORWOW curandStateXORWOW_t;
typedef struct curandStateXORWOW curandState_t;
typedef struct curandStateXORWOW curandState;

struct curandStatePhilox4_32_10 {
  uint4 ctr, output;
  uint2 key;
  unsigned int STATE;
  int boxmuller_flag, boxmuller_flag_double;
  float boxmuller_extra;
  double boxmuller_extra_double;
};
typedef struct curandStatePhilox4_32_10 curandStatePhilox4_32_10_t;

struct curandStateMRG32k3a {
  unsigned int s1[3], s2[3];
  int boxmuller_flag, boxmuller_flag_double;
  float boxmuller_extra;
  double boxmuller_extra_double;
};
typedef struct curandStateMRG32k3a curandStateMRG32k3a_t;

struct curandStateSobol32 {
  unsigned int i, x, c, direction_vectors[32];
};
typedef struct curandStateSobol32 curandStateSobol32_t;

/* MTGP32. */
#define MTGPDC_MEXP 11213
#define MTGPDC_N 351
#define MTGPDC_FLOOR_2P 256
#define MTGPDC_CEIL_2P 512
#define MTGP32_STATE_SIZE 1024
#define MTGP32_STATE_MASK 1023
#define CURAND_NUM_MTGP32_PARAMS 200
#define MTGP32_TN MTGPDC_FLOOR_2P
#define MTGP32_LS (MTGP32_TN * 3)
#define MTGP32_TS 16
struct mtgp32_params_fast {
  int mexp, pos, sh1, sh2;
  unsigned int tbl[16], tmp_tbl[16], flt_tmp_tbl[16], mask;
  unsigned char poly_sha1[21];
};
typedef struct mtgp32_params_fast mtgp32_params_fast_t;
struct mtgp32_kernel_params {
  unsigned int pos_tbl[CURAND_NUM_MTGP32_PARAMS];
  unsigned int param_tbl[CURAND_NUM_MTGP32_PARAMS][MTGP32_TS];
  unsigned int temper_tbl[CURAND_NUM_MTGP32_PARAMS][MTGP32_TS];
  unsigned int single_temper_tbl[CURAND_NUM_MTGP32_PARAMS][MTGP32_TS];
  unsigned int sh1_tbl[CURAND_NUM_MTGP32_PARAMS];
  unsigned int sh2_tbl[CURAND_NUM_MTGP32_PARAMS];
  unsigned int mask[1];
};
typedef struct mtgp32_kernel_params mtgp32_kernel_params_t;
struct curandStateMtgp32 {
  unsigned int s[MTGP32_STATE_SIZE];
  int offset;
  int pIdx;
  mtgp32_kernel_params_t *k;
  int precise_double_flag;
};
typedef struct curandStateMtgp32 curandStateMtgp32_t;

extern mtgp32_params_fast_t mtgp32dc_params_fast_11213[];
extern "C" {
__attribute__((host)) curandStatus_t curandMakeMTGP32Constants(const mtgp32_params_fast_t params[],
                                                               mtgp32_kernel_params_t *p);
__attribute__((host)) curandStatus_t curandMakeMTGP32KernelState(curandStateMtgp32_t *s,
                                                                 mtgp32_params_fast_t params[],
                                                                 mtgp32_kernel_params_t *k, int n,
                                                                 unsigned long long seed);
}

/* ===========================================================================
 * Device API.
 * ========================================================================= */
__attribute__((device)) unsigned int __lockstep_havoc_uint(void);
__attribute__((device)) float __lockstep_havoc_float(void);
__attribute__((device)) double __lockstep_havoc_double(void);

#define __LS_CURAND_DEV static inline __attribute__((always_inline, nodebug, device))

/* Advance a state: one read and one write of its first word. */
#define __LS_CURAND_STEP(S, FIELD) ((S)->FIELD = (S)->FIELD + 1)
/* An MTGP32 state belongs to one block of at most 256 threads, which call
   the generator together: cuRAND's MTGP32 `curand` is block-collective (it
   synchronises the block before and after the first thread advances the
   shared offset), so a call by only some threads of a block diverges.
   Model: the two barriers, and between them, with more than 256 threads
   every call advances the state (so the threads race on it); otherwise only
   the block's first thread does, so that two blocks sharing one state race
   on it and the threads of one block do not. */
#define __LS_CURAND_MTGP32_STEP(S, FIELD)                                                 \
  do {                                                                                   \
    __syncthreads();                                                                     \
    if (blockDim.x * blockDim.y * blockDim.z > 256 ||                                     \
        (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0))                       \
      (S)->FIELD = (S)->FIELD + 1;                                                        \
    __syncthreads();                                                                     \
  } while (0)

#define __LS_CURAND_GENERATORS(STATE, FIELD, ADVANCE)                                           \
  __LS_CURAND_DEV unsigned int curand(STATE *s) {                                      \
    ADVANCE(s, FIELD);                                                        \
    return __lockstep_havoc_uint();                                                    \
  }                                                                                    \
  __LS_CURAND_DEV float curand_uniform(STATE *s) {                                     \
    ADVANCE(s, FIELD);                                                        \
    float r = __lockstep_havoc_float();                                                \
    __assume((r > 0.0f) & (r <= 1.0f));                                                \
    return r;                                                                          \
  }                                                                                    \
  __LS_CURAND_DEV double curand_uniform_double(STATE *s) {                             \
    ADVANCE(s, FIELD);                                                        \
    double r = __lockstep_havoc_double();                                              \
    __assume((r > 0.0) & (r <= 1.0));                                                  \
    return r;                                                                          \
  }                                                                                    \
  __LS_CURAND_DEV float curand_normal(STATE *s) {                                      \
    ADVANCE(s, FIELD);                                                        \
    return __lockstep_havoc_float();                                                   \
  }                                                                                    \
  __LS_CURAND_DEV double curand_normal_double(STATE *s) {                              \
    ADVANCE(s, FIELD);                                                        \
    return __lockstep_havoc_double();                                                  \
  }                                                                                    \
  __LS_CURAND_DEV float curand_log_normal(STATE *s, float mean, float stddev) {        \
    ADVANCE(s, FIELD);                                                        \
    return __lockstep_havoc_float();                                                   \
  }                                                                                    \
  __LS_CURAND_DEV double curand_log_normal_double(STATE *s, double mean, double stddev) { \
    ADVANCE(s, FIELD);                                                        \
    return __lockstep_havoc_double();                                                  \
  }                                                                                    \
  __LS_CURAND_DEV unsigned int curand_poisson(STATE *s, double lambda) {               \
    ADVANCE(s, FIELD);                                                        \
    return __lockstep_havoc_uint();                                                    \
  }                                                                                    \
  __LS_CURAND_DEV float2 curand_normal2(STATE *s) {                                    \
    ADVANCE(s, FIELD);                                                        \
    return make_float2(__lockstep_havoc_float(), __lockstep_havoc_float());            \
  }                                                                                    \
  __LS_CURAND_DEV double2 curand_normal2_double(STATE *s) {                            \
    ADVANCE(s, FIELD);                                                        \
    return make_double2(__lockstep_havoc_double(), __lockstep_havoc_double());         \
  }
__LS_CURAND_GENERATORS(curandStateXORWOW_t, d, __LS_CURAND_STEP)
__LS_CURAND_GENERATORS(curandStatePhilox4_32_10_t, STATE, __LS_CURAND_STEP)
__LS_CURAND_GENERATORS(curandStateMRG32k3a_t, s1[0], __LS_CURAND_STEP)
__LS_CURAND_GENERATORS(curandStateSobol32_t, i, __LS_CURAND_STEP)
__LS_CURAND_GENERATORS(curandStateMtgp32_t, offset, __LS_CURAND_MTGP32_STEP)
#undef __LS_CURAND_GENERATORS

#define __LS_CURAND_INIT(STATE, FIELD)                                                 \
  __LS_CURAND_DEV void curand_init(unsigned long long seed, unsigned long long subsequence, \
                                   unsigned long long offset, STATE *s) {              \
    s->FIELD = __lockstep_havoc_uint();                                                \
  }                                                                                    \
  __LS_CURAND_DEV void skipahead(unsigned long long n, STATE *s) { __LS_CURAND_STEP(s, FIELD); } \
  __LS_CURAND_DEV void skipahead_sequence(unsigned long long n, STATE *s) {            \
    __LS_CURAND_STEP(s, FIELD);                                                        \
  }
__LS_CURAND_INIT(curandStateXORWOW_t, d)
__LS_CURAND_INIT(curandStatePhilox4_32_10_t, STATE)
__LS_CURAND_INIT(curandStateMRG32k3a_t, s1[0])
#undef __LS_CURAND_INIT
__LS_CURAND_DEV float4 curand_uniform4(curandStatePhilox4_32_10_t *s) {
  __LS_CURAND_STEP(s, STATE);
  return make_float4(__lockstep_havoc_float(), __lockstep_havoc_float(), __lockstep_havoc_float(),
                     __lockstep_havoc_float());
}
__LS_CURAND_DEV uint4 curand4(curandStatePhilox4_32_10_t *s) {
  __LS_CURAND_STEP(s, STATE);
  return make_uint4(__lockstep_havoc_uint(), __lockstep_havoc_uint(), __lockstep_havoc_uint(),
                    __lockstep_havoc_uint());
}
__LS_CURAND_DEV float4 curand_normal4(curandStatePhilox4_32_10_t *s) {
  __LS_CURAND_STEP(s, STATE);
  return make_float4(__lockstep_havoc_float(), __lockstep_havoc_float(), __lockstep_havoc_float(),
                     __lockstep_havoc_float());
}
#undef __LS_CURAND_STEP
#undef __LS_CURAND_DEV

#endif /* LOCKSTEP_CURAND_H */
