/* SPDX-License-Identifier: MIT */
/*
 * alloctag runtime: the C library's allocators, charging the current tag.
 *
 * malloc and its family are defined here, so that they are the process's
 * wherever the runtime is linked or preloaded ahead of the C library
 * (MODE_OWNER, next.h).  Small blocks are the runtime's own, in slabs
 * (segment.h, block.h, heap.h); the rest are the next allocator's, known by
 * the large table (large.h).  In the other modes these entry points forward
 * (next.h).  Blocks allocated where no tag is current are charged to the
 * "untagged" site.
 *
 * Fast paths: malloc() of 1 to SMALL_MAX bytes from a site this thread has
 * a slot for, with a block in its slab of the class; free() of a block of a
 * slab this thread owns, charged to a slot of its own; realloc() within a
 * block's class.  No call, no atomic read-modify-write, no lock.  Everything
 * else is a noinline function beside them.  Every instruction on them is
 * accounted for in bench/RESULTS.md.
 *
 * Heap errors end as glibc's do, with a line and abort(): a pointer into a
 * runtime segment that is not a block in use (double free, a pointer into a
 * block, a freed block's list link overwritten) here; any other pointer is
 * given to the allocator that made it, which applies its own checks.
 *
 * errno: a call that succeeds leaves it as it was; one that fails sets it
 * as the C library's would (ENOMEM, EINVAL).
 *
 * The plugin renames tagged calls to the _noprof variants: for these
 * functions they are the same functions, as the charging happens here.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <gnu/libc-version.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "heap.h"
#include "large.h"
#include "next.h"
#include "registry.h"

EXPORT __thread struct alloc_tag *alloctag_current TLS_IE;

/* process.c's start and exit, linked in with malloc (a static link takes what is referred to). */
extern const char alloctag_process_linked INTERNAL;
__attribute__((used)) static const char *const process_linked = &alloctag_process_linked;

static inline struct alloc_tag *current_tag(void)
{
	struct alloc_tag *tag = alloctag_current;

	return tag ? tag : &alloctag_untagged;
}

/* The ref of this thread's own slot for the current tag, if it has one already; else 0. */
static inline uint32_t known_ref(const struct thread_state *t)
{
	_Atomic uint32_t *cached = (_Atomic uint32_t *)&current_tag()->counters->id;
	uint32_t id = load_acquire(cached);

	return likely(id < t->cap) ? own_ref(t->slots[id]) : 0;
}

/* The slot to charge now: this thread's own, or the registry's answer. */
static struct charge_to charge_target(void)
{
	uint32_t ref = known_ref(alloctag_self);

	if (likely(ref))
		return (struct charge_to){ slot_at(ref), ref };
	return alloctag_charge_slow(current_tag());
}

/* N bytes allocated, charged to this thread's own slot S (counters.h's order). */
static inline void charge(struct counters_slot *s, size_t n)
{
	int64_t live = load_relaxed(&s->live) + (int64_t)n;

	debug_assert(s->thread == alloctag_self->number);
	bump(&s->calls, 1);
	bump(&s->bytes, n);
	store_release(&s->live, live);
	live -= (int64_t)load_relaxed(&s->remote_bytes);
	if (live > load_relaxed(&s->peak))
		store_relaxed(&s->peak, live);
}

/* The same to a slot another thread owns, or a site's shared slot: atomically. */
static NOINLINE void charge_shared(struct counters_slot *s, size_t n)
{
	int64_t live;

	add_relaxed(&s->calls, 1);
	add_relaxed(&s->bytes, n);
	live = atomic_fetch_add_explicit(&s->live, (int64_t)n, memory_order_release) + (int64_t)n;
	live -= (int64_t)load_relaxed(&s->remote_bytes);
	if (live > load_relaxed(&s->peak))
		store_relaxed(&s->peak, live);	/* racy: within a pair of threads' updates */
}

static inline void charge_any(struct counters_slot *s, size_t n)
{
	if (likely(s->thread == alloctag_self->number))
		charge(s, n);
	else
		charge_shared(s, n);
}

/*
 * MODE_FORWARD: the runtime sees allocations, not frees: calls and bytes,
 * and the block counted as gone at once, so that no report shows it live.
 */
