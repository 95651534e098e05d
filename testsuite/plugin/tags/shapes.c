/* Calls in every kind of place: each direct call site gets exactly one tag. */
#include <stdlib.h>
#include "tagtest.h"

#define ALLOC_TWICE(n) (t_alloc(n), t_alloc(n))	/* the use's line, as __LINE__ */
#define WRAP(x) (x)

static void *in_static(int n)
{
	return t_alloc(n);				// tag in_static calls=3
}

static inline int in_inline(int x)
{
	return t_count(x);				// tag in_inline calls=2
}

static void *tail(size_t n)
{
	return t_alloc(n);				// tag tail calls=1
}

static void nested_args(void)
{
	t_free(t_alloc(t_count(1)));			// tag nested_args calls=1 x2
}

int main(int argc, char **argv)
{
	void *p = 0;
	int i, n = 0;
	struct big b;

	(void)argv;
	for (i = 0; i < 5; i++)
		t_free(t_alloc(i + 1));			// tag main calls=5
	while (n < 3)
		n = t_count(n);				// tag main calls=3
	if (argc > 100)
		p = t_alloc(1);				// tag main calls=0
	else
		t_touch();				// tag main calls=1
	n += argc > 0 ? t_count(1) : t_count(2);	// tag main calls=1; tag main calls=0
	n += ({ int s = t_count(n); s * 2; });		// tag main calls=1
	t_touch();					// tag main calls=1
	(void)t_count(0);				// tag main calls=1
	t_free(ALLOC_TWICE(8));				// tag main calls=1 x2
	t_free(WRAP(t_alloc(4)));			// tag main calls=1
	for (i = 0; i < 3; i++)
		t_free(in_static(i));
	n += in_inline(1) + in_inline(2);
	t_free(tail(3));
	nested_args();
	b = t_big(7);					// tag main calls=1
	n += (int)b.a[7];
	t_free(t_named(3));				// tag main calls=1
	n += t_vararg("%d %s", 1, "x");			// tag main calls=1
	switch (argc) {
	case 1: p = t_alloc(1); break;			// tag main calls=1
	default: p = t_alloc(2); break;			// tag main calls=0
	}
	t_free(p);
	return n == 0;
}
