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

/* Its address taken at file scope before a function body: still used. */
static void *taken_early(size_t n) __alloc_tagged;		/* { dg-warning "'taken_early' used but never defined" } */
void *(*early)(size_t) = taken_early;
void *use_again(void) { return pool_alloc(16); }

/* Called (the call goes to the variant) and its address taken in one body: still used. */
static void *taken_in_body(size_t n) __alloc_tagged;		/* { dg-warning "'taken_in_body' used but never defined" } */
static void *taken_in_body_noprof(size_t n) { return pool_alloc_noprof(n); }
void *(*call_and_take(void))(size_t) { return taken_in_body(1) ? taken_in_body : 0; }

/* Its address in a local static's initializer: still used. */
static void *taken_in_local(size_t n) __alloc_tagged;		/* { dg-warning "'taken_in_local' used but never defined" } */
void *(*local(void))(size_t) { static void *(*p)(size_t) = taken_in_local; return p; }

/* Called in several bodies, in a nested call, and in code never run: not used. */
static void *only_called(size_t n) __alloc_tagged;		/* no warning */
static void *only_called_noprof(size_t n) { return pool_alloc_noprof(n); }
void *call_twice(void) { return only_called(only_called(1) ? 2 : 3); }
void *call_never(void) { if (0) return only_called(4); return 0; }
