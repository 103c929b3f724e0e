/* lockstep prelude for OpenCL C 1.2 (force-included with -include
 * lockstep_opencl.h, after clang's default OpenCL header).
 *
 * Work-item functions, barriers, fences and atomics come from clang's
 * opencl-c.h and are recognised by the lowering as mangled calls. This header
 * adds the GPUVerify annotation language over the __lockstep_* intrinsics of
 * crates/frontend/INTRINSICS.md (overloaded per address space) and the few
 * things GPUVerify's OpenCL kernels use that clang's header lacks.
 */
#ifndef LOCKSTEP_OPENCL_H
#define LOCKSTEP_OPENCL_H

#if !defined(__OPENCL_C_VERSION__)
#error "lockstep_opencl.h is for OpenCL C compilations (-x cl)"
#endif
#define __LOCKSTEP__ 1

#include "lockstep_annotations.h"

#endif /* LOCKSTEP_OPENCL_H */
