/*
 * libnames.so, built with alloctag-cc -shared: its allocation sites show in
 * the program's report with the module name [libnames.so].
 */
#include <stdlib.h>
#include <string.h>
#include "names.h"

struct names {
	char **items;
	size_t count, cap;
};

struct names *names_new(void)
{
	return calloc(1, sizeof(struct names));
}

void names_add(struct names *set, const char *name)
{
	if (set->count == set->cap) {
		set->cap = set->cap ? 2 * set->cap : 8;
		set->items = realloc(set->items, set->cap * sizeof(*set->items));
	}
	set->items[set->count++] = strdup(name);
}

void names_free(struct names *set)
{
	/* forgets set->items[] strings past the first: a leak inside the library */
	if (set->count)
		free(set->items[0]);
	free(set->items);
	free(set);
}
