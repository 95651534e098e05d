/* SPDX-License-Identifier: MIT */
/* bench/macro/stdio.h: the C library's <stdio.h>, then the alloc_hooks() macros (alloc_hooks.h). */
#include "alloc_hooks_undef.h"
#define ALLOC_HOOKS_IN_STDIO_H
#include_next <stdio.h>
#undef ALLOC_HOOKS_IN_STDIO_H
#include "alloc_hooks.h"
