/* SPDX-License-Identifier: MIT */
/*
 * alloctag runtime internals shared by its parts:
 *
 *   alloctag.c   the C library's allocators: fast paths, blocks (block.h)
 *   heap.c       the allocator under the runtime (heap.h): glibc's, or Valgrind's
 *   cache.c      per-thread caches of freed blocks: budget, trim, reclaim
 *   registry.c   sites and threads: a thread's slot for a site
 *   counters.c   the counters' memory (counters.h), in a live file or not
 *   live.c       the live file: where, who may read it, its lifetime
 *   config.c     the ALLOCTAG_* settings, read once at start
 *   report.c     reports: when and where
 *   format.c, counters_read.c   reading counters and writing reports (shared
 *                with the alloctag command)
 *
 * Accounting in one picture:
 *
 *   tag (the plugin's, static) --counters->id--> site id
 *   thread_state.slots[site id] --> struct counters_slot (this thread's),
 *                                   or how often it allocated there so far
 *   block trailer (block.h) --> the slot it was charged to
 *
 * A thread's slot for a site is its own (plain stores, no atomics) once it
 * allocated there HOT_ALLOCATIONS times, or at once if it is the site's
 * first thread; until then it charges the site's shared slot, atomically.
 * So memory grows with the (thread, site) pairs that allocate often, and
 * the peak of a site one thread allocates from is exact.  A free by a
 * thread that does not own the slot adds to its remote counters,
 * atomically.  Reports sum every slot of a site (counters_read.c).
 *
 * Atomics: <stdatomic.h> only, through the helpers below; every shared
 * variable is _Atomic and every access to one says its order.
 */
#ifndef ALLOCTAG_INTERNAL_H
#define ALLOCTAG_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include "alloctag.h"

/*
 * Assertions on the runtime's invariants, in the ALLOCTAG_DEBUG build
 * (make check builds and runs the runtime tests with it): a failed one
 * says where on stderr and aborts.  Nothing in the normal build.
 */
#ifdef ALLOCTAG_DEBUG
void alloctag_assert_fail(const char *expr, const char *file, int line) __attribute__((visibility("hidden")))
	__attribute__((noreturn, cold));
#define debug_assert(e)	((e) ? (void)0 : alloctag_assert_fail(#e, __FILE__, __LINE__))
#else
#define debug_assert(e)	((void)0)
#endif

#include "block.h"
#include "counters.h"

#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)
#define INTERNAL	__attribute__((visibility("hidden")))
#define EXPORT		__attribute__((visibility("default")))
#define TLS_IE		__attribute__((tls_model("initial-exec")))

#define load_relaxed(p)		atomic_load_explicit((p), memory_order_relaxed)
#define load_acquire(p)		atomic_load_explicit((p), memory_order_acquire)
#define store_relaxed(p, v)	atomic_store_explicit((p), (v), memory_order_relaxed)
#define store_release(p, v)	atomic_store_explicit((p), (v), memory_order_release)
#define add_relaxed(p, v)	atomic_fetch_add_explicit((p), (v), memory_order_relaxed)
/* A counter only this thread writes: a load and a store, not a locked add. */
#define bump(p, v)		store_relaxed((p), load_relaxed(p) + (v))
#define bump_release(p, v)	store_release((p), load_relaxed(p) + (v))

/* A heap error in the caller (double free, ...): one line on stderr, abort(). */
void alloctag_heap_error(const char *what, const void *p) INTERNAL __attribute__((noreturn, cold));

/*
 * A thread's state.  The first part is the fast path's; a thread that has
 * not allocated yet uses the boot state, whose empty table and full cache
 * send it to the slow paths.
 */
struct thread_state {
	uintptr_t *slots;		/* by site id: a slot of its own, or a count */
	uint32_t cap;			/* entries in slots */
	uint32_t number;		/* 1, 2, ...: in the slots it owns */
	/* the cache (cache.c): freed blocks by class, reused before glibc's */
	_Atomic uint32_t busy;		/* the owner is in a cache operation */
	_Atomic uint32_t steal;		/* a thief waits to take the cache */
	_Atomic size_t cache_bytes;	/* chunk bytes in the cache */
	size_t cache_limit;		/* of the budget, reserved for this cache */
	void *bins[SMALL_CLASSES];
	/* slow paths */
	uint64_t slot_chunk;		/* offset of the chunk new slots come from */
	uint32_t misses;		/* cache misses since the last reclaim check */
	size_t seen_bytes;		/* cache_bytes at the last reclaim check */
	uint64_t seen_ns;		/* when it last changed */
	_Atomic int in_use;		/* owned by a live thread */
	pthread_mutex_t steal_lock;	/* held by a thief taking the cache */
	struct thread_state *next;	/* every state ever made */
};

