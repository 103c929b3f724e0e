/* lockstep prelude */
#ifndef LOCKSTEP_INC_CUTIL_INLINE_H
#define LOCKSTEP_INC_CUTIL_INLINE_H
#include "cutil.h"
#endif
