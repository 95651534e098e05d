/* SPDX-License-Identifier: MIT */
/* bench/macro/stdlib.h: the C library's <stdlib.h>, then the alloc_hooks() macros (alloc_hooks.h). */
#include "alloc_hooks_undef.h"
#define ALLOC_HOOKS_IN_STDLIB_H
#include_next <stdlib.h>
#undef ALLOC_HOOKS_IN_STDLIB_H
#include "alloc_hooks.h"
