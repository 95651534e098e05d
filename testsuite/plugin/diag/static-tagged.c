// args: -Wall -Wextra
/* Static tagged functions: declared only (a forced-in header), or with their static variant defined. */
#include <stddef.h>
#include <alloctag.h>

static void *never_defined(size_t n) __alloc_tagged;		/* no warning: nothing uses it */
static void *pool_alloc(size_t n) __alloc_tagged;		/* no warning: calls go to the variant */
static void *pool_alloc_noprof(size_t n) { static char pool[64]; return n <= 64 ? pool : 0; }

void *use(void)
{
	return pool_alloc(8);
}

/* Its address taken at file scope: it is still used, and still undefined. */
static void *addr_taken(size_t n) __alloc_tagged;		/* { dg-warning "'addr_taken' used but never defined" } */
void *(*pointer)(size_t) = addr_taken;
