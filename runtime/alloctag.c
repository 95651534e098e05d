/* SPDX-License-Identifier: MIT */
/*
 * alloctag runtime: the C library's allocators, charging the current tag.
 *
 * malloc and its family are replaced (the program's definitions interpose
 * glibc's for every caller, libc included) and take their memory from
 * glibc's __libc_malloc and friends: a block is a glibc chunk with a
 * trailer (block.h), so that glibc's free() frees it too and this free()
 * gives glibc any pointer that is not one of its blocks.  Blocks allocated
 * where no tag is current are charged to the "untagged" site.
 *
 * Fast paths: malloc() of up to SMALL_MAX bytes from a site this thread has
 * a slot for, and free() of such a block, use the thread's cache (cache.h)
 * and make no call.  Every other case is a noinline function below them.
 *
 * Heap errors end as glibc ends them, with a line and abort(): freeing a
 * block that is in a cache (double free) here; anything else that is not
 * a block of this runtime is glibc's to check.
 *
 * The plugin renames tagged calls to the _noprof variants: for these
 * functions they are the same functions, as the charging happens here.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <gnu/libc-version.h>
#include <malloc.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wchar.h>
#include "cache.h"
#include "heap.h"

EXPORT __thread struct alloc_tag *alloctag_current TLS_IE;

static inline struct alloc_tag *current_tag(void)
{
	struct alloc_tag *tag = alloctag_current;

	return tag ? tag : &alloctag_untagged;
}

/* This thread's slot for the current tag, if it has one already. */
static inline struct counters_slot *known_slot(struct thread_state *t)
{
	_Atomic uint32_t *cached = (_Atomic uint32_t *)&current_tag()->counters->id;
	uint32_t id = load_acquire(cached);

	return likely(id < t->cap) ? own_slot(t->slots[id]) : NULL;
}

