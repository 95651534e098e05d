/* An ordinary library: no annotation, never calls its own allocators. */
#include <stdlib.h>
#include <string.h>
#include "tagtest.h"

void *xmalloc(size_t n)
{
	t_touch();			// tag xmalloc calls=0
	return malloc(n);
}

char *xstrdup(const char *s)
{
	char *d = xmalloc(strlen(s) + 1);	// tag xstrdup calls=0
	return strcpy(d, s);
}