static void charge_calls(struct counters_slot *s, size_t n)
{
	add_relaxed(&s->calls, 1);
	add_relaxed(&s->bytes, n);
	atomic_fetch_add_explicit(&s->remote_calls, 1, memory_order_release);
}

static inline void uncharge_own(struct counters_slot *s, size_t n)
{
	bump(&s->live, -(int64_t)n);
	bump_release(&s->freed_calls, 1);
	debug_assert(load_relaxed(&s->live) >= 0);
}

static NOINLINE void uncharge_remote(struct counters_slot *s, size_t n)
{
	add_relaxed(&s->remote_bytes, n);
	atomic_fetch_add_explicit(&s->remote_calls, 1, memory_order_release);
}

/* N bytes freed by this thread, from slot S. */
static inline void uncharge(struct counters_slot *s, size_t n)
{
	if (likely(s->thread == alloctag_self->number))
		uncharge_own(s, n);
	else
		uncharge_remote(s, n);
}

static COLD void invalid_pointer(const char *what, const void *p)
{
	alloctag_heap_error(what, p);
}

static COLD void corrupted_list(const void *p)
{
	alloctag_heap_error("malloc(): corrupted list of freed blocks (a freed block was written to)", p);
}

static int too_big(size_t n)
{
	if (likely(n <= PTRDIFF_MAX))
		return 0;
	errno = ENOMEM;
	return 1;
}

/* The first block on slab S's free list, taken (its link checked); LIST_END: none. */
static inline uint32_t slab_pop(struct slab *s)
{
	uint32_t i = s->free, next;

	if (i == LIST_END)
		return LIST_END;
	next = link_read(s, slab_block(s, i));
	if (unlikely(!link_valid(s, next)))
		corrupted_list(slab_block(s, i));
	s->free = next;
	s->used++;
	return i;
}

/* The next block of S never handed out, taken; LIST_END: none left. */
static inline uint32_t slab_bump(struct slab *s)
{
	if (unlikely(s->reserved >= s->capacity))
		return LIST_END;
	s->used++;
	return s->reserved++;
}

/*
 * A free block of slab S taken: the first on its free list, or the next it
 * never handed out; LIST_END when S has neither, or when other threads freed
 * some of its blocks: those are taken back (heap.c's refill) before memory
 * never touched is.
 */
static inline uint32_t slab_take(struct slab *s)
{
	uint32_t i = slab_pop(s);

	if (likely(i != LIST_END))
		return i;
	if (unlikely(load_relaxed(&s->remote)))
		return LIST_END;
	return slab_bump(s);
}

/* The same of S just given by alloctag_heap_refill(), which has a free block: never LIST_END. */
static inline uint32_t slab_take_refilled(struct slab *s)
{
	uint32_t i = slab_pop(s);

	return i != LIST_END ? i : slab_bump(s);
}

/* Block I of slab S, just taken, given to N bytes charged to the slot REF names: its entry checked and written. */
static inline void *slab_place(struct slab *s, uint32_t i, uint32_t ref, size_t n)
{
	_Atomic uint32_t *entry = &slab_vector(s)[i];
	char *b = slab_block(s, i);

	if (unlikely(load_relaxed(entry) != 0))
		corrupted_list(b);
	store_relaxed(entry, entry_make(ref, s->size - (uint32_t)n));
	return b;
}

/* A small block (N <= SMALL_MAX) for the slot REF names, from this thread's slab of its class. */
static void *small_block(uint32_t ref, size_t n)
{
	struct thread_state *t = alloctag_self;
	uint32_t cls = n ? small_class(n) : 1;
	struct slab *s = t->current[cls];
	uint32_t i = slab_take(s);

	if (i == LIST_END) {
		if (!(s = alloctag_heap_refill(t, cls))) {
			errno = ENOMEM;
			return NULL;
		}
		i = slab_take_refilled(s);
	}
	return slab_place(s, i, ref, n);
}

/* Block P of N bytes from the next allocator, known by the table as charged to REF. */
static void *table_block(void *p, uint32_t ref, size_t n)
{
	if (p && alloctag_large_add(p, n, ref) != 0) {
		alloctag_next.free(p);
		errno = ENOMEM;
		return NULL;
	}
	return p;
}