static inline struct counters_slot *current_slot(void)
{
	struct counters_slot *s = known_slot(alloctag_self);

	return likely(s) ? s : alloctag_slot_slow(current_tag());
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

/* The same to a site's shared slot, which any thread may charge. */
static __attribute__((noinline)) void charge_shared(struct counters_slot *s, size_t n)
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

static __attribute__((noinline)) void uncharge_remote(struct counters_slot *s, size_t n)
{
	add_relaxed(&s->remote_bytes, n);
	atomic_fetch_add_explicit(&s->remote_calls, 1, memory_order_release);
}

/* N bytes freed by thread T, from slot S. */
static inline void uncharge(struct counters_slot *s, size_t n, struct thread_state *t)
{
	if (likely(s->thread == t->number)) {
		bump(&s->live, -(int64_t)n);
		bump_release(&s->freed_calls, 1);
		debug_assert(load_relaxed(&s->live) >= 0);
	} else {
		uncharge_remote(s, n);
	}
}

/* Block P of N bytes charged to S: the caller's pointer. */
static inline void *account(void *p, struct counters_slot *s, size_t n)
{
	charge_any(s, n);
	trailer_write(p, field_usable(chunk_field(p)), s, n);
	return p;
}

/* A block of this runtime, as its chunk and trailer say. */
struct block {
	size_t k;			/* its class if it may be cached, else 0 */
	size_t usable;
	uint64_t *trailer;
	uint64_t word;			/* the trailer's value */
};

static inline struct counters_slot *block_slot(const struct block *b)
{
	return trailer_slot(b->word);
}

static inline size_t block_size(const struct block *b)
{
	return trailer_size(b->trailer, b->word, b->usable);
}

/*
 * What the caller may have used of it: malloc_usable_size() says so, and
 * programs use it (SQLite grows strings into it), so realloc keeps it all.
 */
static inline size_t block_capacity(const struct block *b)
{
	return trailer_capacity(b->word, b->usable);
}

/* Whether P is a small heap block of this runtime, in use (the fast paths'). */
static inline int small_block(void *p, struct block *b)
{
	b->k = field_class(chunk_field(p));
	if (unlikely(!b->k))
		return 0;
	b->usable = heap_usable(class_chunk(b->k));
	b->trailer = trailer_at(p, b->usable);
	b->word = *b->trailer;
	return trailer_valid(p, b->word);
}

/*
 * Whether P is any block of this runtime, in use.  A pointer whose size
 * field glibc would not take is not read further; a block in a cache is a
 * heap error.
 */
static int any_block(void *p, struct block *b)
{
	size_t field = chunk_field(p);

	if (!field_plausible(p, field))
		return 0;
	b->k = field_class(field);
	b->usable = field_usable(field);
	b->trailer = trailer_at(p, b->usable);
	b->word = *b->trailer;
	if (trailer_valid(p, b->word))
		return 1;
	if (b->k && trailer_was_cached(p, b->word))
		alloctag_heap_error("double free or use of a freed block", p);
	return 0;
}

static int too_big(size_t n)
{
	if (likely(n <= PTRDIFF_MAX - TRAILER))
		return 0;
	errno = ENOMEM;
	return 1;
}

/* A chunk for N bytes and the trailer: cached, or glibc's. */
static void *new_chunk(size_t n)
{
	if (n <= SMALL_MAX) {
		struct thread_state *t = alloctag_self;
		size_t k = small_class(n);
		void *p = NULL;

		if (cache_enter(t)) {
			p = cache_take(t, k);
			cache_leave(t);
		}
		return p ? p : heap_alloc(class_request(k));
	}
	return too_big(n) ? NULL : heap_alloc(n + TRAILER);
}

static __attribute__((noinline)) void *malloc_slow(size_t n)
{
	struct counters_slot *s = current_slot();
	void *p = new_chunk(n);

	return likely(p) ? account(p, s, n) : NULL;
}

/*
 * A small block from glibc: the cache of its class is empty (or being
 * taken).  glibc may give a larger chunk than asked (it splits off no
 * remainder below MIN_CHUNK): the trailer goes where the chunk ends.
 */
static __attribute__((noinline)) void *malloc_uncached(struct counters_slot *s, size_t n, size_t k)
{
	struct thread_state *t = alloctag_self;
	void *p = alloctag_cache_carve(t, k);

	if (unlikely(!p))
		p = heap_alloc(class_request(k));

	if (unlikely(++t->misses >= RECLAIM_MISSES))
		alloctag_cache_miss(t);
	if (unlikely(!p))
		return NULL;
	charge(s, n);
	trailer_write_heap(p, chunk_field(p), s, n);
	return p;
}

/*
 * The fast path: a known slot, a cached block, no call, no stack frame.  An
 * empty cache costs a call to glibc; anything else is malloc_slow()'s.
 */
EXPORT void *malloc(size_t n)
{
	struct thread_state *t = alloctag_self;
	struct counters_slot *s;
	size_t k;
	void *p;

	if (unlikely(n > SMALL_MAX) || unlikely(!(s = known_slot(t))))
		return malloc_slow(n);
	k = small_class(n);
	if (unlikely(!cache_enter(t)))
		return malloc_uncached(s, n, k);
	p = cache_take(t, k);
	cache_leave(t);
	if (unlikely(!p))
		return malloc_uncached(s, n, k);
	charge(s, n);
	trailer_write_small(p, k, s, n);
	return p;
}

/* The cache is full: more of the budget for it, or small block P to glibc. */
static __attribute__((noinline)) void release_full(struct thread_state *t, void *p, size_t k,
						    uint64_t word, size_t usable)
{
	if (alloctag_cache_reserve(t) && cache_enter(t)) {
		int kept = cache_keep(t, p, k, word);

		cache_leave(t);
		if (kept)
			return;
	}
	alloctag_give_back(p, usable);
}

/* Keep a freed block, if it may be cached, or give it to glibc. */
static inline void release(struct thread_state *t, void *p, const struct block *b)
{
	if (b->k && cache_enter(t)) {
		int kept = cache_keep(t, p, b->k, b->word);

		cache_leave(t);
		if (likely(kept))
			return;
		if (t->cache_limit < CACHE_MAX)
			return release_full(t, p, b->k, b->word, b->usable);
	}
	alloctag_give_back(p, b->usable);
}

/* Large and mmapped blocks, frees by another thread, pointers glibc made. */
static __attribute__((noinline)) void free_slow(void *p)
{
	struct thread_state *t = alloctag_self;
	struct block b;

	if (!any_block(p, &b)) {
		heap_free_other(p);	/* glibc's, or glibc says what is wrong with it */
		return;
	}
	uncharge(block_slot(&b), block_size(&b), t);
	release(t, p, &b);
}

/*
 * The fast path: a small heap chunk with a valid trailer, charged to a slot
 * of this thread; it is cached, or given back to glibc when the cache is
 * full.
 */
EXPORT void free(void *p)
{
	struct thread_state *t = alloctag_self;
	struct counters_slot *s;
	struct block b;

	if (unlikely(!p))
		return;
	if (unlikely(!small_block(p, &b)))
		return free_slow(p);
	s = block_slot(&b);
	if (unlikely(s->thread != t->number))
		return free_slow(p);
	debug_assert(block_size(&b) <= b.usable - TRAILER);
	bump(&s->live, -(int64_t)block_size(&b));
	bump_release(&s->freed_calls, 1);
	debug_assert(load_relaxed(&s->live) >= 0);
	release(t, p, &b);
}

/* This free(), whatever the program's free() is (live.c compares them). */
void alloctag_own_free(void *p) INTERNAL __attribute__((alias("free"), copy(free)));

EXPORT void *calloc(size_t count, size_t size)
{
	struct counters_slot *s;
	size_t n;
	void *p;

	if (unlikely(__builtin_mul_overflow(count, size, &n)) || too_big(n)) {
		errno = ENOMEM;
		return NULL;
	}
	s = current_slot();
	if (n <= SMALL_MAX) {
		p = new_chunk(n);
		if (p)
			memset(p, 0, heap_usable(field_chunk(chunk_field(p))) - TRAILER);
	} else {
		p = heap_alloc_zeroed(n + TRAILER);
	}
	return likely(p) ? account(p, s, n) : NULL;
}

/*
 * Blocks of any alignment: glibc's memalign() rounds ALIGN as each of the
 * C library's functions does, and its chunk takes a trailer as any other.
 */
static void *alloc_aligned(size_t align, size_t n)
{
	struct counters_slot *s;
	void *p;

	if (align <= CHUNK_ALIGN)
		return malloc(n);
	if (too_big(n))
		return NULL;
	s = current_slot();
	p = heap_alloc_aligned(align, n + TRAILER);
	return likely(p) ? account(p, s, n) : NULL;
}

/* A block of N bytes for the contents of block P (B): moved, or P itself. */
static void *resize(void *p, const struct block *b, size_t n)
{
	struct thread_state *t = alloctag_self;
	size_t k = n <= SMALL_MAX ? small_class(n) : 0;
	void *moved;

	if (k && k == b->k)
		return p;			/* the chunk glibc would give */
	if (k && b->k && cache_enter(t)) {
		moved = cache_take(t, k);
		cache_leave(t);
		if (moved) {
			size_t kept = block_capacity(b);

			memcpy(moved, p, kept < n ? kept : n);
			release(t, p, b);
			return moved;
		}
	}
	return heap_resize(p, n + TRAILER);
}

/* realloc() of a block: P is not NULL. */
static __attribute__((noinline)) void *realloc_slow(void *p, size_t n)
{
	struct counters_slot *s, *old_slot;
	struct block b;
	size_t old_n;
	void *moved;

	if (!any_block(p, &b)) {
		/* glibc's block (or glibc says what is wrong with it): ours from now on */
		if (n == 0 || too_big(n) || alloctag_foreign_heap)
			return too_big(n) ? NULL : heap_resize_other(p, n);
		s = current_slot();
		moved = heap_resize_other(p, n + TRAILER);
		return moved ? account(moved, s, n) : NULL;
	}
	if (n == 0) {			/* as glibc: free and return NULL */
		free(p);
		return NULL;
	}
	if (too_big(n))
		return NULL;
	s = current_slot();
	old_slot = block_slot(&b);
	old_n = block_size(&b);
	moved = resize(p, &b, n);
	if (!moved)
		return NULL;
	/* Uncharged where it was charged, charged to this call's site. */
	uncharge(old_slot, old_n, alloctag_self);
	return account(moved, s, n);
}

/*
 * A small block of this thread's, B, moved to a chunk of class K for N
 * bytes charged to S: a cached chunk, or glibc's.
 */
static __attribute__((noinline)) void *realloc_move(struct thread_state *t, void *p,
						    struct block *b, struct counters_slot *s,
						    size_t n)
{
	size_t k = small_class(n), old_n = block_size(b), kept = block_capacity(b);
	struct counters_slot *old_slot = block_slot(b);
	void *moved = NULL;

	if (cache_enter(t)) {
		moved = cache_take(t, k);
		cache_leave(t);
	}
	if (!moved && !(moved = heap_alloc(class_request(k))))
		return NULL;
	memcpy(moved, p, kept < n ? kept : n);
	bump(&old_slot->live, -(int64_t)old_n);
	bump_release(&old_slot->freed_calls, 1);
	release(t, p, b);
	charge(s, n);
	trailer_write(moved, field_usable(chunk_field(moved)), s, n);
	return moved;
}

/*
 * realloc(NULL, n), as common as malloc in some programs, is malloc's fast
 * path.  The fast path: a small block of this thread's, to stay small: in
 * its chunk if its class does not change, else moved.  Anything else is
 * realloc_slow()'s.
 */
EXPORT void *realloc(void *p, size_t n)
{
	struct thread_state *t = alloctag_self;
	struct counters_slot *s, *old_slot;
	struct block b;

	if (!p)
		return malloc(n);
	if (unlikely(n - 1 >= SMALL_MAX) || unlikely(!small_block(p, &b)) ||
	    unlikely(!(s = known_slot(t))))
		return realloc_slow(p, n);
	old_slot = block_slot(&b);
	if (unlikely(old_slot->thread != t->number))
		return realloc_slow(p, n);
	if (small_class(n) != b.k)
		return realloc_move(t, p, &b, s, n);
	bump(&old_slot->live, -(int64_t)block_size(&b));
	bump_release(&old_slot->freed_calls, 1);
	charge(s, n);
	trailer_write(p, b.usable, s, n);
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
	void *p;

	if (!power_of_two(align) || align % sizeof(void *))
		return EINVAL;
	p = alloc_aligned(align, n);
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

/* All a program may use of a block: glibc's answer, less the trailer. */
EXPORT size_t malloc_usable_size(void *p)
{
	struct block b;

	if (!p)
		return 0;
	if (!any_block(p, &b))
		return field_plausible(p, chunk_field(p)) ? field_usable(chunk_field(p)) : 0;
	return trailer_capacity(b.word, b.usable);
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

void alloctag_heap_error(const char *what, const void *p)
{
	char line[160];
	int n = snprintf(line, sizeof(line), "alloctag: %s (%p)\n", what, p);

	if (n > 0) {
		ssize_t ignored = write(STDERR_FILENO, line, (size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1);

		(void)ignored;
	}
	abort();
}

/*
 * The untagged variants the plugin renames tagged calls to.  For the malloc
 * family they are the functions above.  For other C library functions they
 * call the function, whose allocations go through malloc above and charge
 * the tag current around the call.  Weak, so that a program may define its
 * own (a strdup of its own tagged by declaration gets an alias instead).
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

#define VARIANT __attribute__((weak, visibility("default")))

VARIANT char *strdup_noprof(const char *s) { return strdup(s); }
VARIANT char *strndup_noprof(const char *s, size_t n) { return strndup(s, n); }
VARIANT wchar_t *wcsdup_noprof(const wchar_t *s) { return wcsdup(s); }
VARIANT char *realpath_noprof(const char *path, char *resolved) { return realpath(path, resolved); }
VARIANT char *getcwd_noprof(char *buf, size_t size) { return getcwd(buf, size); }
VARIANT char *get_current_dir_name_noprof(void) { return get_current_dir_name(); }
VARIANT char *canonicalize_file_name_noprof(const char *path) { return canonicalize_file_name(path); }
VARIANT FILE *open_memstream_noprof(char **buf, size_t *size) { return open_memstream(buf, size); }
VARIANT FILE *open_wmemstream_noprof(wchar_t **buf, size_t *size) { return open_wmemstream(buf, size); }

VARIANT ssize_t getdelim_noprof(char **line, size_t *n, int delim, FILE *f)
{
	return getdelim(line, n, delim, f);
}

VARIANT ssize_t getline_noprof(char **line, size_t *n, FILE *f)
{
	return getline(line, n, f);
}

VARIANT int vasprintf_noprof(char **out, const char *fmt, va_list ap)
{
	return vasprintf(out, fmt, ap);
}

VARIANT int asprintf_noprof(char **out, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(out, fmt, ap);
	va_end(ap);
	return n;
}
