/*
 * Indirect calls through a pointer whose function type is that of a tagged
 * allocating function (t_alloc: void *(size_t)) get a tag of their own; so do
 * those through types opted in with the attribute.  Others are left alone.
 */
#include <stdlib.h>
#include "tagtest.h"

typedef void *(*alloc_ptr)(size_t);
typedef int (*count_fn)(int) __alloc_tagged;	/* opted in: t_count does not allocate */
typedef int (*other_fn)(int);			/* the same type: opted in too */

struct hooks {
	void *(*allocate)(size_t);
	void (*release)(void *);
	int (*count)(int);
	long (*not_matching)(size_t);
	struct { void *(*inner)(void *, size_t) __alloc_tagged; } nested;
};

static long ignore_size(size_t n) { return (long)n; }
static void *grow(void *p, size_t n) { (void)p; return t_alloc_noprof(n); }

int main(void)
{
	struct hooks h = { t_alloc_noprof, free, t_count_noprof, ignore_size, { grow } };
	alloc_ptr table[2] = { t_alloc_noprof, t_alloc_noprof };
	void *(*via_cast)(size_t) = (void *(*)(size_t))(void (*)(void))t_alloc_noprof;
	other_fn other = t_count_noprof;
	int i, n = 0;

	h.release(h.allocate(1));				// tag main calls=1
	for (i = 0; i < 2; i++)
		h.release(table[i](2));				// tag main calls=2
	h.release(via_cast(3));					// tag main calls=1
	n += h.count(1) + other(2);				// tag main calls=1 x2
	n += (int)h.not_matching(4);		/* void *(size_t) it is not */
	h.release(h.nested.inner(0, 5));			// tag main calls=1
	h.release(t_alloc(6));					// tag main calls=1
	return n == 0;
}
