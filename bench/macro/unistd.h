/* SPDX-License-Identifier: MIT */
/* bench/macro/unistd.h: the C library's <unistd.h>, then the alloc_hooks() macros (alloc_hooks.h). */
#include "alloc_hooks_undef.h"
#define ALLOC_HOOKS_IN_UNISTD_H
#include_next <unistd.h>
#undef ALLOC_HOOKS_IN_UNISTD_H
#include "alloc_hooks.h"
