// args: -include lib/by-declaration.h
// files: lib/by-declaration-lib.c
/*
 * xmalloc is tagged by a forced-in declaration only: its definition in
 * another unit gets xmalloc_noprof as an alias, this unit calls that.
 * The outermost tagged call is charged: the sites inside xmalloc and
 * xstrdup only count what is called with no tag current.
 */
#include <stdlib.h>
#include "tagtest.h"

static void *local_alloc(size_t n) __alloc_tagged;
static void *local_alloc(size_t n)
{
	return xmalloc(n);			// tag local_alloc calls=0
}

int main(void)
{
	free(xmalloc(1));			// tag main calls=1
	free(xstrdup("abc"));			// tag main calls=1
	free(local_alloc(2));			// tag main calls=1
	void *(*indirect)(size_t) = xmalloc;	/* the address: xmalloc itself */
	free(indirect(3));			// tag main calls=1
	return 0;
}
