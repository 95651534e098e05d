/* SPDX-License-Identifier: MIT */
/*
 * alloctag runtime internals shared by alloctag.c (accounting), report.c
 * (reports) and registry.c (sites, threads, memory of the runtime's own).
 *
 * Accounting in one picture:
 *
 *   block:  [ struct header {slot, size} ][ the caller's bytes ... ]
 *                       |
 *                       v
 *   slot:   this thread's counters for the site that allocated the block
 *           (calls, bytes, live, peak; remote frees on a line of their own)
 *
 *   thread_state.slots[site id] -> slot        site id: tag->counters->id
 *
 * Only the thread that owns a slot writes its first cache line, with plain
 * adds; a free from another thread goes to the slot's second line, with
 * atomic adds.  A report sums the slots of all threads, site by site.
 */
#ifndef ALLOCTAG_INTERNAL_H
#define ALLOCTAG_INTERNAL_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include "alloctag.h"

#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)
#define INTERNAL	__attribute__((visibility("hidden")))
#define EXPORT		__attribute__((visibility("default")))
#define TLS_IE		__attribute__((tls_model("initial-exec")))

/* What a report says of a call site: copied when the site first allocates,
 * so that it outlives a dlclose()d library. */
struct site {
	const char *file;
	const char *function;
	const char *module;		/* NULL for the main program */
	unsigned int line;
	uintptr_t module_offset;	/* tag address - module base */
};

struct thread_state;

/* One thread's counters for one site. */
struct slot {
	/* written by the owning thread only */
	uint64_t calls;			/* allocations charged here */
	uint64_t bytes;			/* bytes charged here */
	uint64_t freed_calls;		/* freed by the owning thread */
	int64_t live;			/* bytes - bytes freed by the owning thread */
	int64_t peak;			/* highest live - remote_bytes */
	struct thread_state *owner;
	uint32_t site;
	/* frees by other threads, on a cache line of their own */
	_Alignas(64) _Atomic uint64_t remote_calls;
	_Atomic uint64_t remote_bytes;
};

/*
 * Small blocks are kept by the size of the glibc chunk they live in: class k
 * is a chunk of 16k bytes, which holds the header and up to 16k - 24 bytes
 * (glibc keeps 8 for itself).  Asked for n bytes, a chunk is 16 bytes larger
 * than plain malloc(n)'s, at most.
 */
#define SMALL_MAX	1000			/* bytes asked for */
#define SMALL_CLASSES	((SMALL_MAX + 39) / 16 + 1)

static inline size_t small_class(size_t n)
{
	return (n + 39) >> 4;
}

/* What to ask glibc for: a chunk of exactly 16k bytes. */
static inline size_t small_request(size_t k)
{
	return ((size_t)k << 4) - 8;
}

/* A block in the runtime's hands: its header, then the caller's bytes. */
struct header {
	union {
		struct slot *slot;	/* charged to */
		struct header *next;	/* free, in a thread's cache */
	};
	size_t size;		/* asked for; ALIGNED: the chunk starts elsewhere */
};

#define ALIGNED		((size_t)1 << (sizeof(size_t) * 8 - 1))

struct thread_state {
	struct slot **slots;		/* by site id, NULL until used */
	uint32_t cap;			/* entries in slots */
	_Atomic int in_use;		/* owned by a live thread */
	struct thread_state *next;	/* every state ever made */
	char *arena, *arena_end;	/* where this thread's slots come from */
	/* freed small blocks, reused before asking glibc */
	struct header *cache[SMALL_CLASSES];
	size_t cache_bytes;		/* the chunks' sizes, summed */
};

/*
 * A thread keeps up to this many bytes of freed small blocks, of any class,
 * as glibc's fastbins keep theirs.  A count per class (glibc's tcache keeps
 * 7) is too little for programs that free and allocate in bursts, such as a
 * garbage collector's sweep: every block would go through glibc and the
 * wrapper around it.
 */
#define CACHE_BYTES	((size_t)4 << 20)

/* alloctag.c */
void alloctag_flush_cache(struct thread_state *t) INTERNAL;

/* registry.c */
extern __thread struct thread_state *alloctag_self TLS_IE INTERNAL;
extern struct alloc_tag alloctag_untagged INTERNAL;
struct slot *alloctag_slot_slow(struct alloc_tag *tag) INTERNAL;
uint32_t alloctag_site_count(void) INTERNAL;
const struct site *alloctag_site(uint32_t id) INTERNAL;
struct thread_state *alloctag_first_state(void) INTERNAL;
void *alloctag_map(size_t size) INTERNAL;
void alloctag_unmap(void *p, size_t size) INTERNAL;

/* report.c */
void alloctag_report_init(void) INTERNAL;

#endif /* ALLOCTAG_INTERNAL_H */
