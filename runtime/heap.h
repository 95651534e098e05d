/* SPDX-License-Identifier: MIT */
/*
 * heap.h: the allocator under the runtime.  Every call the runtime makes to
 * it is here: glibc's __libc_malloc and friends, whose chunks block.h
 * knows.
 *
 * Under a Valgrind tool that replaces malloc (memcheck, massif, ...; run
 * with --soname-synonyms=somalloc=nouserintercepts so that the program's
 * malloc stays this runtime's), __libc_malloc is Valgrind's, whose blocks
 * have no glibc chunk around them: the heap is foreign.  heap.c then lays
 * out a chunk of its own inside each of Valgrind's blocks, so that the fast
 * paths, which read a chunk's size field, run unchanged:
 *
 *   Valgrind's block: [ ... | lead | size|PREV_INUSE | p: usable ... ]
 *                                     p[-2]    p[-1]
 *   lead: p - the block's start (16, or the alignment asked for)
 *
 * A pointer that is not one of the runtime's blocks goes to __libc_free
 * itself (heap_free_other): glibc's or Valgrind's, whichever made it.
 */
#ifndef ALLOCTAG_HEAP_H
#define ALLOCTAG_HEAP_H

#include "alloctag_internal.h"

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
extern void __libc_free(void *);

extern int alloctag_foreign_heap INTERNAL;
void *alloctag_foreign_alloc(size_t align, size_t request, int zero) INTERNAL;
void *alloctag_foreign_resize(void *p, size_t request) INTERNAL;
void alloctag_foreign_free(void *p) INTERNAL;

static inline void *heap_alloc(size_t request)
{
	if (likely(!alloctag_foreign_heap))
		return __libc_malloc(request);
	return alloctag_foreign_alloc(CHUNK_ALIGN, request, 0);
}

static inline void *heap_alloc_zeroed(size_t request)
{
	if (likely(!alloctag_foreign_heap))
		return __libc_calloc(1, request);
	return alloctag_foreign_alloc(CHUNK_ALIGN, request, 1);
}

static inline void *heap_alloc_aligned(size_t align, size_t request)
{
	if (likely(!alloctag_foreign_heap))
		return __libc_memalign(align, request);
	return alloctag_foreign_alloc(align, request, 0);
}

/* A block of the runtime's, given REQUEST bytes: moved, or where it was. */
static inline void *heap_resize(void *p, size_t request)
{
	if (likely(!alloctag_foreign_heap))
		return __libc_realloc(p, request);
	return alloctag_foreign_resize(p, request);
}

/* A chunk of the runtime's, back to the allocator. */
static inline void heap_free(void *p)
{
	if (likely(!alloctag_foreign_heap))
		__libc_free(p);
	else
		alloctag_foreign_free(p);
}

/* A pointer that is not the runtime's: its allocator frees it, or says what is wrong. */
static inline void heap_free_other(void *p)
{
	__libc_free(p);
}

/* The same for realloc: the block stays its allocator's, uncounted. */
static inline void *heap_resize_other(void *p, size_t n)
{
	return __libc_realloc(p, n);
}

#endif /* ALLOCTAG_HEAP_H */
