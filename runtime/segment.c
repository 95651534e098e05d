/* SPDX-License-Identifier: MIT */
/*
 * alloctag runtime: segments and the pool of slabs no thread state owns
 * (segment.h).  Off the fast paths: a thread comes here once per slab.
 *
 * Lock order (fork takes them all in it): registry, pool, large shards.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sys/mman.h>
#include "segment.h"

_Atomic uint64_t alloctag_segmap[SEGMAP_WORDS];

static spinlock_t pool_lock = SPINLOCK_INIT;
static struct slab *committed, *decommitted;	/* the pool's lists, through next */
static size_t ncommitted;
static _Atomic(struct segment *) all_segments;
static uintptr_t next_hint;			/* where the last segment ended */

/* SIZE bytes at HINT if they are free there, else where the kernel puts
 * them: the mapping, or NULL. */
static char *map_at(uintptr_t hint, size_t size)
{
	char *p = mmap((void *)hint, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
		       -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

static int segment_aligned(const char *p)
{
	return p && (uintptr_t)p % SEGMENT_SIZE == 0;
}

/* SEGMENT_SIZE bytes aligned to their size, cut out of twice as many. */
static struct segment *map_cut(void)
{
	char *p = map_at(0, 2 * SEGMENT_SIZE), *aligned;

	if (!p)
		return NULL;
	aligned = (char *)(((uintptr_t)p + SEGMENT_SIZE - 1) & ~(SEGMENT_SIZE - 1));
	if (aligned > p)
		munmap(p, aligned - p);
	munmap(aligned + SEGMENT_SIZE, p + SEGMENT_SIZE - aligned);
	return (struct segment *)aligned;
}

/* SEGMENT_SIZE bytes aligned to their size: where the last segment ended;
 * else at the aligned place below where the kernel put them (free, as a
 * rule: mappings grow down; the kernel aligns large ones to 2 MiB, half of
 * them to 4); else cut out of twice as many.  Twice as many only as a last
 * resort: under RLIMIT_AS (ulimit -v) a process that has room for one
 * segment may not have it for two (coreutils's printf-surprise test: its
 * small xmalloc failed where glibc's succeeds). */
static struct segment *map_segment(void)
{
	char *p = map_at(next_hint, SEGMENT_SIZE);
	uintptr_t below;

	if (segment_aligned(p))
		return (struct segment *)p;
	if (p) {
		below = (uintptr_t)p & ~(SEGMENT_SIZE - 1);
		munmap(p, SEGMENT_SIZE);
		p = map_at(below, SEGMENT_SIZE);
		if (segment_aligned(p))
			return (struct segment *)p;
		if (p)
			munmap(p, SEGMENT_SIZE);
	}
	return map_cut();
}

/* A new segment's slabs into the decommitted list (fresh memory is zero).  Under pool_lock. */
static int grow(void)
{
	struct segment *seg = map_segment();
	uintptr_t index;

	if (!seg)
		return -1;
	if ((uintptr_t)seg >> ADDRESS_BITS) {		/* above the map: never */
		munmap(seg, SEGMENT_SIZE);
		return -1;
	}
	next_hint = (uintptr_t)seg + SEGMENT_SIZE;
	for (size_t i = SLABS_PER_SEGMENT - 1; i >= 1; i--) {
		seg->slabs[i].next = decommitted;
		decommitted = &seg->slabs[i];
	}
	seg->next = load_relaxed(&all_segments);
	store_release(&all_segments, seg);
	index = (uintptr_t)seg >> SEGMENT_SHIFT;
	atomic_fetch_or_explicit(&alloctag_segmap[index / 64], (uint64_t)1 << (index % 64),
				 memory_order_release);
	return 0;
}

struct slab *alloctag_slab_acquire(uint32_t owner)
{
	int saved_errno = errno;
	struct slab *s;

	spin_lock(&pool_lock);
	if (!committed && !decommitted)
		grow();
	if ((s = committed)) {
		committed = s->next;
		ncommitted--;
	} else if ((s = decommitted)) {
		decommitted = s->next;
		s->dirty = 0;
	}
	spin_unlock(&pool_lock);
	errno = saved_errno;
	if (s) {
		s->owner = owner;
		s->next = s->prev = NULL;
	}
	return s;
}

static void decommit(struct slab *s)
{
	int saved_errno = errno;

	madvise(slab_base(s), SLAB_SIZE, MADV_DONTNEED);
	errno = saved_errno;
	s->dirty = 0;
}

void alloctag_slab_release(struct slab *s)
{
	debug_assert(s->used == 0);
	s->span = 0;		/* a free() into it now is an invalid pointer */
	s->owner = 0;
	spin_lock(&pool_lock);
	if (s->dirty && ncommitted < POOL_COMMITTED) {
		s->next = committed;
		committed = s;
		ncommitted++;
		spin_unlock(&pool_lock);
		return;
	}
	spin_unlock(&pool_lock);
	if (s->dirty)
		decommit(s);
	spin_lock(&pool_lock);
	s->next = decommitted;
	decommitted = s;
	spin_unlock(&pool_lock);
}

int alloctag_pool_trim(void)
{
	struct slab *list, *next;
	int any;

	spin_lock(&pool_lock);
	list = committed;
	committed = NULL;
	ncommitted = 0;
	spin_unlock(&pool_lock);
	any = list != NULL;
	for (; list; list = next) {
		next = list->next;
		decommit(list);
		spin_lock(&pool_lock);
		list->next = decommitted;
		decommitted = list;
		spin_unlock(&pool_lock);
	}
	return any;
}

struct segment *alloctag_segments(void)
{
	return load_acquire(&all_segments);
}

void alloctag_pool_lock(void)
{
	spin_lock(&pool_lock);
}

void alloctag_pool_unlock(void)
{
	spin_unlock(&pool_lock);
}

void alloctag_pool_after_fork_child(void)
{
	spin_reset(&pool_lock);
}
