/* SPDX-License-Identifier: MIT */
/*
 * cache.h: a thread's cache of freed small blocks, the operations the fast
 * paths inline (cache.c has the rest, and the rules).
 *
 * The owner marks itself busy around every operation on its bins; a thief
 * (malloc_trim(), or another thread taking the cache of an idle one) sets
 * steal, makes every running thread pass a memory barrier (membarrier), and
 * takes the bins once the owner is not busy.  An owner that finds steal set
 * leaves its cache alone for that operation.  The owner's side costs two
 * stores and a load, and no fence: membarrier is the fence, on the thief's
 * side only.
 */
#ifndef ALLOCTAG_CACHE_H
#define ALLOCTAG_CACHE_H

#include "alloctag_internal.h"
#include "heap.h"

#define CACHE_MAX	((size_t)4 << 20)	/* one thread: a burst of frees (bench/RESULTS.md) */
#define RECLAIM_MISSES	4096u

/* A block that leaves the runtime: not one of its blocks any more. */
static inline void alloctag_give_back(void *p, size_t usable)
{
	*trailer_at(p, usable) = 0;
	heap_free(p);
}

/* Whether the owner may touch its bins now: then cache_leave() after. */
static inline int cache_enter(struct thread_state *t)
{
	debug_assert(t == &alloctag_boot_state || !load_relaxed(&t->busy));
	store_relaxed(&t->busy, 1);
	atomic_signal_fence(memory_order_seq_cst);	/* membarrier orders it for the CPU */
	if (likely(!load_acquire(&t->steal)))
		return 1;
	store_relaxed(&t->busy, 0);
	return 0;
}

static inline void cache_leave(struct thread_state *t)
{
	store_release(&t->busy, 0);
}

/* A block of class K, taken from the bins, or NULL.  Between enter and leave. */
static inline void *cache_take(struct thread_state *t, size_t k)
{
	void *p = t->bins[k];

	if (p) {
		debug_assert(field_class(chunk_field(p)) == k);
		debug_assert(trailer_was_cached(p, *trailer_at(p, heap_usable(class_chunk(k)))));
		t->bins[k] = *(void **)p;
		bump(&t->cache_bytes, -class_chunk(k));
	}
	return p;
}

/*
 * Keep block P of class K, whose trailer is WORD, if the cache has room
 * within what the thread reserved of the budget.  Between enter and leave.
 * Its trailer says it is cached: freeing it again is a double free.
 */
static inline int cache_keep(struct thread_state *t, void *p, size_t k, uint64_t word)
{
	size_t bytes = load_relaxed(&t->cache_bytes) + class_chunk(k);

	debug_assert(k >= MIN_CHUNK / CHUNK_ALIGN && k < SMALL_CLASSES && trailer_valid(p, word));
	if (unlikely(bytes > t->cache_limit))
		return 0;
	*(void **)p = t->bins[k];
	t->bins[k] = p;
	store_relaxed(&t->cache_bytes, bytes);
	*trailer_at(p, heap_usable(class_chunk(k))) = trailer_cached(word);
	return 1;
}

#endif /* ALLOCTAG_CACHE_H */