/* A block of N bytes whose entry names C, not charged yet: the caller charges it (MODE_OWNER, MODE_TABLE). */
static void *new_block(struct charge_to c, size_t n, size_t align)
{
	(void)align;
	if (load_relaxed(&alloctag_mode) != MODE_TABLE && n <= SMALL_MAX)
		return small_block(c.ref, n);
	return table_block(alloctag_next.malloc(n), c.ref, n);
}

/* A block of N bytes in a mode where the process's free is not the runtime's. */
static void *forwarded(void *p, size_t n)
{
	if (p && mode() == MODE_FORWARD) {
		struct charge_to c = charge_target();

		if (c.slot)
			charge_calls(c.slot, n);
	}
	return p;
}

/*
 * A block the runtime owns, for N bytes charged to the current tag, made
 * by MAKE (a small block or a table block; ALIGN for an aligned one): the
 * part of the malloc family's entry points common to the modes where
 * free() is the runtime's.
 */
static void *owned_block(void *(*make)(struct charge_to, size_t, size_t), size_t n, size_t align)
{
	int saved_errno = errno;
	struct charge_to c;
	void *p;

	if (too_big(n))
		return NULL;
	c = charge_target();
	if (!c.slot) {
		errno = ENOMEM;
		return NULL;
	}
	p = make(c, n, align);
	if (p) {
		charge_any(c.slot, n);
		errno = saved_errno;
	}
	return p;
}

static void *zeroed_block(struct charge_to c, size_t n, size_t align)
{
	(void)align;
	return table_block(alloctag_next.calloc(1, n), c.ref, n);
}

static void *aligned_block(struct charge_to c, size_t n, size_t align)
{
	return table_block(alloctag_next.memalign(align, n), c.ref, n);
}

static NOINLINE void *malloc_slow(size_t n)
{
	enum alloc_mode m = mode();

	if (m == MODE_HOOKED || m == MODE_FORWARD)
		return forwarded(alloctag_next.malloc(n), n);
	return owned_block(new_block, n, 0);
}

static NOINLINE void *malloc_refill(struct thread_state *t, uint32_t ref, size_t n)
{
	int saved_errno = errno;
	struct slab *s;
	void *p;

	if (unlikely(mode() != MODE_OWNER))
		return malloc_slow(n);
	s = alloctag_heap_refill(t, small_class(n));
	if (!s) {
		errno = ENOMEM;
		return NULL;
	}
	errno = saved_errno;
	p = slab_place(s, slab_take_refilled(s), ref, n);
	charge(slot_at(ref), n);
	return p;
}

/*
 * The fast path: a known slot, a free block in the current slab of the
 * class, no call, no stack frame.
 */
EXPORT void *malloc(size_t n)
{
	struct thread_state *t = alloctag_self;
	struct slab *s;
	uint32_t ref, i;
	void *p;

	if (unlikely(n - 1 >= SMALL_MAX) || unlikely(!(ref = known_ref(t))))
		return malloc_slow(n);
	s = t->current[small_class(n)];
	i = slab_take(s);
	if (unlikely(i == LIST_END))
		return malloc_refill(t, ref, n);
	p = slab_place(s, i, ref, n);
	charge(slot_at(ref), n);
	return p;
}


/*
 * A pointer into a runtime segment that is no block in use, as glibc names
 * such: a block that is free, a slab no thread has (all of its blocks were
 * freed), or no block's start.
 */
static COLD void not_a_block(const char *function, const struct slab *s, const void *p, int freed)
{
	char what[112];

	snprintf(what, sizeof(what), "%s(): %s", function,
		 freed ? "double free detected (the block is free)" :
		 !s->span ? "double free or corruption (the block's slab is free)" : "invalid pointer");
	invalid_pointer(what, p);
}

/* Block I of slab S at P, in use: its entry; else a heap error in FUNCTION. */
static inline uint32_t entry_in_use(const struct slab *s, uint32_t i, const void *p,
				    const char *function)
{
	uint32_t e;

	if (unlikely(i == UINT32_MAX))
		not_a_block(function, s, p, 0);
	e = load_relaxed(&slab_vector(s)[i]);
	if (unlikely(!e))
		not_a_block(function, s, p, 1);
	return e;
}

/*
 * Block I at P of slab S, which another thread state owns, freed: its
 * entry cleared (a load and a store: two threads that free one block at
 * once race in the program already), pushed on the slab's remote list.
 */
