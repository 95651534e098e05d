/* SPDX-License-Identifier: MIT */
/*
 * alloctag runtime: per-thread caches of freed small blocks, and what bounds
 * them.
 *
 * A malloc/free pair that finds a block in its thread's cache does not
 * enter glibc: that pays for the accounting (bench/RESULTS.md).  The memory
 * the caches hold is bounded and given back:
 *   - all caches together hold at most CACHE_BUDGET bytes of chunks, and
 *     one at most CACHE_MAX: a thread reserves its share of the budget
 *     RESERVE_STEP bytes at a time, as its cache grows; a free that finds
 *     no room (its thread at CACHE_MAX, or the budget taken) goes to glibc,
 *     one block, no flush;
 *   - a thread's cache and its reservation go back when the thread exits,
 *     and the reservation it does not use when it misses its cache;
 *   - malloc_trim() empties every thread's cache, then trims glibc's heap;
 *   - a cache unchanged for IDLE_NS is taken back by a thread that misses
 *     its own cache (every RECLAIM_MISSES misses it looks at the others).
 * Taking another thread's cache is cache.h's protocol; where membarrier(2)
 * is not available, only a thread's own cache is emptied.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <linux/membarrier.h>
#include <malloc.h>
#include <sched.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include "cache.h"
#include "heap.h"

#define CACHE_BUDGET	((size_t)32 << 20)	/* all threads together */
#define RESERVE_STEP	((size_t)64 << 10)
#define IDLE_NS		1000000000ll
#define STEAL_SPINS	1000		/* waiting for a busy owner: then yield */
#define STEAL_YIELDS	100		/* then give up */

static _Atomic size_t unreserved = CACHE_BUDGET;	/* of the budget */
static int can_steal;			/* membarrier registered */
static pthread_mutex_t reclaim_lock = PTHREAD_MUTEX_INITIALIZER;

/*
 * T's cache full: RESERVE_STEP more of the budget for it, if the budget and
 * CACHE_MAX allow.  1 if reserved.
 */
int alloctag_cache_reserve(struct thread_state *t)
{
	size_t left = load_relaxed(&unreserved);

	if (t == &alloctag_boot_state || t->cache_limit + RESERVE_STEP > CACHE_MAX)
		return 0;
	do {
		if (left < RESERVE_STEP)
			return 0;
	} while (!atomic_compare_exchange_weak_explicit(&unreserved, &left, left - RESERVE_STEP,
							memory_order_relaxed, memory_order_relaxed));
	t->cache_limit += RESERVE_STEP;
	debug_assert(t->cache_limit <= CACHE_MAX);
	return 1;
}

/* What T reserved beyond KEEP bytes, back to the budget. */
static void unreserve(struct thread_state *t, size_t keep)
{
	size_t extra;

	if (t->cache_limit <= keep)
		return;
	extra = (t->cache_limit - keep) / RESERVE_STEP * RESERVE_STEP;
	t->cache_limit -= extra;
	add_relaxed(&unreserved, extra);
}

/* The bins, taken: what cache_flush gives back. */
struct taken {
	void *bins[SMALL_CLASSES];
};

static void take_all(struct thread_state *t, struct taken *out)
{
	for (size_t k = 0; k < SMALL_CLASSES; k++) {
		out->bins[k] = t->bins[k];
		t->bins[k] = NULL;
	}
	store_relaxed(&t->cache_bytes, 0);
	unreserve(t, 0);
}

static void give_back_all(struct taken *taken)
{
	for (size_t k = 0; k < SMALL_CLASSES; k++) {
		void *p = taken->bins[k], *next;

		for (; p; p = next) {
			next = *(void **)p;
			alloctag_give_back(p, heap_usable(class_chunk(k)));
		}
	}
}

/* The owner empties its own cache (thread exit, malloc_trim). */
void alloctag_cache_flush(struct thread_state *t)
{
	struct taken taken;

	if (t == &alloctag_boot_state || !cache_enter(t))
		return;
	take_all(t, &taken);
	cache_leave(t);
	give_back_all(&taken);
}

static int membarrier(int cmd)
{
	return syscall(__NR_membarrier, cmd, 0, 0);
}

/*
 * Another thread's cache, taken and given back: 0, or -1 if its owner
 * stayed busy (preempted in the middle of an operation) too long.
 */
static int steal(struct thread_state *t)
{
	struct taken taken;
	int spins = 0, yields = 0;

	pthread_mutex_lock(&t->steal_lock);
	store_relaxed(&t->steal, 1);
	membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED);
	while (load_acquire(&t->busy)) {
		if (++spins < STEAL_SPINS)
			continue;
		if (++yields > STEAL_YIELDS) {
			store_release(&t->steal, 0);
			pthread_mutex_unlock(&t->steal_lock);
			return -1;
		}
		sched_yield();
	}
	take_all(t, &taken);
	store_release(&t->steal, 0);
	pthread_mutex_unlock(&t->steal_lock);
	give_back_all(&taken);
	return 0;
}

static int64_t coarse_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Whether T's cache has been full and unchanged for IDLE_NS, as of NOW. */
static int idle(struct thread_state *t, int64_t now)
{
	size_t bytes = load_relaxed(&t->cache_bytes);

	if (bytes != t->seen_bytes) {
		t->seen_bytes = bytes;
		t->seen_ns = now;
		return 0;
	}
	return bytes && now - (int64_t)t->seen_ns > IDLE_NS;
}