/* alloctag.c */
extern __thread struct thread_state *alloctag_self TLS_IE INTERNAL;
void alloctag_own_free(void *p) INTERNAL;

/* cache.c */
void alloctag_cache_flush(struct thread_state *t) INTERNAL;
int alloctag_cache_reserve(struct thread_state *t) INTERNAL;
void alloctag_cache_miss(struct thread_state *t) INTERNAL;
void *alloctag_cache_carve(struct thread_state *t, size_t k) INTERNAL;
void alloctag_cache_trim_all(void) INTERNAL;
void alloctag_cache_init(void) INTERNAL;
void alloctag_cache_after_fork(struct thread_state *self) INTERNAL;

/* registry.c */
#define HOT_ALLOCATIONS	16		/* before a thread gets a slot of its own */

/* The thread's own slot in a table entry, or NULL while it counts. */
static inline struct counters_slot *own_slot(uintptr_t entry)
{
	return entry > HOT_ALLOCATIONS ? (struct counters_slot *)entry : NULL;
}

extern struct alloc_tag alloctag_untagged INTERNAL;
extern struct thread_state alloctag_boot_state INTERNAL;
struct counters_slot *alloctag_slot_slow(struct alloc_tag *tag) INTERNAL;
struct thread_state *alloctag_first_state(void) INTERNAL;
void alloctag_registry_lock(void) INTERNAL;
void alloctag_registry_unlock(void) INTERNAL;
void alloctag_registry_after_fork(void) INTERNAL;

/* counters.c */
struct counters_header *alloctag_counters(void) INTERNAL;
struct counters_header *alloctag_counters_begin(void) INTERNAL;
uint64_t alloctag_counters_chunk(enum chunk_kind kind, uint32_t size, uint32_t thread) INTERNAL;
void *alloctag_counters_at(uint64_t offset) INTERNAL;
struct counters_view;
void alloctag_counters_view(struct counters_view *v) INTERNAL;
int alloctag_counters_rebind(int fd, const char *path) INTERNAL;
void alloctag_counters_before_fork(void) INTERNAL;
void alloctag_counters_forked(void) INTERNAL;
void *alloctag_map(size_t size) INTERNAL;
void alloctag_unmap(void *p, size_t size) INTERNAL;

/* live.c */
void alloctag_live_start(void) INTERNAL;
void alloctag_live_after_fork(void) INTERNAL;
void alloctag_live_settle(void) INTERNAL;
void alloctag_live_keep(int (*write)(int fd, void *arg), void *arg) INTERNAL;
void alloctag_live_end(void) INTERNAL;

/* config.c */
enum report_destination {
	DEST_OFF, DEST_STDERR, DEST_STDOUT, DEST_FILE,
	DEST_KEEP,			/* only kept in the live directory (report.c) */
};
enum live_setting { LIVE_OFF, LIVE_ON, LIVE_KEEP };
#define CONFIG_NOTES	6		/* one for each setting that can be wrong */
#define CONFIG_NOTE_MAX	256
struct alloctag_config {
	enum report_destination destination;
	char path[4096];		/* DEST_FILE: absolute, %p/%e/%% unexpanded */
	int format;			/* enum report_format (format.h) */
	unsigned long top;		/* 0: every site */
	int signal;			/* 0: none */
	enum live_setting live;		/* make a live file (and keep it after exit) */
	int under_valgrind;		/* Valgrind's preload was there at start */
	int secure;			/* AT_SECURE: set-user-ID or set-group-ID, no files */
	/* What was wrong with the settings, for the report (unless said on stderr) */
	char notes[CONFIG_NOTES][CONFIG_NOTE_MAX];
	unsigned nnotes;
};
extern struct alloctag_config alloctag_config INTERNAL;
void alloctag_config_read(void) INTERNAL;
void alloctag_complain(const char *first, ...) INTERNAL __attribute__((sentinel));

/* report.c */
void alloctag_report_streams(void) INTERNAL;
void alloctag_report_start(void) INTERNAL;
void alloctag_report_at_exit(void) INTERNAL;
void alloctag_say(const char *text, size_t n) INTERNAL;

/* process.c */
void alloctag_key_init(void) INTERNAL;

/* heap.c */
void alloctag_heap_detect(void) INTERNAL;

#endif /* ALLOCTAG_INTERNAL_H */
