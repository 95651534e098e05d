/* SPDX-License-Identifier: MIT */
/* bench/macro/malloc.h: the C library's <malloc.h>, then the alloc_hooks() macros (alloc_hooks.h). */
#include "alloc_hooks_undef.h"
#define ALLOC_HOOKS_IN_MALLOC_H
#include_next <malloc.h>
#undef ALLOC_HOOKS_IN_MALLOC_H
#include "alloc_hooks.h"
