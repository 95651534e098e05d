/*
 * runtime= (alloctag-cc) makes liballoctag's hooks for a unit that declares
 * no save hook: one that declares the restore hook alone would have two of
 * it.  One error, at its declaration.
 */
// args: -fplugin-arg-alloctag-runtime=innermost
#include <stddef.h>

struct alloc_tag;
void alloc_tag_restore(struct alloc_tag *tag, struct alloc_tag *old);	/* { dg-error "'alloc_tag_restore' is declared but 'alloc_tag_save' is not; include 'alloctag.h', which declares both" } */

void *r_alloc(size_t n) __attribute__((alloc_tagged));

void *use(void)
{
	return r_alloc(1);
}
