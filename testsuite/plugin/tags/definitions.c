// files: lib/c99-inline.c
/*
 * Where the tagged function is defined decides what its variant is: an
 * alias of a definition here (plain, weak, itself an alias, static and
 * defined after its calls), or the external definition of a C99 inline
 * function in another unit.
 */
#include <stdlib.h>
#include "tagtest.h"
#include "lib/c99-inline.h"

void *real_alloc(size_t n)
{
	return t_alloc_noprof(n);
}

void *alias_alloc(size_t n) __attribute__((alias("real_alloc"))) __alloc_tagged;
__attribute__((weak)) void *weak_alloc(size_t n) __alloc_tagged;
static void *late_alloc(size_t n) __alloc_tagged;

__attribute__((weak)) void *weak_alloc(size_t n)
{
	return t_alloc_noprof(n);
}

int main(void)
{
	free(alias_alloc(1));				// tag main calls=1
	free(weak_alloc(2));				// tag main calls=1
	free(late_alloc(3));				// tag main calls=1
	free(c99_alloc(4));				// tag main calls=1
	return 0;
}

static void *late_alloc(size_t n)
{
	return t_alloc_noprof(n);
}
