/* SPDX-License-Identifier: MIT */
/*
 * block.h: what a small block is: its class, and the vector entry that
 * says what it is charged to.
 *
 * A malloc(n) of 1 to SMALL_MAX bytes takes a block of class
 * cls = ceil(n / 16), CLASS_SIZE(cls) = cls * 16 bytes, in a slab of that
 * class (segment.h).  Its vector entry, while it is in use:
 *
 *   entry = slot_ref << DELTA_BITS | delta       never 0 (slot_ref >= 1)
 *     slot_ref  the struct counters_slot charged, as its offset in the
 *               counters / 64 (counters.h: slots are 64 bytes, 64-aligned)
 *     delta     CLASS_SIZE(cls) - n: the bytes asked for are exact (0 to
 *               16: malloc(0) takes a block of class 1)
 *
 * and 0 while it is free: freeing a block whose entry is 0 is a double
 * free, always caught.  Blocks above SMALL_MAX, or aligned beyond 16, are
 * the next allocator's, known by the large table (large.h).
 */
#ifndef ALLOCTAG_BLOCK_H
#define ALLOCTAG_BLOCK_H

#include "segment.h"

#define SMALL_MAX		1024u
#define CLASS_SHIFT		4
#define CLASS_GRAIN		(1u << CLASS_SHIFT)		/* 16: malloc's alignment */
#define CLASSES			(SMALL_MAX / CLASS_GRAIN + 1)	/* 1..64; 0 is unused */
#define DELTA_BITS		(CLASS_SHIFT + 1)		/* delta <= 16: malloc(0) is class 1 */
#define DELTA_MASK		((1u << DELTA_BITS) - 1)
#define SLOT_REF_SHIFT		6				/* slots are 64 bytes */
#define SLOT_REF_MAX		(UINT32_MAX >> DELTA_BITS)

/* The class of a request of N bytes, 1 <= N <= SMALL_MAX. */
static inline uint32_t small_class(size_t n)
{
	return (uint32_t)((n + CLASS_GRAIN - 1) >> CLASS_SHIFT);
}

static inline uint32_t class_size(uint32_t cls)
{
	return cls << CLASS_SHIFT;
}

static inline uint32_t entry_make(uint32_t slot_ref, uint32_t delta)
{
	return slot_ref << DELTA_BITS | delta;
}

static inline uint32_t entry_slot_ref(uint32_t e)
{
	return e >> DELTA_BITS;
}

/* The bytes asked for, of a block of SIZE bytes whose entry is E. */
static inline uint32_t entry_bytes(uint32_t e, uint32_t size)
{
	return size - (e & DELTA_MASK);
}

/* A slab's vector (segment.h): at the start of its memory. */
static inline _Atomic uint32_t *slab_vector(const struct slab *s)
{
	return (_Atomic uint32_t *)((uintptr_t)s->data & ~(SLAB_SIZE - 1));
}

static inline char *slab_block(const struct slab *s, uint32_t i)
{
	return s->data + (size_t)i * s->size;
}

/*
 * The index of the block at address A in slab S, or UINT32_MAX when A is
 * not the start of one of its blocks (into a block, past the last, a slab
 * with no class): what free() of a pointer into a runtime segment checks.
 */
static inline uint32_t slab_index(const struct slab *s, uintptr_t a)
{
	uintptr_t off = a - (uintptr_t)s->data;
	uint32_t i;

	if (unlikely(off >= s->span))
		return UINT32_MAX;
	i = (uint32_t)((off * (uint64_t)s->inv) >> 32);
	return likely((uintptr_t)i * s->size == off) ? i : UINT32_MAX;
}

/* Free-list links: the next block's index, stored in the block xor the slab's key. */
static inline uint32_t link_read(const struct slab *s, const void *b)
{
	return *(const uint32_t *)b ^ s->key;
}

static inline void link_write(const struct slab *s, void *b, uint32_t next)
{
	*(uint32_t *)b = next ^ s->key;
}

/* Whether NEXT, read from a free block of S, can be the next free block (or the end). */
static inline int link_valid(const struct slab *s, uint32_t next)
{
	return next + 1 <= s->reserved;		/* LIST_END + 1 wraps to 0 */
}

#endif /* ALLOCTAG_BLOCK_H */
