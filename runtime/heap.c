/* SPDX-License-Identifier: MIT */
/*
 * alloctag runtime: a thread's heap of slabs (heap.h), under the fast paths
 * of malloc.c: a slab per class to allocate from, the others in a ring per
 * class, blocks listed a few at a time, other threads' frees taken back,
 * empty slabs given back.  A slab hands out its blocks in order the first
 * time (reserved counts them), and then those on its free list.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <time.h>
#include "heap.h"
#include "next.h"

#define SCAN_MAX	8			/* queued slabs looked at before a new one */
#define KEEP_EMPTY	((size_t)4 << 10)	/* an empty current slab touched at most this stays */
#define COLLECT_NS	(50 * 1000000ll)	/* exited threads' slabs looked at, at most this often */

struct slab alloctag_no_slab = { .free = LIST_END };

/* The ring of T's other slabs of class CLS: insert, remove. */
static void ring_insert(struct thread_state *t, uint32_t cls, struct slab *s, int front)
{
	struct slab *head = t->queue[cls];

	if (!head) {
		s->next = s->prev = s;
		t->queue[cls] = s;
		return;
	}
	s->next = head;
	s->prev = head->prev;
	head->prev->next = s;
	head->prev = s;
	if (front)
		t->queue[cls] = s;
}

static void ring_remove(struct thread_state *t, uint32_t cls, struct slab *s)
{
	if (s->next == s) {
		t->queue[cls] = NULL;
	} else {
		s->prev->next = s->next;
		s->next->prev = s->prev;
		if (t->queue[cls] == s)
			t->queue[cls] = s->next;
	}
	s->next = s->prev = NULL;
}

/* Blocks of SIZE bytes a slab holds, each with its vector entry. */
static uint32_t slab_capacity(uint32_t size)
{
	uint32_t m = (uint32_t)(SLAB_SIZE / (size + sizeof(uint32_t)));

	while (((m * sizeof(uint32_t) + CLASS_GRAIN - 1) & ~(size_t)(CLASS_GRAIN - 1)) + (size_t)m * size > SLAB_SIZE)
		m--;
	return m;
}

static uint32_t next_key(struct thread_state *t)
{
	uint32_t x = t->rng;			/* xorshift32 */

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return t->rng = x;
}

/* Slab S, just taken from the pool, made T's for class CLS: no block listed yet. */
static void slab_init(struct thread_state *t, struct slab *s, uint32_t cls)
{
	uint32_t size = class_size(cls), cap = slab_capacity(size);
	size_t vector = (cap * sizeof(uint32_t) + CLASS_GRAIN - 1) & ~(size_t)(CLASS_GRAIN - 1);
	char *base = slab_base(s);

	/* A released slab's entries are all 0; another class's may cover old blocks. */
	if (s->dirty && s->cls != cls)
		memset(base, 0, vector);
	s->data = base + vector;
	s->size = size;
	s->capacity = cap;
	s->inv = (uint32_t)(((uint64_t)1 << 32) / size + 1);
	s->key = next_key(t);
	s->free = LIST_END;
	s->used = 0;
	s->reserved = 0;
	s->cls = cls;
	s->dirty = 1;
	store_relaxed(&s->remote, 0);
	s->span = cap * size;
	debug_assert(s->owner == t->number);
}

static COLD void corrupted(const void *p)
{
	alloctag_heap_error("malloc(): corrupted list of freed blocks (a freed block was written to)", p);
}

/*
 * Other threads' frees of S's blocks taken onto its local list, each block
 * checked: 1 if there were any.  The owner's.
 */
static int collect(struct slab *s)
{
	_Atomic uint32_t *vector = slab_vector(s);
	uint32_t head, i, n = 0, next;

	if (!load_relaxed(&s->remote))
		return 0;
	head = exchange_acquire(&s->remote, 0);
	for (i = head - 1;; i = next) {
		if (i >= s->reserved || load_relaxed(&vector[i]) != 0 || ++n > s->used)
			corrupted(slab_block(s, i < s->reserved ? i : 0));
		next = link_read(s, slab_block(s, i));
		if (next == LIST_END)
			break;
	}
	link_write(s, slab_block(s, i), s->free);
	s->free = head - 1;
	s->used -= n;
	return 1;
}