static void reclaim_idle(struct thread_state *self)
{
	int64_t now = coarse_ns();

	if (pthread_mutex_trylock(&reclaim_lock) != 0)
		return;
	for (struct thread_state *t = alloctag_first_state(); t; t = t->next)
		if (t != self && load_acquire(&t->in_use) && idle(t, now))
			steal(t);
	pthread_mutex_unlock(&reclaim_lock);
}

/*
 * T missed its cache: the budget it reserved and does not use goes back;
 * now and then, other threads' idle caches are taken back.
 */
void alloctag_cache_miss(struct thread_state *t)
{
	t->misses = 0;
	if (cache_enter(t)) {
		unreserve(t, load_relaxed(&t->cache_bytes) + RESERVE_STEP);
		cache_leave(t);
	}
	if (can_steal)
		reclaim_idle(t);
}

void alloctag_cache_trim_all(void)
{
	struct thread_state *self = alloctag_self;

	alloctag_cache_flush(self);
	if (!can_steal)
		return;
	for (struct thread_state *t = alloctag_first_state(); t; t = t->next)
		if (t != self && load_acquire(&t->in_use))
			steal(t);
}

void alloctag_cache_init(void)
{
	can_steal = membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED) == 0;
}

/*
 * In a child after fork, the other threads are gone and their caches may be
 * halfway through an operation: they are dropped (the blocks are leaked),
 * not walked.
 */
void alloctag_cache_after_fork(struct thread_state *self)
{
	for (struct thread_state *t = alloctag_first_state(); t; t = t->next) {
		if (t == self)
			continue;
		for (size_t k = 0; k < SMALL_CLASSES; k++)
			t->bins[k] = NULL;
		store_relaxed(&t->cache_bytes, 0);
		t->cache_limit = 0;
		store_relaxed(&t->busy, 0);
		store_relaxed(&t->steal, 0);
		pthread_mutex_init(&t->steal_lock, NULL);
	}
	pthread_mutex_init(&reclaim_lock, NULL);
	store_relaxed(&unreserved, CACHE_BUDGET - self->cache_limit);
	alloctag_cache_init();
}

/* malloc_trim(): the caches first, so that glibc can give their memory back. */
EXPORT int malloc_trim(size_t pad)
{
	static int (*glibc_trim)(size_t);

	alloctag_cache_trim_all();
	if (!glibc_trim)
		glibc_trim = (int (*)(size_t))dlsym(RTLD_NEXT, "malloc_trim");
	return glibc_trim ? glibc_trim(pad) : 0;
}

/*
 * T's cache has no block of class K: one glibc chunk of CARVE_BYTES split
 * into chunks of class K, as glibc's own split of its top chunk would lay
 * them out (each an in-use chunk with its size field, PREV_INUSE set, the
 * arena bit of the chunk they come from: glibc's free() and realloc() take
 * any of them, and coalesce them when they come back).  The first is
 * returned, the others cached (they count in the cache's budget).  A
 * build-then-free-all program (a DOM parse) then pays glibc's malloc once
 * per CARVE_BYTES, not once per block (bench/RESULTS.md).  NULL: no room in
 * the budget, or a foreign heap (Valgrind's blocks are not glibc chunks).
 */
#define CARVE_BYTES	((size_t)16 << 10)

/* Chunk Q of SIZE bytes, after an in-use chunk, in ARENA (its flag). */
static void carve_header(char *q, size_t size, size_t arena)
{
	((size_t *)q)[-1] = size | PREV_INUSE | arena;
}

void *alloctag_cache_carve(struct thread_state *t, size_t k)
{
	size_t c = class_chunk(k), m = CARVE_BYTES / c, field, chunk, arena, last;
	char *big, *q;

	if (alloctag_foreign_heap || t == &alloctag_boot_state || m < 2)
		return NULL;
	if (load_relaxed(&t->cache_bytes) + CARVE_BYTES > t->cache_limit &&
	    !alloctag_cache_reserve(t))
		return NULL;
	big = __libc_malloc(m * c - SIZE_SZ);
	if (!big)
		return NULL;
	field = chunk_field(big);
	chunk = field_chunk(field);
	if (field & IS_MMAPPED) {
		__libc_free(big);
		return NULL;
	}
	arena = field & NON_MAIN_ARENA;
	/* c, or c + 16 when glibc did not split off a remainder below MIN_CHUNK */
	last = chunk - (m - 1) * c;
	((size_t *)big)[-1] = c | (field & (PREV_INUSE | NON_MAIN_ARENA));
	for (size_t i = 1; i < m; i++)
		carve_header(big + i * c, i == m - 1 ? last : c, arena);
	if (!field_class(last)) {	/* a chunk past the classes: glibc's */
		__libc_free(big + (m - 1) * c);
		m--;
	}
	if (!cache_enter(t)) {		/* being taken: the chunks go to glibc */
		for (size_t i = 1; i < m; i++)
			__libc_free(big + i * c);
		return big;
	}
	for (size_t i = 1; i < m; i++) {
		size_t size = field_chunk(chunk_field(q = big + i * c)), kk = size >> CLASS_SHIFT;

		*(void **)q = t->bins[kk];
		t->bins[kk] = q;
		bump(&t->cache_bytes, size);
		/* a cached block's trailer: freeing it is a double free */
		*trailer_at(q, heap_usable(size)) = trailer_cached(trailer_make(q, NULL, 0));
	}
	cache_leave(t);
	return big;
}
