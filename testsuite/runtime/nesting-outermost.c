// args: -fplugin-arg-alloctag-no-indirect
/*
 * Default nesting: the outermost tagged call is charged.  xmalloc is tagged
 * by its declaration: its callers' lines are charged, not the malloc inside.
 */
#include <alloctag.h>
#include <stdlib.h>
#include "escape.h"

void *xmalloc(size_t n) __alloc_tagged;

void *xmalloc(size_t n)
{
	return malloc(n);	/* charged only with no tag current */	// site 0/0 30/1 30
}

int main(void)
{
	void *(*indirect)(size_t) = xmalloc;

	free(escape(xmalloc(10)));				// site 0/0 10/1 10
	free(escape(xmalloc(20)));				// site 0/0 20/1 20
	free(escape(indirect(30)));	/* untagged (no-indirect): the malloc in xmalloc is charged */
	return 0;
}
