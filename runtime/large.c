/* SPDX-License-Identifier: MIT */
/*
 * alloctag runtime: the table of the next allocator's blocks (large.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sys/mman.h>
#include "large.h"

#define SHARD_BITS	4
#define SHARDS		(1u << SHARD_BITS)
#define FIRST_CAP	128u			/* entries of a shard's first table: 3 KiB, a page */

struct shard {
	spinlock_t lock;
	uint32_t cap_bits;		/* the table holds 1 << cap_bits entries; 0: none yet */
	size_t used;
	struct large_block *entries;
} __attribute__((aligned(64)));

static struct shard shards[SHARDS];

static uint64_t hash(uintptr_t p)
{
	return (uint64_t)(p >> 4) * 0x9e3779b97f4a7c15ull;
}

static struct shard *shard_of(uintptr_t p)
{
	return &shards[hash(p) >> (64 - SHARD_BITS)];
}

static size_t home(const struct shard *sh, uintptr_t p)
{
	return (size_t)(hash(p) >> (64 - SHARD_BITS - sh->cap_bits)) & (((size_t)1 << sh->cap_bits) - 1);
}

static struct large_block *map_entries(size_t n)
{
	int saved_errno = errno;
	void *m = mmap(NULL, n * sizeof(struct large_block), PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	errno = saved_errno;
	return m == MAP_FAILED ? NULL : m;
}

/* The entry of P in SH, or the empty one where it would go. */
static struct large_block *slot(const struct shard *sh, uintptr_t p)
{
	size_t mask = ((size_t)1 << sh->cap_bits) - 1;

	for (size_t i = home(sh, p);; i = (i + 1) & mask)
		if (sh->entries[i].p == p || sh->entries[i].p == 0)
			return &sh->entries[i];
}

/* SH's table doubled (or made): 0, or -1 when out of memory.  Under its lock. */
static int grow(struct shard *sh)
{
	struct shard bigger = { .cap_bits = sh->cap_bits ? sh->cap_bits + 1 : __builtin_ctz(FIRST_CAP),
				.used = sh->used };
	size_t old_cap = sh->cap_bits ? (size_t)1 << sh->cap_bits : 0;

	bigger.entries = map_entries((size_t)1 << bigger.cap_bits);
	if (!bigger.entries)
		return -1;
	for (size_t i = 0; i < old_cap; i++)
		if (sh->entries[i].p)
			*slot(&bigger, sh->entries[i].p) = sh->entries[i];
	if (sh->entries)
		munmap(sh->entries, old_cap * sizeof(struct large_block));
	sh->entries = bigger.entries;
	sh->cap_bits = bigger.cap_bits;
	return 0;
}

int alloctag_large_add(void *p, size_t size, uint32_t ref)
{
	struct shard *sh = shard_of((uintptr_t)p);
	struct large_block *e;
	int ok = 0;

	spin_lock(&sh->lock);
	if (2 * (sh->used + 1) > ((size_t)1 << sh->cap_bits) && grow(sh) != 0) {
		ok = -1;
	} else {
		e = slot(sh, (uintptr_t)p);
		if (!e->p)
			sh->used++;	/* else: the next allocator reused an address we missed freed */
		*e = (struct large_block){ .p = (uintptr_t)p, .size = size, .ref = ref };
	}
	spin_unlock(&sh->lock);
	return ok;
}

/* Entry E of SH emptied, the entries after it moved back over the hole. */
static void remove_at(struct shard *sh, struct large_block *e)
{
	size_t mask = ((size_t)1 << sh->cap_bits) - 1, hole = (size_t)(e - sh->entries);

	for (size_t i = (hole + 1) & mask; sh->entries[i].p; i = (i + 1) & mask) {
		size_t h = home(sh, sh->entries[i].p);

		/* may the entry at i move to the hole: is the hole between its home and i? */
		if (((i - h) & mask) >= ((i - hole) & mask)) {
			sh->entries[hole] = sh->entries[i];
			hole = i;
		}
	}
	sh->entries[hole].p = 0;
	sh->used--;
}

static int lookup(const void *p, struct large_block *out, int take)
{
	struct shard *sh = shard_of((uintptr_t)p);
	struct large_block *e;
	int found = 0;

	spin_lock(&sh->lock);
	if (sh->cap_bits) {
		e = slot(sh, (uintptr_t)p);
		if (e->p) {
			found = 1;
			*out = *e;
			if (take)
				remove_at(sh, e);
		}
	}
	spin_unlock(&sh->lock);
	return found;
}

int alloctag_large_take(const void *p, struct large_block *out)
{
	return lookup(p, out, 1);
}

int alloctag_large_find(const void *p, struct large_block *out)
{
	return lookup(p, out, 0);
}

void alloctag_large_lock_all(void)
{
	for (size_t i = 0; i < SHARDS; i++)
		spin_lock(&shards[i].lock);
}

void alloctag_large_unlock_all(void)
{
	for (size_t i = SHARDS; i-- > 0;)
		spin_unlock(&shards[i].lock);
}

void alloctag_large_after_fork_child(void)
{
	for (size_t i = 0; i < SHARDS; i++)
		spin_reset(&shards[i].lock);
}
