/* SPDX-License-Identifier: MIT */
/*
 * alloctag runtime: base.h's functions that are not inline: a held spin
 * lock waited for, and a heap error's end.  Nothing here allocates.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "base.h"

#define SPINS	100		/* before yielding the CPU to the holder */

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ volatile("yield" ::: "memory");
#endif
}

void alloctag_spin_lock(spinlock_t *l)
{
	for (int spins = 0;; spins++) {
		int free_lock = 0;

		if (!load_relaxed(&l->held) &&
		    atomic_compare_exchange_weak_explicit(&l->held, &free_lock, 1,
							  memory_order_acquire, memory_order_relaxed))
			return;
		if (spins >= SPINS)
			sched_yield();
		else
			cpu_relax();
	}
}

void alloctag_heap_error(const char *what, const void *p)
{
	char line[192];
	int n = snprintf(line, sizeof(line), "alloctag: %s (%p)\n", what, p);

	if (n > 0) {
		ssize_t ignored = write(STDERR_FILENO, line, (size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1);

		(void)ignored;
	}
	abort();
}