void alloctag_heap_remote_push(struct slab *s, uint32_t i, void *p)
{
	uint32_t old = load_relaxed(&s->remote);

	do
		link_write(s, p, old ? old - 1 : LIST_END);
	while (!cas_release(&s->remote, &old, i + 1));
}

/*
 * Whether S has a free block now: listed, freed by other threads, or never
 * handed out, in that order: blocks other threads freed are used again
 * before untouched memory is (bench/xmalloc.c: 4 threads freeing each
 * other's blocks touched every slab whole, 16 MB against glibc's 9).
 */
static int has_free(struct slab *s)
{
	return s->free != LIST_END || collect(s) || s->reserved < s->capacity;
}

/* One of T's queued slabs of class CLS with a free block, taken off the ring; or NULL. */
static struct slab *from_ring(struct thread_state *t, uint32_t cls)
{
	struct slab *s;

	for (int n = 0; n < SCAN_MAX && (s = t->queue[cls]); n++) {
		if (has_free(s)) {
			ring_remove(t, cls, s);
			return s;
		}
		t->queue[cls] = s->next;	/* full: looked at again after the others */
	}
	return NULL;
}

/* A slab of exited thread T's, collected: its remote frees, its empty slabs released. */
static void collect_state(struct thread_state *t)
{
	for (uint32_t cls = 1; cls < CLASSES; cls++) {
		struct slab *s = t->queue[cls], *next;
		size_t n = 0, len = 0;

		for (struct slab *q = s; q && (q != s || !len); q = q->next)
			len++;
		for (; s && n < len; s = next, n++) {
			next = s->next;
			collect(s);
			if (!s->used) {
				ring_remove(t, cls, s);
				alloctag_slab_release(s);
			}
		}
	}
}

/* Every exited thread's state that no one is adopting: its empty slabs back. */
static void collect_exited(void)
{
	for (struct thread_state *t = load_acquire(&alloctag_states); t; t = t->next) {
		int expect = STATE_FREE;

		if (load_relaxed(&t->in_use) != STATE_FREE ||
		    !cas_acquire(&t->in_use, &expect, STATE_COLLECTING))
			continue;
		collect_state(t);
		store_release(&t->in_use, STATE_FREE);
	}
}

static int64_t coarse_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Now and then, before a new slab: exited threads' slabs that emptied since. */
static void maybe_collect_exited(void)
{
	static _Atomic int64_t last;
	int64_t now = coarse_ns(), then = load_relaxed(&last);

	if (now - then < COLLECT_NS || !atomic_compare_exchange_strong_explicit(
			&last, &then, now, memory_order_relaxed, memory_order_relaxed))
		return;
	collect_exited();
}

/*
 * Blocks above SMALL_MAX are the next allocator's: what a program frees of
 * them stays in that allocator's heap, where no slab can use it, while
 * small blocks take fresh memory (bench/micro.c: 1.5 MB of glibc's heap
 * free at its peak).  So once GIVE_BACK_BYTES of them were freed, the next
 * fresh slab first has the next allocator give its free pages back
 * (malloc_trim(0), glibc's madvise of its free chunks).
 */
#define GIVE_BACK_BYTES		((size_t)1 << 20)

static _Atomic size_t next_freed;

void alloctag_heap_next_freed(size_t n)
{
	add_relaxed(&next_freed, n);
}

static void give_back_next(void)
{
	int saved_errno = errno;

	if (load_relaxed(&next_freed) < GIVE_BACK_BYTES ||
	    atomic_exchange_explicit(&next_freed, 0, memory_order_relaxed) < GIVE_BACK_BYTES)
		return;
	if (mode() == MODE_OWNER && alloctag_next.trim)
		alloctag_next.trim(0);
	errno = saved_errno;
}

static struct slab *new_slab(struct thread_state *t, uint32_t cls)
{
	struct slab *s;

