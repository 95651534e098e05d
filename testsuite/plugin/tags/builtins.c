/*
 * The C library's allocators are GCC builtins: tagging them must not lose
 * what GCC knows about them (object size checking still sees the size), and
 * they are called under the variant's name.  GCC also deletes an allocation
 * nothing uses, as without the plugin: the blocks escape through a volatile.
 */
#include <stdlib.h>
#include <string.h>
#include "tagtest.h"

extern void *malloc(size_t) __alloc_tagged_as("t_malloc_raw");
extern void *calloc(size_t, size_t) __alloc_tagged_as("t_calloc_raw");
extern char *strdup(const char *) __alloc_tagged_as("t_strdup_raw");

static void *volatile sink;

int main(int argc, char **argv)
{
	char *p = malloc(10);					// tag main calls=1
	char *q = calloc(2, 8);					// tag main calls=1
	char *s = strdup(argv[0]);				// tag main calls=1

	(void)argc;
#ifdef __OPTIMIZE__	/* sizes are only tracked when optimizing */
	if (__builtin_object_size(p, 0) != 10 || __builtin_object_size(q, 0) != 16)
		return 1;
#endif
	sink = p;
	sink = q;
	sink = s;	/* GCC 15 deletes a strdup whose block is only freed */
	free(s);
	free(q);
	free(p);
	return 0;
}