static NOINLINE void free_remote(struct slab *s, uint32_t i, void *p)
{
	_Atomic uint32_t *entry = &slab_vector(s)[i];
	uint32_t e = load_relaxed(entry);

	if (unlikely(!e))
		not_a_block("free", s, p, 1);
	store_relaxed(entry, 0);
	uncharge(slot_at(entry_slot_ref(e)), entry_bytes(e, s->size));
	alloctag_heap_remote_push(s, i, p);
}

/* Not a slab's block: the table's (uncharged, then the next allocator's), or foreign. */
static NOINLINE void free_slow(void *p)
{
	struct large_block b;
	enum alloc_mode m;

	if (!p) {
		if (unlikely(alloctag_probing))
			alloctag_probing = 2;	/* next.c asks whose free() a call reaches */
		return;
	}
	m = mode();
	if (m == MODE_OWNER || m == MODE_TABLE) {
		if (alloctag_large_take(p, &b)) {
			uncharge(slot_at(b.ref), b.size);
			alloctag_heap_next_freed(b.size);
		}
	}
	alloctag_next.free(p);		/* or it says what is wrong with it */
}

/* What a free on slab S of T's changed: its list was empty (OLD), its blocks are all free. */
static NOINLINE void slab_events(struct thread_state *t, struct slab *s, uint32_t old)
{
	if (old == LIST_END)
		alloctag_heap_first_free(t, s);
	if (s->used == 0)
		alloctag_heap_emptied(t, s);
}

/* Block I at P of slab S, this thread's, onto its free list: its entry cleared. */
static inline void slab_put(struct thread_state *t, struct slab *s, uint32_t i, void *p)
{
	uint32_t old = s->free, used = s->used - 1;

	store_relaxed(&slab_vector(s)[i], 0);
	link_write(s, p, old);
	s->free = i;
	s->used = used;
	if (unlikely(old == LIST_END) || unlikely(used == 0))
		slab_events(t, s, old);
}

/* A slab block of this thread's charged to a slot it does not own (a site's shared one). */
static NOINLINE void free_shared(struct thread_state *t, struct slab *s, uint32_t i, void *p)
{
	uint32_t e = load_relaxed(&slab_vector(s)[i]);

	uncharge_remote(slot_at(entry_slot_ref(e)), entry_bytes(e, s->size));
	slab_put(t, s, i, p);
}

/*
 * The fast path: a block of a slab this thread owns, charged to a slot of
 * its own: uncharged and put on the slab's free list.
 */
EXPORT void free(void *p)
{
	struct thread_state *t = alloctag_self;
	uintptr_t a = (uintptr_t)p;
	struct counters_slot *c;
	struct slab *s;
	uint32_t i, e;

	if (unlikely(!segment_mine(a)))
		return free_slow(p);		/* NULL too: no segment holds it */
	s = slab_of(a);
	i = slab_index(s, a);
	if (unlikely(s->owner != t->number) && likely(i != UINT32_MAX))
		return free_remote(s, i, p);
	e = entry_in_use(s, i, p, "free");
	c = slot_at(entry_slot_ref(e));
	if (unlikely(c->thread != t->number))
		return free_shared(t, s, i, p);
	uncharge_own(c, entry_bytes(e, s->size));
	slab_put(t, s, i, p);
}


EXPORT void *calloc(size_t count, size_t size)
{
	enum alloc_mode m;
	size_t n;
	void *p;

	if (unlikely(__builtin_mul_overflow(count, size, &n)) || too_big(n)) {
		errno = ENOMEM;
		return NULL;
	}
	m = mode();
	if (m == MODE_HOOKED || m == MODE_FORWARD)
		return forwarded(alloctag_next.calloc(count, size), n);
	if (m == MODE_OWNER && n <= SMALL_MAX) {
		p = malloc(n);
		if (p)
			memset(p, 0, class_size(n ? small_class(n) : 1));
		return p;
	}
	return owned_block(zeroed_block, n, 0);
}

/*
 * Blocks aligned beyond 16 bytes: the next allocator's memalign() rounds
 * ALIGN as each of the C library's functions does; the block is the
 * table's.
 */
static void *alloc_aligned(size_t align, size_t n)
{
	enum alloc_mode m;

	if (align <= CLASS_GRAIN)
		return malloc(n);
	m = mode();
	if (m == MODE_HOOKED || m == MODE_FORWARD)
		return forwarded(alloctag_next.memalign(align, n), n);
	return owned_block(aligned_block, n, align);
}

