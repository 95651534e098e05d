/* SPDX-License-Identifier: MIT */
/* bench/macro/wchar.h: the C library's <wchar.h>, then the alloc_hooks() macros (alloc_hooks.h). */
#include "alloc_hooks_undef.h"
#define ALLOC_HOOKS_IN_WCHAR_H
#include_next <wchar.h>
#undef ALLOC_HOOKS_IN_WCHAR_H
#include "alloc_hooks.h"
