/* lockstep prelude: the host C library that nvcc's implicitly included
 * runtime headers make visible (whole programs call malloc, rand, time,
 * assert... in host code without including their headers). These headers are
 * cheap to parse; <math.h> is not (it is C++'s <cmath>): see
 * lockstep_host_math.h. Kept out of the force-included prelude itself so
 * that bare kernels compile at clang's floor time. */
#ifndef LOCKSTEP_HOST_LIBC_H
#define LOCKSTEP_HOST_LIBC_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <assert.h>
#endif
