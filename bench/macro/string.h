/* SPDX-License-Identifier: MIT */
/* bench/macro/string.h: the C library's <string.h>, then the alloc_hooks() macros (alloc_hooks.h). */
#include "alloc_hooks_undef.h"
#define ALLOC_HOOKS_IN_STRING_H
#include_next <string.h>
#undef ALLOC_HOOKS_IN_STRING_H
#include "alloc_hooks.h"