	maybe_collect_exited();
	s = alloctag_slab_acquire(t->number);
	if (s && !s->dirty)		/* fresh memory */
		give_back_next();
	if (s)
		slab_init(t, s, cls);
	return s;
}

struct slab *alloctag_heap_refill(struct thread_state *t, uint32_t cls)
{
	struct slab *s = t->current[cls];

	if (s != &alloctag_no_slab) {
		if (has_free(s))
			return s;
		ring_insert(t, cls, s, 0);
	}
	s = from_ring(t, cls);
	if (!s)
		s = new_slab(t, cls);
	t->current[cls] = s ? s : &alloctag_no_slab;
	return s;
}

void alloctag_heap_first_free(struct thread_state *t, struct slab *s)
{
	if (t->current[s->cls] == s)
		return;
	ring_remove(t, s->cls, s);
	ring_insert(t, s->cls, s, 1);
}

/* The bytes of S touched so far: its blocks listed and their entries. */
static size_t touched(const struct slab *s)
{
	return (size_t)s->reserved * (s->size + sizeof(uint32_t));
}

/*
 * The slab a class allocates from emptied after touching more than
 * KEEP_EMPTY: its memory given back, its blocks listed again from the first
 * as they are needed.  It stays current: a loop that allocates and frees
 * one block takes no slab from the pool each time, and pays this once per
 * KEEP_EMPTY bytes it touches.
 */
static void reset(struct slab *s)
{
	int saved_errno = errno;

	s->free = LIST_END;
	s->reserved = 0;
	madvise(slab_base(s), SLAB_SIZE, MADV_DONTNEED);
	errno = saved_errno;
}

void alloctag_heap_emptied(struct thread_state *t, struct slab *s)
{
	debug_assert(s->used == 0 && s->owner == t->number);
	if (t->current[s->cls] != s) {
		ring_remove(t, s->cls, s);
		alloctag_slab_release(s);
	} else if (touched(s) > KEEP_EMPTY) {
		reset(s);
	}
}

/* T's slabs of every class into their rings, the empty ones released. */
static void release_current(struct thread_state *t)
{
	for (uint32_t cls = 1; cls < CLASSES; cls++) {
		struct slab *s = t->current[cls];

		if (s == &alloctag_no_slab)
			continue;
		t->current[cls] = &alloctag_no_slab;
		collect(s);
		if (s->used)
			ring_insert(t, cls, s, 0);
		else
			alloctag_slab_release(s);
	}
}

void alloctag_heap_exit(struct thread_state *t)
{
	release_current(t);
	collect_state(t);
}

int alloctag_heap_trim(struct thread_state *t)
{
	if (t != &alloctag_boot_state) {
		release_current(t);
		collect_state(t);
	}
	collect_exited();
	return alloctag_pool_trim();
}

void alloctag_heap_usage(size_t *in_use, size_t *free_bytes)
{
	*in_use = *free_bytes = 0;
	for (struct segment *seg = alloctag_segments(); seg; seg = seg->next)
		for (size_t i = 1; i < SLABS_PER_SEGMENT; i++) {
			const struct slab *s = &seg->slabs[i];
			size_t used = s->used, reserved = s->reserved;

			if (!s->span || used > reserved)
				continue;
			*in_use += used * s->size;
			*free_bytes += (reserved - used) * s->size;
		}
}

/* 32 bits of the kernel's random bytes for this process (AT_RANDOM). */
static uint32_t process_random(void)
{
	const unsigned char *random = (const unsigned char *)getauxval(AT_RANDOM);
	uint32_t r = 0x2545f491u;

	if (random)
		memcpy(&r, random + 12, sizeof(r));
	return r;
}

void alloctag_heap_init(struct thread_state *t)
{
	for (uint32_t cls = 0; cls < CLASSES; cls++) {
		t->current[cls] = &alloctag_no_slab;
		t->queue[cls] = NULL;
	}
	t->rng = t->number * 0x9e3779b9u ^ process_random();
	if (!t->rng)
		t->rng = 1;
}