/*
 * Block P, of USABLE bytes, moved to a new block of N bytes: charged after
 * P is uncharged, so that a site's peak never holds both.
 */
static void *move_block(void *p, size_t usable, size_t n)
{
	struct charge_to c = charge_target();
	void *q = c.slot ? new_block(c, n, 0) : NULL;

	if (!q) {
		errno = ENOMEM;
		return NULL;
	}
	memcpy(q, p, usable < n ? usable : n);
	free(p);
	charge_any(c.slot, n);
	return q;
}

/* realloc() of slab block P (slab S, block I), to N >= 1 bytes. */
static void *realloc_small(struct slab *s, uint32_t i, void *p, size_t n)
{
	_Atomic uint32_t *entry = &slab_vector(s)[i];
	uint32_t e = entry_in_use(s, i, p, "realloc");
	struct charge_to c;

	if (n > SMALL_MAX || small_class(n) != s->cls)
		return move_block(p, s->size, n);
	c = charge_target();
	if (!c.slot) {
		errno = ENOMEM;
		return NULL;
	}
	/* In place: the entry is the caller's block's, no other thread writes it. */
	uncharge(slot_at(entry_slot_ref(e)), entry_bytes(e, s->size));
	store_relaxed(entry, entry_make(c.ref, s->size - (uint32_t)n));
	charge_any(c.slot, n);
	return p;
}

/* realloc() of a table block B (its entry taken out) to N >= 1 bytes. */
static void *realloc_table(const struct large_block *b, size_t n)
{
	void *p = (void *)b->p, *q;
	struct charge_to c;

	if (mode() == MODE_OWNER && n <= SMALL_MAX) {
		size_t usable = alloctag_next.usable ? alloctag_next.usable(p) : b->size;

		alloctag_large_add(p, b->size, b->ref);		/* free() takes it again */
		return move_block(p, usable, n);
	}
	c = charge_target();
	q = c.slot ? alloctag_next.realloc(p, n) : NULL;
	if (!q) {
		alloctag_large_add(p, b->size, b->ref);
		errno = ENOMEM;
		return NULL;
	}
	uncharge(slot_at(b->ref), b->size);
	if (alloctag_large_add(q, n, c.ref) == 0)
		charge_any(c.slot, n);
	return q;
}

static NOINLINE void *realloc_slow(void *p, size_t n)
{
	int saved_errno = errno;
	enum alloc_mode m = mode();
	uintptr_t a = (uintptr_t)p;
	struct large_block b;
	void *q;

	if (m == MODE_HOOKED || m == MODE_FORWARD)
		return forwarded(alloctag_next.realloc(p, n), n);
	if (n == 0) {			/* as glibc: freed, and NULL */
		free(p);
		return NULL;
	}
	if (too_big(n))
		return NULL;
	if (segment_mine(a)) {
		struct slab *s = slab_of(a);

		q = realloc_small(s, slab_index(s, a), p, n);
	} else if (alloctag_large_take(p, &b)) {
		q = realloc_table(&b, n);
	} else {
		return alloctag_next.realloc(p, n);	/* foreign: it stays so */
	}
	if (q)
		errno = saved_errno;
	return q;
}

/*
 * Block I at P of slab S, this thread's and charged to its own slot OLD_SLOT
 * (entry OLD), moved to a block of the class of N bytes charged to REF:
 * uncharged before the new one is charged, so that a site's peak never
 * holds both.
 */
static NOINLINE void *realloc_move(struct thread_state *t, struct slab *s, uint32_t i, void *p,
				   uint32_t old, uint32_t ref, size_t n)
{
	uint32_t cls = small_class(n), j;
	struct slab *d = t->current[cls];
	void *q;

	if ((j = slab_take(d)) == LIST_END) {
		if (!(d = alloctag_heap_refill(t, cls)))
			return realloc_slow(p, n);	/* out of memory: it says so */
		j = slab_take_refilled(d);
	}
	q = slab_place(d, j, ref, n);
	memcpy(q, p, s->size < n ? s->size : n);
	uncharge_own(slot_at(entry_slot_ref(old)), entry_bytes(old, s->size));
	charge(slot_at(ref), n);
	slab_put(t, s, i, p);
	return q;
}

