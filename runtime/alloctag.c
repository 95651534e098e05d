/* SPDX-License-Identifier: MIT */
/*
 * alloctag runtime: the C library's allocators, charging the current tag.
 *
 * malloc and its family are replaced (the program's definitions interpose
 * glibc's for every caller, libc included) and take their memory from
 * glibc's __libc_malloc and friends, with a 16-byte header in front of each
 * block: the slot charged and the size asked for.  A free, from any thread,
 * finds there what to uncharge.  Blocks allocated where no tag is current
 * are charged to the "untagged" site, so every block has a header.
 *
 * Freed small blocks are kept in a per-thread cache, by glibc chunk size,
 * and reused: the fast path of a malloc/free pair is this file's, with no
 * call into glibc, which pays for the accounting.  A realloc between small
 * sizes takes a cached block too.  A cache grown past CACHE_BYTES is given
 * back to glibc whole: what a burst of frees left in classes no longer asked
 * for would otherwise fill it for good.
 *
 * The plugin renames tagged calls to the _noprof variants: for these
 * functions they are the same functions, as the charging happens here.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wchar.h>
#include "alloctag_internal.h"

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
extern void __libc_free(void *);

EXPORT __thread struct alloc_tag *alloctag_current TLS_IE;

#define HEADER		sizeof(struct header)

_Static_assert(sizeof(struct header) == 16, "malloc's 16-byte alignment needs a 16-byte header");

static inline struct header *header_of(void *p)
{
	return (struct header *)p - 1;
}

/* Thread T's slot for the current tag. */
static inline struct slot *current_slot(struct thread_state *t)
{
	struct alloc_tag *tag = alloctag_current;
	uint32_t id;

	if (!tag)
		tag = &alloctag_untagged;
	id = __atomic_load_n(&tag->counters->id, __ATOMIC_ACQUIRE);
	if (likely(id < t->cap)) {
		struct slot *s = t->slots[id];

		if (likely(s))
			return s;
	}
	return alloctag_slot_slow(tag);
}

static inline void charge(struct slot *s, size_t n)
{
	int64_t live = s->live + (int64_t)n;

	s->calls++;
	s->bytes += n;
	s->live = live;
	live -= (int64_t)atomic_load_explicit(&s->remote_bytes, memory_order_relaxed);
	if (live > s->peak)
		s->peak = live;
}

static __attribute__((noinline)) void uncharge_remote(struct slot *s, size_t n)
{
	atomic_fetch_add_explicit(&s->remote_calls, 1, memory_order_relaxed);
	atomic_fetch_add_explicit(&s->remote_bytes, n, memory_order_relaxed);
}

static inline void uncharge(struct slot *s, size_t n, struct thread_state *t)
{
	if (likely(s->owner == t)) {
		s->freed_calls++;
		s->live -= (int64_t)n;
	} else {
		uncharge_remote(s, n);
	}
}

/* Header written, counters charged: the caller's pointer. */
static inline void *account(struct header *h, size_t n)
{
	struct slot *s = current_slot(alloctag_self);

	charge(s, n);
	h->slot = s;
	h->size = n;
	return h + 1;
}

/* A free small block of class K from this thread's cache, or NULL. */
static inline struct header *cached_block(struct thread_state *t, size_t k)
{
	struct header *h = t->cache[k];

	if (h) {
		t->cache[k] = h->next;
		t->cache_bytes -= k << 4;
	}
	return h;
}

static inline void cache_block(struct thread_state *t, struct header *h, size_t k)
{
	h->next = t->cache[k];
	t->cache[k] = h;
	t->cache_bytes += k << 4;
}

/*
 * Keep a freed block for reuse, or give it back to glibc.  No flush here:
 * T may be the boot state, shared by every thread that has not allocated
 * yet, whose cache must stay empty (it looks full).
 */
static inline void release_block(struct thread_state *t, struct header *h, size_t n)
{
	if (likely(n <= SMALL_MAX) && likely(t->cache_bytes < CACHE_BYTES)) {
		cache_block(t, h, small_class(n));
	} else {
		__libc_free(h);
	}
}

