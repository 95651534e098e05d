/*
 * Calls in code that is never run: gimplification drops constant-false
 * arms and the CFG drops what follows a return, before the pass runs.  The
 * kernel's alloc_hooks() macro still leaves its static, "used" tag there, so
 * the plugin tags these calls too; their counters stay zero.  Calls the front
 * end folds away ("0 && f()") have no tag either way.  A call in a shared
 * SAVE_EXPR ("f() ?: 1") is one call, not two.
 */
#include "tagtest.h"

static inline int dead_in_inline(int x)
{
	if (sizeof(long) == 1)
		return t_count(x);			// tag dead_in_inline calls=0
	return x;
}

static int nested(int k)
{
	int inner(int x) { if (0) t_touch(); return x + k; }	// tag inner calls=0
	return inner(1);
}

int main(int argc, char **argv)
{
	int r = 0;

	(void)argv;
	if (0)
		r += t_count(1);			// tag main calls=0
	switch (2) {
	case 1:
		t_touch();				// tag main calls=0
		break;
	default:
		r += t_count(2);			// tag main calls=1
	}
	while (0)
		t_touch();				// tag main calls=0
	r += 0 && t_count(3);
	r += t_count(5) ?: 1;				// tag main calls=1
	r += dead_in_inline(argc) + dead_in_inline(r) + nested(r);
	if (argc < 0)
		return t_count(4);			// tag main calls=0
	return r > 100;
	t_touch();					// tag main calls=0
}
