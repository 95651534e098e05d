/* SPDX-License-Identifier: MIT */
/*
 * registry.h: call sites and thread states (registry.c): which slot an
 * allocation of this thread from a tag's site is charged to.
 */
#ifndef ALLOCTAG_REGISTRY_H
#define ALLOCTAG_REGISTRY_H

#include "alloctag.h"
#include "state.h"

/* A slot to charge, and its ref for a vector entry (block.h). */
struct charge_to {
	struct counters_slot *slot;
	uint32_t ref;
};

extern struct alloc_tag alloctag_untagged INTERNAL;

/*
 * The slot to charge for an allocation of this thread from TAG's site when
 * the thread has none of its own yet (its first allocation, or its first
 * from this site), made or found; out of memory, a slot no report reads.
 * {NULL, 0} only when the counters themselves cannot be made.
 */
struct charge_to alloctag_charge_slow(struct alloc_tag *tag) INTERNAL;

/*
 * Called, when set, at the start of every registry slow path (a call site
 * or a thread new to it): a fork child's live file is made there, lazily
 * (live.c sets and clears it).
 */
extern void (*_Atomic alloctag_registry_hook)(void) INTERNAL;

/* fork(): the registry's lock held across it (first in segment.c's order). */
void alloctag_registry_lock(void) INTERNAL;
void alloctag_registry_unlock(void) INTERNAL;
void alloctag_registry_after_fork(void) INTERNAL;

#endif /* ALLOCTAG_REGISTRY_H */
