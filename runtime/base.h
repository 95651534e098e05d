/* SPDX-License-Identifier: MIT */
/*
 * base.h: the bottom of the runtime, included by every part of it and
 * including none: visibility, branch hints, the one atomics style, the
 * debug build's assertions, and how a heap error ends.
 *
 * Atomics: <stdatomic.h> only, through the helpers below; every variable
 * two threads touch is _Atomic and every access to one says its order.
 * A counter only its own thread writes is bumped with a load and a store
 * (bump), never a locked add.
 *
 * Assertions (debug_assert) on the invariants exist in the ALLOCTAG_DEBUG
 * build only (make check runs the runtime tests with it): a failed one says
 * where on stderr and aborts.  Checks that protect the heap against the
 * program's errors are not assertions: they are in every build and end in
 * alloctag_heap_error(), as glibc's end in malloc_printerr().
 */
#ifndef ALLOCTAG_BASE_H
#define ALLOCTAG_BASE_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)
#define INTERNAL	__attribute__((visibility("hidden")))
#define EXPORT		__attribute__((visibility("default")))
#define TLS_IE		__attribute__((tls_model("initial-exec")))
#define NOINLINE	__attribute__((noinline))
#define COLD		__attribute__((noinline, cold))

#define load_relaxed(p)		atomic_load_explicit((p), memory_order_relaxed)
#define load_acquire(p)		atomic_load_explicit((p), memory_order_acquire)
#define store_relaxed(p, v)	atomic_store_explicit((p), (v), memory_order_relaxed)
#define store_release(p, v)	atomic_store_explicit((p), (v), memory_order_release)
#define add_relaxed(p, v)	atomic_fetch_add_explicit((p), (v), memory_order_relaxed)
#define exchange_acquire(p, v)	atomic_exchange_explicit((p), (v), memory_order_acquire)
#define exchange_acq_rel(p, v)	atomic_exchange_explicit((p), (v), memory_order_acq_rel)
#define cas_release(p, old, v)	atomic_compare_exchange_weak_explicit((p), (old), (v), \
					memory_order_release, memory_order_relaxed)
#define cas_acquire(p, old, v)	atomic_compare_exchange_strong_explicit((p), (old), (v), \
					memory_order_acquire, memory_order_relaxed)
/* A counter only this thread writes: a load and a store, not a locked add. */
#define bump(p, v)		store_relaxed((p), load_relaxed(p) + (v))
#define bump_release(p, v)	store_release((p), load_relaxed(p) + (v))

#ifdef ALLOCTAG_DEBUG
void alloctag_assert_fail(const char *expr, const char *file, int line) INTERNAL
	__attribute__((noreturn, cold));
#define debug_assert(e)	((e) ? (void)0 : alloctag_assert_fail(#e, __FILE__, __LINE__))
#else
#define debug_assert(e)	((void)0)
#endif

/*
 * A heap error in the program (a double free, a pointer that is no block,
 * a corrupted free list): "alloctag: WHAT (P)" on stderr, then abort(), as
 * glibc ends its own.  WHAT names the function as glibc's messages do
 * ("free(): double free detected").
 */
void alloctag_heap_error(const char *what, const void *p) INTERNAL __attribute__((noreturn, cold));

/* A spin lock for short sections off the fast paths (yields when held long). */
typedef struct { _Atomic int held; } spinlock_t;
#define SPINLOCK_INIT	{ 0 }
void alloctag_spin_lock(spinlock_t *l) INTERNAL;

static inline void spin_unlock(spinlock_t *l)
{
	store_release(&l->held, 0);
}

static inline void spin_lock(spinlock_t *l)
{
	int free_lock = 0;

	if (unlikely(!atomic_compare_exchange_weak_explicit(&l->held, &free_lock, 1,
			memory_order_acquire, memory_order_relaxed)))
		alloctag_spin_lock(l);
}

/* After fork, in the child: the lock its one thread held across fork, free. */
static inline void spin_reset(spinlock_t *l)
{
	store_relaxed(&l->held, 0);
}

#endif /* ALLOCTAG_BASE_H */
