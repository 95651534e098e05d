/* SPDX-License-Identifier: MIT */
/*
 * segment.h: the memory small blocks live in, and how a pointer is known
 * to be one of them.
 *
 *   segment  SEGMENT_SIZE bytes, aligned to its size, mapped by the runtime
 *            (never unmapped: its slabs are decommitted instead); its first
 *            slab's room holds the segment's header, the slab descriptors
 *   slab     SLAB_SIZE bytes of a segment, given to one thread state at a
 *            time, holding blocks of one class:
 *              [ vector: one _Atomic uint32_t per block | block 0 | block 1 ...]
 *            ^ base (SLAB_SIZE-aligned)               ^ data
 *   vector   entry i says whether block i is in use and what it is charged
 *            to (block.h); 0: free.  It is never next to a block's bytes but
 *            block 0's, and no free list runs through it.
 *
 * Ownership is exact: a pointer is in a runtime segment iff its segment's
 * bit is set in alloctag_segmap (set before the segment's first block is
 * handed out, never cleared); which block it is, and whether that block is
 * in use, are the slab descriptor's and the vector's to say.  Nothing here
 * reads a byte a program or another allocator can write.
 *
 * Who writes a slab descriptor: the thread state that owns the slab, and
 * the pool (under pool_lock) while no state does.  Its class fields (data,
 * span, size, inv, owner, key) change only while the slab has no block in
 * use, so a free() of a block in use reads them without a lock or atomics;
 * only `remote` is written by other threads (slab.h).
 *
 * The pool: slabs no state owns, on two lists under pool_lock: committed
 * (their memory still mapped in, up to POOL_COMMITTED) and decommitted
 * (madvise(MADV_DONTNEED): no RSS, zero when next touched).
 */
#ifndef ALLOCTAG_SEGMENT_H
#define ALLOCTAG_SEGMENT_H

#include "base.h"

#define SEGMENT_SHIFT		22
#define SEGMENT_SIZE		((size_t)1 << SEGMENT_SHIFT)		/* 4 MiB */
#define SLAB_SHIFT		16
#define SLAB_SIZE		((size_t)1 << SLAB_SHIFT)		/* 64 KiB */
#define SLABS_PER_SEGMENT	(SEGMENT_SIZE / SLAB_SIZE)
#define ADDRESS_BITS		48		/* user space of x86_64 (47 bits) and arm64 (48-bit VA) */
#define SEGMAP_WORDS		(((size_t)1 << (ADDRESS_BITS - SEGMENT_SHIFT)) / 64)
#define POOL_COMMITTED		64		/* slabs the pool keeps mapped in: 4 MiB */

#define LIST_END		UINT32_MAX	/* the end of a free list of block indexes */

/*
 * One slab's descriptor: three cache lines, so that other threads' frees,
 * which read the first and write the third, do not take the second from
 * its owner, which writes it on every malloc and free.
 */
struct slab {
	/* class fields: set while no block is in use, read by every thread's free() */
	char *data;			/* block 0 */
	uint32_t span;			/* capacity * size; 0: no class (pool, header) */
	uint32_t size;			/* bytes of a block */
	uint32_t inv;			/* 2^32 / size rounded up: index = offset * inv >> 32 */
	uint32_t owner;			/* the owning thread state's number */
	uint32_t key;			/* free-list links are stored xor this */
	uint32_t capacity;
	/* the owner's */
	_Alignas(64) uint32_t free;	/* the local free list's first block, or LIST_END */
	uint32_t used;			/* blocks in use or on the remote list */
	uint32_t reserved;		/* blocks 0..reserved-1 were handed out or listed */
	uint16_t cls;			/* its class (block.h) */
	uint16_t dirty;			/* its memory may hold bytes other than zero */
	struct slab *next, *prev;	/* in its owner's queue, or a pool list */
	/* other threads' frees (heap.h) */
	_Alignas(64) _Atomic uint32_t remote;	/* first block + 1 of the remote list; 0: empty */
};

struct segment {
	struct slab slabs[SLABS_PER_SEGMENT];	/* slabs[0] is this header's room */
	struct segment *next;			/* every segment, newest first */
};

_Static_assert(sizeof(struct slab) == 192, "a slab descriptor is three cache lines");
_Static_assert(sizeof(struct segment) <= SLAB_SIZE, "the header fits in the first slab's room");

extern _Atomic uint64_t alloctag_segmap[SEGMAP_WORDS] INTERNAL;

/* Whether address A is in a segment of the runtime's. */
static inline int segment_mine(uintptr_t a)
{
	uintptr_t s = a >> SEGMENT_SHIFT;

	if (unlikely(s >= ((uintptr_t)1 << (ADDRESS_BITS - SEGMENT_SHIFT))))
		return 0;
	return (load_relaxed(&alloctag_segmap[s / 64]) >> (s % 64)) & 1;
}

/* The descriptor of the slab address A (in a runtime segment) is in. */
static inline struct slab *slab_of(uintptr_t a)
{
	struct segment *seg = (struct segment *)(a & ~(SEGMENT_SIZE - 1));

	return &seg->slabs[(a >> SLAB_SHIFT) % SLABS_PER_SEGMENT];
}

/* The slab's own memory: its vector first. */
static inline char *slab_base(const struct slab *s)
{
	uintptr_t seg = (uintptr_t)s & ~(SEGMENT_SIZE - 1);

	return (char *)seg + (size_t)(s - ((const struct segment *)seg)->slabs) * SLAB_SIZE;
}

/* A slab no state owns, for OWNER: from the pool, or a new segment's.  NULL: no memory. */
struct slab *alloctag_slab_acquire(uint32_t owner) INTERNAL;
/* A slab with no block in use, back to the pool (decommitted if the pool holds enough). */
void alloctag_slab_release(struct slab *s) INTERNAL;
/* The pool's committed slabs decommitted (malloc_trim): whether any were. */
int alloctag_pool_trim(void) INTERNAL;
/* Every segment, newest first (for statistics: racy reads). */
struct segment *alloctag_segments(void) INTERNAL;

/* fork(): the pool's lock held across it. */
void alloctag_pool_lock(void) INTERNAL;
void alloctag_pool_unlock(void) INTERNAL;
void alloctag_pool_after_fork_child(void) INTERNAL;

#endif /* ALLOCTAG_SEGMENT_H */