void alloctag_flush_cache(struct thread_state *t)
{
	for (size_t k = 0; k < SMALL_CLASSES; k++) {
		struct header *h;

		while ((h = cached_block(t, k)))
			__libc_free(h);
	}
}

static inline int too_big(size_t n, size_t extra, size_t *total)
{
	if (unlikely(n > PTRDIFF_MAX - extra)) {
		errno = ENOMEM;
		return 1;
	}
	*total = n + extra;
	return 0;
}

/* A chunk for N bytes and the header: cached, or glibc's. */
static inline struct header *new_block(size_t n)
{
	size_t total;

	if (likely(n <= SMALL_MAX)) {
		size_t k = small_class(n);
		struct header *h = cached_block(alloctag_self, k);

		return h ? h : __libc_malloc(small_request(k));
	}
	if (too_big(n, HEADER, &total))
		return NULL;
	return __libc_malloc(total);
}

static __attribute__((noinline)) void *malloc_slow(size_t n)
{
	struct header *h = new_block(n);

	if (unlikely(!h))
		return NULL;
	return account(h, n);
}

/* A small block from glibc, the cache of its class being empty. */
static __attribute__((noinline)) void *malloc_uncached(struct slot *s, size_t n, size_t k)
{
	struct header *h = __libc_malloc(small_request(k));

	if (unlikely(!h))
		return NULL;
	charge(s, n);
	h->slot = s;
	h->size = n;
	return h + 1;
}

/*
 * The fast path: a known slot, a cached block, no call, no stack frame.  An
 * empty cache costs a call to glibc; anything else is malloc_slow()'s.
 */
EXPORT void *malloc(size_t n)
{
	struct thread_state *t = alloctag_self;
	struct alloc_tag *tag = alloctag_current;
	struct header *h;
	struct slot *s;
	size_t k;
	uint32_t id;

	if (!tag)
		tag = &alloctag_untagged;
	if (unlikely(n > SMALL_MAX))
		return malloc_slow(n);
	id = __atomic_load_n(&tag->counters->id, __ATOMIC_ACQUIRE);
	if (unlikely(id >= t->cap || !(s = t->slots[id])))
		return malloc_slow(n);
	k = small_class(n);
	h = t->cache[k];
	if (unlikely(!h))
		return malloc_uncached(s, n, k);
	t->cache[k] = h->next;
	t->cache_bytes -= k << 4;
	charge(s, n);
	h->slot = s;
	h->size = n;
	return h + 1;
}

/* Over-aligned blocks, large blocks, blocks of slots other threads own. */
static __attribute__((noinline)) void free_slow(struct header *h, struct thread_state *t)
{
	size_t n = h->size;

	if (unlikely(n & ALIGNED)) {
		uncharge(h->slot, n & ~ALIGNED, t);
		__libc_free(((void **)h)[-1]);
		return;
	}
	uncharge(h->slot, n, t);
	release_block(t, h, n);
}

/*
 * The fast path: the freeing thread owns the slot, the block is small; it
 * is cached, or given back to glibc when the cache is full.
 */
EXPORT void free(void *p)
{
	struct thread_state *t = alloctag_self;
	struct header *h;
	struct slot *s;
	size_t n;

	if (unlikely(!p))
		return;
	h = header_of(p);
	n = h->size;
	s = h->slot;
	if (unlikely(n > SMALL_MAX || s->owner != t)) {
		free_slow(h, t);
		return;
	}
	s->freed_calls++;
	s->live -= (int64_t)n;
	if (unlikely(t->cache_bytes >= CACHE_BYTES))
		alloctag_flush_cache(t);	/* T owns a slot: not the boot state */
	cache_block(t, h, small_class(n));
}

