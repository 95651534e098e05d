/*
 * realloc charges its result to its own site and uncharges the old block where
 * it was charged; through a wrapper (grow), to the wrapper's caller's line.
 */
#include <stdlib.h>
#include <string.h>
#include "escape.h"

static void *grow(void *p, size_t n)
{
	return realloc(p, n);
}

int main(void)
{
	char *p = malloc(100);				// site 0/0 100/1 100
	void *(*indirect_malloc)(size_t) = malloc;
	void *u;

	memset(p, 1, 100);
	p = grow(p, 200);		/* grows, may move: 100 uncharged from the malloc line */	// site 0/0 200/1 200
	p = grow(p, 100);		/* shrinks */	// site 0/0 100/1 100
	p = grow(p, 300);						// site 0/0 300/1 300
	if (p[0] != 1)
		return 1;
	p = realloc(p, 0);		/* frees: the site never allocates, never shows */
	if (p)
		return 2;
	p = realloc(NULL, 50);				// site 0/0 50/1 50
	free(escape(p));
	u = indirect_malloc(64);	/* malloc's type: tagged too */	// site 0/0 64/1 64
	u = realloc(u, 128);				// site 0/0 128/1 128
	free(u);
	return !grow(NULL, 300);	/* left live */			// site 300/1 300/1 300
}
