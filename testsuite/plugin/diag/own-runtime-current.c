/*
 * runtime= (alloctag-cc) makes liballoctag's hooks for a unit without them,
 * and their current tag with them: a unit that declares that variable but
 * not the hooks would have two of it.  One error, at its declaration.
 */
// args: -fplugin-arg-alloctag-runtime=outermost
#include <stddef.h>

struct alloc_tag;
extern __thread struct alloc_tag *alloctag_current;	/* { dg-error "'alloctag_current' is declared but 'alloc_tag_save' is not; include 'alloctag.h', which declares both" } */

void *r_alloc(size_t n) __attribute__((alloc_tagged));

void *use(void)
{
	void *p = r_alloc(1);
	return p ?: r_alloc(2);
}
