/* SPDX-License-Identifier: MIT */
/*
 * large.h: blocks the next allocator made for the runtime (large, aligned,
 * or every block when the runtime does not own the heap: next.h), known
 * exactly by address: a table kept out of band, in the runtime's own
 * mappings, never a byte next to a block.  A pointer is one of these iff
 * it is a key of the table; a block's entry is removed before the block
 * goes back to the next allocator, and added after it came from it, so
 * the next allocator may hand the same address out again at any moment.
 *
 * The table is split in SHARDS by address, each open addressing (linear
 * probing, backward-shift deletion) under its own spin lock, grown by
 * doubling in memory of its own (mmap).
 */
#ifndef ALLOCTAG_LARGE_H
#define ALLOCTAG_LARGE_H

#include "base.h"

struct large_block {
	uintptr_t p;			/* the block; 0: an empty table entry */
	size_t size;			/* bytes asked for */
	uint32_t ref;			/* the slot charged (block.h's slot ref); 0: none */
	uint32_t reserved;
};

/* Block P of SIZE bytes charged to REF, known from now on: 0, or -1 when out of memory. */
int alloctag_large_add(void *p, size_t size, uint32_t ref) INTERNAL;

/* P's entry taken out into *OUT: 1, or 0 when P is not a block of the table. */
int alloctag_large_take(const void *p, struct large_block *out) INTERNAL;

/* P's entry copied to *OUT: 1, or 0 when P is not a block of the table. */
int alloctag_large_find(const void *p, struct large_block *out) INTERNAL;

/* fork(): every shard's lock held across it (after the pool's: segment.c's order). */
void alloctag_large_lock_all(void) INTERNAL;
void alloctag_large_unlock_all(void) INTERNAL;
void alloctag_large_after_fork_child(void) INTERNAL;

#endif /* ALLOCTAG_LARGE_H */
