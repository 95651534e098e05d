#include <stdio.h>
#include <stdlib.h>
#include "xalloc.h"

void *xmalloc(size_t n)
{
	void *p = malloc(n);

	if (!p) {
		fprintf(stderr, "out of memory\n");
		exit(1);
	}
	return p;
}
