/* Object sizes GCC knows of fresh blocks: the same with alloctag-cc (warnings.sh). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void show(const char *what, size_t known, size_t dynamic)
{
	printf("%s %zd %zd\n", what, (ssize_t)known, (ssize_t)dynamic);
}
#if __has_builtin(__builtin_dynamic_object_size)	/* GCC 12 */
#define SHOW(what, p) show(what, __builtin_object_size(p, 0), __builtin_dynamic_object_size(p, 0))
#else
#define SHOW(what, p) show(what, __builtin_object_size(p, 0), -2)
#endif

int main(int argc, char **argv)
{
	char *m = malloc(10), *c = calloc(3, 4), *r = realloc(NULL, 20), *a = aligned_alloc(16, 32);
	char *d = strdup("abc"), *n = strndup(argv[0], 2), *v = malloc(argc + 5);

	SHOW("malloc", m);
	SHOW("calloc", c);
	SHOW("realloc", r);
	SHOW("aligned_alloc", a);
	SHOW("strdup", d);
	SHOW("strndup", n);
	SHOW("malloc(argc + 5)", v);
	free(m), free(c), free(r), free(a), free(d), free(n), free(v);
	return 0;
}