/*
 * realloc(NULL, n) is malloc's fast path; the fast path: a slab block of
 * this thread's, charged to its own slot, that stays small: in place if it
 * stays in its class, else moved to a block of this thread's slabs.
 */
EXPORT void *realloc(void *p, size_t n)
{
	struct thread_state *t = alloctag_self;
	uintptr_t a = (uintptr_t)p;
	struct counters_slot *old_slot;
	_Atomic uint32_t *entry;
	struct slab *s;
	uint32_t ref, i, old;

	if (!p)
		return malloc(n);
	if (unlikely(n - 1 >= SMALL_MAX) || unlikely(!segment_mine(a)) ||
	    unlikely(!(ref = known_ref(t))))
		return realloc_slow(p, n);
	s = slab_of(a);
	i = slab_index(s, a);
	if (unlikely(i == UINT32_MAX) || unlikely(s->owner != t->number))
		return realloc_slow(p, n);
	entry = &slab_vector(s)[i];
	old = load_relaxed(entry);
	if (unlikely(!old))
		return realloc_slow(p, n);
	old_slot = slot_at(entry_slot_ref(old));
	if (unlikely(old_slot->thread != t->number))
		return realloc_slow(p, n);
	if (small_class(n) != s->cls)
		return realloc_move(t, s, i, p, old, ref, n);
	uncharge_own(old_slot, entry_bytes(old, s->size));
	store_relaxed(entry, entry_make(ref, s->size - (uint32_t)n));
	charge(slot_at(ref), n);
	return p;
}

EXPORT void *reallocarray(void *p, size_t count, size_t size)
{
	size_t n;

	if (unlikely(__builtin_mul_overflow(count, size, &n))) {
		errno = ENOMEM;
		return NULL;
	}
	return realloc(p, n);
}

static int power_of_two(size_t x)
{
	return x && !(x & (x - 1));
}

/*
 * glibc 2.36's aligned_alloc() is memalign(): any alignment, rounded up to
 * a power of two.  Later glibc refuse an alignment that is not a power of
 * two (EINVAL): as the C library the program runs with does.
 */
EXPORT void *aligned_alloc(size_t align, size_t n)
{
	static int strict = -1;

	if (strict < 0) {
		const char *v = gnu_get_libc_version();
		int major = 0, minor = 0;

		sscanf(v, "%d.%d", &major, &minor);
		strict = major > 2 || (major == 2 && minor >= 38);
	}
	if (strict && !power_of_two(align)) {
		errno = EINVAL;
		return NULL;
	}
	return alloc_aligned(align, n);
}

EXPORT void *memalign(size_t align, size_t n)
{
	return alloc_aligned(align, n);
}

EXPORT int posix_memalign(void **out, size_t align, size_t n)
{
	int saved_errno = errno;
	void *p;

	if (!power_of_two(align) || align % sizeof(void *))
		return EINVAL;
	p = alloc_aligned(align, n);
	errno = saved_errno;
	if (!p)
		return ENOMEM;
	*out = p;
	return 0;
}

EXPORT void *valloc(size_t n)
{
	return alloc_aligned(sysconf(_SC_PAGESIZE), n);
}

/* pvalloc(): the whole pages are the caller's, so they are what it is charged. */
EXPORT void *pvalloc(size_t n)
{
	size_t page = sysconf(_SC_PAGESIZE);

	if (n > PTRDIFF_MAX - page) {
		errno = ENOMEM;
		return NULL;
	}
	return alloc_aligned(page, (n + page - 1) & ~(page - 1));
}

/* All a program may use of a block: its class's bytes, or the next allocator's answer. */
EXPORT size_t malloc_usable_size(void *p)
{
	uintptr_t a = (uintptr_t)p;

	if (!p)
		return 0;
	if (segment_mine(a)) {
		struct slab *s = slab_of(a);
		uint32_t i = slab_index(s, a);

		return i != UINT32_MAX && load_relaxed(&slab_vector(s)[i]) ? s->size : 0;
	}
	return alloctag_next.usable ? alloctag_next.usable(p) : 0;
}

/* C23's sized frees: the size is the runtime's to know. */
EXPORT void free_sized(void *p, size_t n)
{
	(void)n;
	free(p);
}