EXPORT void *calloc(size_t count, size_t size)
{
	struct header *h;
	size_t n, total;

	if (unlikely(__builtin_mul_overflow(count, size, &n))) {
		errno = ENOMEM;
		return NULL;
	}
	if (n <= SMALL_MAX) {
		h = cached_block(alloctag_self, small_class(n));
		if (h)
			memset(h + 1, 0, n);
		else
			h = __libc_calloc(1, small_request(small_class(n)));
	} else {
		if (too_big(n, HEADER, &total))
			return NULL;
		h = __libc_calloc(1, total);
	}
	if (unlikely(!h))
		return NULL;
	return account(h, n);
}

/*
 * Over-aligned blocks: the caller's pointer is ALIGN past the start of the
 * chunk glibc returns, the header just before it, and the chunk's start
 * just before the header.  They cost ALIGN bytes, not 16.
 */
static void *alloc_aligned(size_t align, size_t n)
{
	struct header *h;
	size_t total;
	char *chunk;

	if (align <= HEADER)
		return malloc(n);
	if (too_big(n, align, &total))
		return NULL;
	chunk = __libc_memalign(align, total);
	if (unlikely(!chunk))
		return NULL;
	h = header_of(chunk + align);
	((void **)h)[-1] = chunk;
	account(h, n);
	h->size |= ALIGNED;
	return h + 1;
}

/* realloc() of a block: P is not NULL. */
static __attribute__((noinline)) void *realloc_block(void *p, size_t n)
{
	struct thread_state *t = alloctag_self;
	struct header *h = header_of(p), *moved;
	struct slot *old_slot = h->slot;
	size_t old_n = h->size, total;

	if (n == 0) {			/* as glibc: free and return NULL */
		free(p);
		return NULL;
	}
	if (unlikely(old_n & ALIGNED)) {
		void *q = malloc(n);

		if (q) {
			old_n &= ~ALIGNED;
			memcpy(q, p, old_n < n ? old_n : n);
			free(p);
		}
		return q;
	}
	if (n <= SMALL_MAX) {
		/* Small blocks stay whole chunks of their class, to be cached later. */
		size_t k = small_class(n);

		if (old_n <= SMALL_MAX && small_class(old_n) == k) {
			moved = h;	/* the chunk fits: glibc would keep it too */
		} else if (old_n <= SMALL_MAX && (moved = cached_block(t, k))) {
			memcpy(moved + 1, p, old_n < n ? old_n : n);
			release_block(t, h, old_n);
		} else if (!(moved = __libc_realloc(h, small_request(k)))) {
			return NULL;
		}
	} else {
		if (too_big(n, HEADER, &total) || !(moved = __libc_realloc(h, total)))
			return NULL;
	}
	/* Uncharged where it was charged, charged to this call's site. */
	uncharge(old_slot, old_n, t);
	return account(moved, n);
}

/* realloc(NULL, n), as common as malloc in some programs, is malloc's fast path. */
EXPORT void *realloc(void *p, size_t n)
{
	if (!p)
		return malloc(n);
	return realloc_block(p, n);
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

EXPORT void *aligned_alloc(size_t align, size_t n)
{
	if (!power_of_two(align)) {
		errno = EINVAL;
		return NULL;
	}
	return alloc_aligned(align, n);
}

EXPORT void *memalign(size_t align, size_t n)
{
	/* glibc rounds other alignments up to a power of two */
	size_t a = 1;

	while (a < align && a)
		a <<= 1;
	if (!a) {
		errno = EINVAL;
		return NULL;
	}
	return alloc_aligned(a, n);
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

EXPORT void *pvalloc(size_t n)
{
	size_t page = sysconf(_SC_PAGESIZE);

	if (n > PTRDIFF_MAX - page) {
		errno = ENOMEM;
		return NULL;
	}
	return alloc_aligned(page, (n + page - 1) & ~(page - 1));
}

/* The size asked for: never less than usable, and all a program may use. */
EXPORT size_t malloc_usable_size(void *p)
{
	return p ? header_of(p)->size & ~ALIGNED : 0;
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
