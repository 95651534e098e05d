/* SPDX-License-Identifier: MIT */
/*
 * next.h: whose malloc the process runs on, decided once before the
 * runtime hands out its first block, and the allocator the runtime falls
 * back on (the next one).
 *
 *   MODE_OWNER    the process's malloc and free are the runtime's: small
 *                 blocks are its slabs' (heap.h), large and aligned ones the
 *                 next allocator's (the definitions after the runtime's in
 *                 the lookup order: glibc's, or an allocator preloaded after
 *                 liballoctag), known by the large table
 *   MODE_TABLE    the same entry points, every block the next allocator's
 *                 and in the table: under a Valgrind tool that replaces
 *                 malloc, so that it still sees every block
 *   MODE_HOOKED   free() is a sanitizer's (ASan, TSan, LSan...): the
 *                 runtime's entry points forward to the process's malloc,
 *                 and the sanitizer's malloc and free hooks
 *                 (__sanitizer_install_malloc_and_free_hooks) charge and
 *                 uncharge every block through the table: exact
 *   MODE_FORWARD  free() is another allocator's (a plain host of a library
 *                 built with alloctag-cc, a preloaded jemalloc, mimalloc,
 *                 tcmalloc, libc_malloc_debug, a program's own malloc): the
 *                 runtime's entry points forward to the process's malloc;
 *                 tagged calls count calls and bytes, live bytes are
 *                 unknown (the report says so, and why)
 *
 * In no mode does the runtime read or write a byte of a block it did not
 * make, nor give a pointer it does not know to anything but the allocator
 * that made it (the next one, or the process's).
 */
#ifndef ALLOCTAG_NEXT_H
#define ALLOCTAG_NEXT_H

#include <malloc.h>
#include "base.h"

enum alloc_mode {
	MODE_UNDECIDED = 0,
	MODE_OWNER,
	MODE_TABLE,
	MODE_HOOKED,
	MODE_FORWARD,
};

/* The allocator the runtime takes from and gives to in its mode. */
struct next_allocator {
	void *(*malloc)(size_t);
	void (*free)(void *);
	void *(*calloc)(size_t, size_t);
	void *(*realloc)(void *, size_t);
	void *(*memalign)(size_t, size_t);
	size_t (*usable)(void *);
	int (*trim)(size_t);
	struct mallinfo2 (*mallinfo2)(void);
};

extern _Atomic int alloctag_mode INTERNAL;

/* The runtime's own definitions (malloc.c), whatever the process's are. */
void *alloctag_own_malloc(size_t) INTERNAL;
void alloctag_own_free(void *) INTERNAL;
void *alloctag_own_calloc(size_t, size_t) INTERNAL;
void *alloctag_own_realloc(void *, size_t) INTERNAL;
void *alloctag_own_memalign(size_t, size_t) INTERNAL;
size_t alloctag_own_usable_size(void *) INTERNAL;
int alloctag_own_trim(size_t) INTERNAL;
struct mallinfo2 alloctag_own_mallinfo2(void) INTERNAL;
extern struct next_allocator alloctag_next INTERNAL;

/* The mode, decided if it is not yet (any thread, any time; re-entered by dlsym's own malloc). */
static inline enum alloc_mode mode(void)
{
	int m = load_acquire(&alloctag_mode);
	enum alloc_mode alloctag_mode_decide(void) INTERNAL;

	return likely(m) ? (enum alloc_mode)m : alloctag_mode_decide();
}

/*
 * MODE_FORWARD: the object whose free() the process calls
 * ("libjemalloc.so.2"), for the report's note that live bytes are not
 * counted; NULL in the other modes.
 */
const char *alloctag_free_owner(void) INTERNAL;

/*
 * While the mode is decided, 1 on the deciding thread; the runtime's
 * free(NULL) makes it 2: how a call through an address dlsym() gave (an
 * executable's canonical PLT entry for free) is seen to reach the runtime.
 */
extern __thread int alloctag_probing TLS_IE INTERNAL;

/* The hooks of MODE_HOOKED, installed when it is decided (malloc.c). */
void alloctag_hooked_malloc(const volatile void *p, size_t n) INTERNAL;
void alloctag_hooked_free(const volatile void *p) INTERNAL;

#endif /* ALLOCTAG_NEXT_H */
