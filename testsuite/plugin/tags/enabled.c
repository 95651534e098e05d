// args: -fplugin-arg-alloctag-enabled=tags_on
/*
 * enabled=: a tag is current only while the predicate holds, as Linux 7's
 * alloc_hooks_tag() makes it with mem_alloc_profiling_enabled(); the call is
 * made either way (with -fexceptions too, its landing pad on both paths),
 * and its result read after the paths join.
 */
#include "tagtest.h"

static volatile int on = 1;
void *kept;

static inline int tags_on(void)
{
	return on;
}

int main(void)
{
	void *p;

	t_touch();					// tag main calls=1
	on = 0;
	t_touch();					// tag main calls=0
	on = 1;
	p = t_alloc(8);					// tag main calls=1
	t_free(p);
	/* a result the gimplifier holds in a temporary (an SSA name) */
	kept = t_alloc(8);				// tag main calls=1
	if (!kept)
		return 1;
	t_free(kept);
	on = 0;
	/* the calls made while it did not: */		// untagged calls=2
	return t_count(0);				// tag main calls=0
}
