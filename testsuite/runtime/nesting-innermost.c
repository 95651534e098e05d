// args: --alloctag-innermost
/*
 * Kernel nesting (--alloctag-innermost, -DALLOCTAG_INNERMOST): the innermost
 * tagged call is charged, here the malloc inside the tagged wrapper.
 */
#include <alloctag.h>
#include <stdlib.h>
#include "escape.h"

void *xmalloc(size_t n) __alloc_tagged;

void *xmalloc(size_t n)
{
	return malloc(n);					// site 0/0 60/3 30
}

int main(void)
{
	void *(*indirect)(size_t) = xmalloc;

	free(escape(xmalloc(10)));
	free(escape(xmalloc(20)));
	free(escape(indirect(30)));
	return 0;
}
