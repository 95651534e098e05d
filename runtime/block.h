/* SPDX-License-Identifier: MIT */
/*
 * block.h: what a block of the runtime is.  A block is a glibc chunk, handed
 * to the caller at glibc's own pointer, so glibc's free() and realloc() take
 * it as any other; the last eight usable bytes of the chunk (the trailer)
 * say which slot the block was charged to and how many bytes were asked for.
 * The runtime's free() recognizes its own blocks by the trailer's check and
 * gives any other pointer to glibc, which applies its own checks.
 *
 *   chunk:   [prev_size][size|flags][ the caller's n bytes | slack |trailer]
 *                                   ^ p
 *   usable:  the chunk's size - 8 in a heap (the next chunk's prev_size is
 *            part of it), - 16 when mmapped (what malloc_usable_size says)
 *   trailer: slot | delta | check << 48, at p + usable - 8
 *     slot   the struct counters_slot charged (64-byte aligned, below 2^47)
 *     delta  usable - 8 - n when below DELTA_FAR (always, in a heap: glibc
 *            rounds requests to 16 bytes and splits off remainders of
 *            MIN_CHUNK or more); DELTA_FAR: n is in the 8 bytes before
 *     check  16 bits of a keyed hash of p, slot and delta: a pointer glibc
 *            made, a pointer into a block, or a trailer overwritten by the
 *            caller does not pass it but once in 32768
 *   A freed block kept in a thread's cache has its trailer with CACHED_BIT
 *   flipped (a bit no slot address has) and, at p, the next cached block:
 *   freeing it again is a double free, which no other block's trailer
 *   looks like but once in 32768.
 *
 * A block asks glibc for n + TRAILER bytes: as glibc rounds requests up to
 * 16, the trailer costs nothing in 8 requests of 16 and 16 bytes in the rest.
 * Everything here that knows glibc's chunk layout is in this file.
 */
#ifndef ALLOCTAG_BLOCK_H
#define ALLOCTAG_BLOCK_H

#include <stddef.h>
#include <stdint.h>

/* glibc's chunks (malloc/malloc.c) on 64-bit targets. */
#define SIZE_SZ			sizeof(size_t)
#define PREV_INUSE		((size_t)1)
#define IS_MMAPPED		((size_t)2)
#define NON_MAIN_ARENA		((size_t)4)
#define CHUNK_FLAGS		(PREV_INUSE | IS_MMAPPED | NON_MAIN_ARENA)
#define CHUNK_ALIGN		16u
#define MIN_CHUNK		32u

_Static_assert(sizeof(size_t) == 8, "the trailer and glibc's chunk layout are for 64-bit targets");

#define TRAILER			sizeof(uint64_t)
#define DELTA_BITS		6
#define DELTA_FAR		((1u << DELTA_BITS) - 1)
#define PAYLOAD_BITS		48
#define PAYLOAD_MASK		(((uint64_t)1 << PAYLOAD_BITS) - 1)
#define SLOT_MASK		(PAYLOAD_MASK & ~(uint64_t)DELTA_FAR)
#define CACHED_BIT		((uint64_t)1 << (PAYLOAD_BITS - 1))

/*
 * Small blocks are cached by the size of their chunk: class k is a chunk of
 * k * CHUNK_ALIGN bytes, which holds up to k * 16 - 16 bytes and the
 * trailer.  A malloc(n) of up to SMALL_MAX bytes takes class small_class(n),
 * the chunk glibc would give for n + TRAILER.
 */
#define SMALL_MAX		1024u
#define CLASS_SHIFT		4
#define SMALL_CLASSES		((SMALL_MAX + TRAILER + SIZE_SZ + CHUNK_ALIGN - 1) / CHUNK_ALIGN + 1)
#define SMALL_CHUNK_MAX		((SMALL_CLASSES - 1) * CHUNK_ALIGN)

static inline size_t small_class(size_t n)
{
	size_t k = (n + TRAILER + SIZE_SZ + CHUNK_ALIGN - 1) >> CLASS_SHIFT;

	return k < MIN_CHUNK / CHUNK_ALIGN ? MIN_CHUNK / CHUNK_ALIGN : k;
}

static inline size_t class_chunk(size_t k)
{
	return k << CLASS_SHIFT;
}

/* What to ask glibc for to get a chunk of exactly class K. */
static inline size_t class_request(size_t k)
{
	return class_chunk(k) - SIZE_SZ;
}

/* A heap chunk's usable bytes, from its size. */
static inline size_t heap_usable(size_t chunk)
{
	return chunk - SIZE_SZ;
}

/* The size field glibc keeps just before the caller's pointer. */
static inline size_t chunk_field(const void *p)
{
	return ((const size_t *)p)[-1];
}

static inline size_t field_chunk(size_t field)
{
	return field & ~CHUNK_FLAGS;
}

