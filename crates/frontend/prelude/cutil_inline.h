/* lockstep prelude: the CUDA SDK 3.x-4.x <cutil_inline.h>. Its helpers
 * (cutilSafeCall, cutilCheckMsg, cutilSafeMalloc, cutilDeviceInit...) are
 * defined with <cutil.h>'s macros in cutil.h, which programs of that era
 * also reached through this header. */
#ifndef LOCKSTEP_INC_CUTIL_INLINE_H
#define LOCKSTEP_INC_CUTIL_INLINE_H
#include "cutil.h"
#endif
