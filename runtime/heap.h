/* SPDX-License-Identifier: MIT */
/*
 * heap.h: a thread's heap of slabs (state.h's current and queue), the slow
 * paths under malloc's and free()'s fast paths.
 *
 * Single writer: a slab's free list, used and reserved are written by the
 * state that owns it only (the owning thread; nothing else may run in it).
 * Another thread's free() of one of its blocks clears the block's vector
 * entry (a second free of it is caught) and pushes the block on the slab's
 * remote list (a CAS); the owner takes the whole remote list
 * (an exchange) when it runs out of blocks, and checks every block it takes:
 * a link that is not a block of the slab, or a block whose entry is not 0,
 * is a corrupted list (a write to a freed block), never followed.
 *
 * Memory is bounded: a slab whose blocks are all free goes back to the
 * pool (segment.h), but for the slab a class allocates from, which stays
 * (so that a malloc/free pair in a loop does not take and give a slab each
 * time) and gives its memory back if it touched more than KEEP_EMPTY; a thread that exits gives
 * back every empty slab, and its state keeps the others for the next
 * thread; the slabs of exited threads' states that emptied since are taken
 * back by other threads now and then (COLLECT_NS), and by malloc_trim().
 */
#ifndef ALLOCTAG_HEAP_H
#define ALLOCTAG_HEAP_H

#include "state.h"

/*
 * T's slab of class CLS with a free block, made current: the current one
 * (its remote frees taken, or more of its blocks listed), another of T's, or
 * a new one.  NULL: no memory.
 */
struct slab *alloctag_heap_refill(struct thread_state *t, uint32_t cls) INTERNAL;

/* N bytes of the next allocator's blocks freed (a fresh slab may have it give them back). */
void alloctag_heap_next_freed(size_t n) INTERNAL;

/* S, one of T's, got its first free block (its list was empty). */
void alloctag_heap_first_free(struct thread_state *t, struct slab *s) INTERNAL;

/* S, one of T's, has no block in use any more. */
void alloctag_heap_emptied(struct thread_state *t, struct slab *s) INTERNAL;

/* Block I at P of S, which another state owns, freed: its entry was cleared. */
void alloctag_heap_remote_push(struct slab *s, uint32_t i, void *p) INTERNAL;

/* T's thread exits: its empty slabs back to the pool, the others stay in T. */
void alloctag_heap_exit(struct thread_state *t) INTERNAL;

/* malloc_trim(): T's empty slabs and exited threads', then the pool's memory: whether any. */
int alloctag_heap_trim(struct thread_state *t) INTERNAL;

/* Bytes in blocks in use and in free blocks, over every slab (racy: for statistics). */
void alloctag_heap_usage(size_t *in_use, size_t *free_bytes) INTERNAL;

/* A new state's heap: no slab yet. */
void alloctag_heap_init(struct thread_state *t) INTERNAL;

#endif /* ALLOCTAG_HEAP_H */
