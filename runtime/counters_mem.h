/* SPDX-License-Identifier: MIT */
/*
 * counters_mem.h: the memory the counters (counters.h) live in, counters.c's:
 * made at the first allocation, moved into a live file and back, copied
 * across fork.  Below the registry, which hands out its chunks; above
 * base.h only.
 */
#ifndef ALLOCTAG_COUNTERS_MEM_H
#define ALLOCTAG_COUNTERS_MEM_H

#include "base.h"
#include "counters.h"

struct counters_header *alloctag_counters(void) INTERNAL;
struct counters_header *alloctag_counters_begin(void) INTERNAL;
uint64_t alloctag_counters_chunk(enum chunk_kind kind, uint32_t size, uint32_t thread) INTERNAL;
void *alloctag_counters_at(uint64_t offset) INTERNAL;
struct counters_view;
void alloctag_counters_view(struct counters_view *v) INTERNAL;
int alloctag_counters_rebind(int fd, const char *path) INTERNAL;
void alloctag_counters_before_fork(void) INTERNAL;
void alloctag_counters_forked(void) INTERNAL;
void *alloctag_map(size_t size) INTERNAL;
void alloctag_unmap(void *p, size_t size) INTERNAL;

/* Extent I's memory (NULL past the last): where offset O is, extent O / EXTENT_SIZE. */
extern char *alloctag_extents[COUNTERS_MAX_EXTENTS] INTERNAL;

#endif /* ALLOCTAG_COUNTERS_MEM_H */