EXPORT void free_aligned_sized(void *p, size_t align, size_t n)
{
	(void)align;
	(void)n;
	free(p);
}

/* malloc_trim(): this thread's and exited threads' empty slabs, then the next allocator's. */
EXPORT int malloc_trim(size_t pad)
{
	int released = 0;

	if (mode() == MODE_OWNER)
		released = alloctag_heap_trim(alloctag_self);
	if (alloctag_next.trim)
		released |= alloctag_next.trim(pad);
	return released;
}

/* The next allocator's statistics, with the slabs' blocks in them. */
EXPORT struct mallinfo2 mallinfo2(void)
{
	struct mallinfo2 mi = { 0 };
	size_t in_use, free_bytes;

	if (alloctag_next.mallinfo2)
		mi = alloctag_next.mallinfo2();
	if (mode() == MODE_OWNER) {
		alloctag_heap_usage(&in_use, &free_bytes);
		mi.uordblks += in_use;
		mi.fordblks += free_bytes;
		mi.arena += in_use + free_bytes;
	}
	return mi;
}

EXPORT struct mallinfo mallinfo(void)
{
	struct mallinfo2 m2 = mallinfo2();

	return (struct mallinfo){
		.arena = (int)m2.arena, .ordblks = (int)m2.ordblks, .smblks = (int)m2.smblks,
		.hblks = (int)m2.hblks, .hblkhd = (int)m2.hblkhd, .usmblks = (int)m2.usmblks,
		.fsmblks = (int)m2.fsmblks, .uordblks = (int)m2.uordblks,
		.fordblks = (int)m2.fordblks, .keepcost = (int)m2.keepcost,
	};
}

/* The runtime's own definitions, for next.c to tell them from the process's. */
#define OWN(name, ret, args) ret alloctag_own_##name args __attribute__((alias(#name), copy(name)))
OWN(malloc, void *, (size_t));
OWN(free, void, (void *));
OWN(calloc, void *, (size_t, size_t));
OWN(realloc, void *, (void *, size_t));
OWN(memalign, void *, (size_t, size_t));
size_t alloctag_own_usable_size(void *) __attribute__((alias("malloc_usable_size"), copy(malloc_usable_size)));
int alloctag_own_trim(size_t) __attribute__((alias("malloc_trim"), copy(malloc_trim)));
OWN(mallinfo2, struct mallinfo2, (void));

/* MODE_HOOKED: every block the sanitizer's allocator makes and frees. */
void alloctag_hooked_malloc(const volatile void *p, size_t n)
{
	struct charge_to c;

	if (!p)
		return;
	c = charge_target();
	if (c.slot && alloctag_large_add((void *)p, n, c.ref) == 0)
		charge_any(c.slot, n);
}

void alloctag_hooked_free(const volatile void *p)
{
	struct large_block b;

	if (p && alloctag_large_take((const void *)p, &b))
		uncharge(slot_at(b.ref), b.size);
}

/*
 * The untagged variants the plugin renames tagged calls to.  For the malloc
 * family they are the functions above.  Weak, so that a program may define
 * its own.
 */
#define ALIAS(name) __attribute__((alias(#name), copy(name), weak, visibility("default")))

void *malloc_noprof(size_t) ALIAS(malloc);
void *calloc_noprof(size_t, size_t) ALIAS(calloc);
void *realloc_noprof(void *, size_t) ALIAS(realloc);
void *reallocarray_noprof(void *, size_t, size_t) ALIAS(reallocarray);
void *aligned_alloc_noprof(size_t, size_t) ALIAS(aligned_alloc);
void *memalign_noprof(size_t, size_t) ALIAS(memalign);
int posix_memalign_noprof(void **, size_t, size_t) ALIAS(posix_memalign);
void *valloc_noprof(size_t) ALIAS(valloc);
void *pvalloc_noprof(size_t) ALIAS(pvalloc);
void free_noprof(void *) ALIAS(free);

/* strdup and strndup through this malloc, so that they count in every mode. */
EXPORT __attribute__((weak)) char *strdup_noprof(const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = malloc(n);

	return p ? memcpy(p, s, n) : NULL;
}

EXPORT __attribute__((weak)) char *strndup_noprof(const char *s, size_t max)
{
	size_t n = strnlen(s, max);
	char *p = malloc(n + 1);

	if (!p)
		return NULL;
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}
