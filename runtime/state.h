/* SPDX-License-Identifier: MIT */
/*
 * state.h: a thread's state: its slots (what it charges, by site) and its
 * heap (the slabs it allocates from, by class).
 *
 *   tag (the plugin's, static) --counters->id--> site id
 *   slots[site id]  --> this thread's struct counters_slot for the site, as
 *                       its ref (what vector entries hold), or how often
 *                       the thread allocated there so far
 *   current[cls]    --> the slab this thread's malloc takes blocks of class
 *                       cls from (alloctag_no_slab: none yet)
 *   queue[cls]      --> its other slabs of the class, a ring (heap.c)
 *
 * A state is owned by one thread at a time (in_use): the thread it was made
 * for, a later thread that adopted it when that one exited, or briefly a
 * thread collecting an exited thread's slabs.  Its owner alone reads and
 * writes all of it but in_use and next.  A state is never freed: blocks
 * point to its slots and slabs, and slots outlive threads.  Its number is
 * unique and never 0, and no slot's thread is 0: the boot state (a thread
 * that has not allocated yet, or is exiting) is number 0 and owns nothing.
 */
#ifndef ALLOCTAG_STATE_H
#define ALLOCTAG_STATE_H

#include "block.h"
#include "counters_mem.h"

#define HOT_ALLOCATIONS	16		/* before a thread gets a slot of its own */
#define SHARED_THREAD	UINT32_MAX	/* the thread of a site's shared slot */


enum state_use {
	STATE_FREE = 0,			/* its thread exited: to be adopted or collected */
	STATE_OWNED = 1,		/* a live thread's */
	STATE_COLLECTING = 2,		/* a thread is taking back its empty slabs */
	STATE_ORPHANED = 3,		/* a fork child's copy of another thread's: never touched */
};

struct thread_state {
	/* the fast paths' */
	uint32_t *slots;		/* by site id: its own slot's ref (block.h), or a
					   count <= HOT_ALLOCATIONS (refs are above) */
	uint32_t cap;			/* entries in slots */
	uint32_t number;		/* 1, 2, ...: in the slots and slabs it owns */
	struct slab *current[CLASSES];
	/* the slow paths' */
	struct slab *queue[CLASSES];
	uint64_t slot_chunk;		/* offset of the chunk new slots come from */
	uint32_t rng;			/* slab keys */
	_Atomic int in_use;		/* enum state_use */
	struct thread_state *next;	/* every state ever made */
};

extern struct slab alloctag_no_slab INTERNAL;
/* Every state ever made, newest first (registry.c makes them). */
extern _Atomic(struct thread_state *) alloctag_states INTERNAL;
extern struct thread_state alloctag_boot_state INTERNAL;
extern __thread struct thread_state *alloctag_self TLS_IE INTERNAL;

/* The ref of the thread's own slot in a table entry, or 0 while it counts. */
static inline uint32_t own_ref(uint32_t entry)
{
	return entry > HOT_ALLOCATIONS ? entry : 0;
}

/* The slot a ref (block.h) names. */
static inline struct counters_slot *slot_at(uint32_t ref)
{
	uint64_t off = (uint64_t)ref << SLOT_REF_SHIFT;

	return (struct counters_slot *)(alloctag_extents[off / EXTENT_SIZE] + off % EXTENT_SIZE);
}

#endif /* ALLOCTAG_STATE_H */
