/* SPDX-License-Identifier: MIT */
/*
 * bench/wrappers-lib.c: gnulib's way of allocating (xalloc), in a unit of
 * its own, for bench/wrappers.c: checked wrappers, one through another.
 */
#include <stdlib.h>
#include <string.h>

static void *nonnull(void *p)
{
	if (!p)
		abort();
	return p;
}

void *xmalloc(size_t n) { return nonnull(malloc(n)); }
void *xcalloc(size_t n, size_t s) { return nonnull(calloc(n, s)); }
void *xrealloc(void *p, size_t n) { void *r = realloc(p, n); if (!r && n) abort(); return r; }
void *xmemdup(const void *p, size_t n) { return memcpy(xmalloc(n), p, n); }
char *xstrdup(const char *s) { return xmemdup(s, strlen(s) + 1); }