static inline size_t field_usable(size_t field)
{
	return field_chunk(field) - (field & IS_MMAPPED ? 2 * SIZE_SZ : SIZE_SZ);
}

/*
 * The class of a chunk that may be cached, from its size field, or 0: a
 * heap chunk of MIN_CHUNK to SMALL_CHUNK_MAX bytes.  A size field that is
 * not one (another block's bytes, in a bad pointer) is never read past.
 */
static inline size_t field_class(size_t field)
{
	size_t k = field >> CLASS_SHIFT;

	if ((field & (IS_MMAPPED | SIZE_SZ)) || k - MIN_CHUNK / CHUNK_ALIGN > SMALL_CLASSES - 1 - MIN_CHUNK / CHUNK_ALIGN)
		return 0;
	return k;
}

/*
 * Whether P's size field can be that of a chunk in use: what glibc's free()
 * checks before it reads any other part of the chunk.
 */
static inline int field_plausible(const void *p, size_t field)
{
	size_t chunk = field_chunk(field);

	return (uintptr_t)p % CHUNK_ALIGN == 0 && chunk >= MIN_CHUNK &&
	       chunk % CHUNK_ALIGN == 0 && (uintptr_t)p - 2 * SIZE_SZ <= (uintptr_t)-chunk;
}

static inline uint64_t *trailer_at(void *p, size_t usable)
{
	return (uint64_t *)((char *)p + usable - TRAILER);
}

/* Random and odd, made once per process (process.c). */
extern uint64_t alloctag_trailer_key __attribute__((visibility("hidden")));

/*
 * 16 bits of a keyed hash of the block's address and the payload; never 0,
 * so that a trailer of zeros is never valid.
 */
static inline uint64_t trailer_check(const void *p, uint64_t payload)
{
	return (((uintptr_t)p ^ payload) * alloctag_trailer_key) >> PAYLOAD_BITS | 1;
}

static inline uint64_t trailer_make(const void *p, const void *slot, size_t delta)
{
	uint64_t payload = (uintptr_t)slot | delta;

	return payload | trailer_check(p, payload) << PAYLOAD_BITS;
}

/* A trailer the runtime wrote for P, for a block in use. */
static inline int trailer_valid(const void *p, uint64_t word)
{
	return word >> PAYLOAD_BITS == trailer_check(p, word & PAYLOAD_MASK);
}

/* The trailer of a block in a cache, from the one it had in use. */
static inline uint64_t trailer_cached(uint64_t word)
{
	return word ^ CACHED_BIT;
}

/* A trailer that was valid when its block went into a cache. */
static inline int trailer_was_cached(const void *p, uint64_t word)
{
	return trailer_valid(p, word ^ CACHED_BIT);
}

static inline void *trailer_slot(uint64_t word)
{
	return (void *)(uintptr_t)(word & SLOT_MASK);
}

/* The bytes asked for, of a block whose trailer WORD is at T, USABLE bytes in. */
static inline size_t trailer_size(const uint64_t *t, uint64_t word, size_t usable)
{
	size_t delta = word & DELTA_FAR;

	return delta == DELTA_FAR ? t[-1] : usable - TRAILER - delta;
}

/* The trailer of a block of N bytes in a chunk of USABLE bytes, written. */
static inline void trailer_write(void *p, size_t usable, const void *slot, size_t n)
{
	uint64_t *t = trailer_at(p, usable);
	size_t delta = usable - TRAILER - n;

	debug_assert(usable >= n + TRAILER);
	if (delta >= DELTA_FAR) {
		t[-1] = n;
		delta = DELTA_FAR;
	}
	*t = trailer_make(p, slot, delta);
}

/*
 * The same for a chunk of class K, whose slack is below DELTA_FAR: the
 * fast paths' (a class holds k * 16 - 16 bytes, N is at least k * 16 - 31).
 */
static inline void trailer_write_small(void *p, size_t k, const void *slot, size_t n)
{
	size_t usable = heap_usable(class_chunk(k));

	debug_assert(usable >= n + TRAILER && usable - TRAILER - n < DELTA_FAR);
	*trailer_at(p, usable) = trailer_make(p, slot, usable - TRAILER - n);
}

/*
 * The same for a heap chunk glibc gave for a class request: at most one
 * alignment step larger than the class, its slack below DELTA_FAR.
 */
static inline void trailer_write_heap(void *p, size_t field, const void *slot, size_t n)
{
	size_t usable = heap_usable(field_chunk(field));

	debug_assert(!(field & IS_MMAPPED) && usable - TRAILER - n < DELTA_FAR);
	*trailer_at(p, usable) = trailer_make(p, slot, usable - TRAILER - n);
}

/* What a caller may use of a block: all but the trailer (and the size before it). */
static inline size_t trailer_capacity(uint64_t word, size_t usable)
{
	return usable - TRAILER - ((word & DELTA_FAR) == DELTA_FAR ? sizeof(size_t) : 0);
}

#endif /* ALLOCTAG_BLOCK_H */
