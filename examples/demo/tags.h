/*
 * Given to alloctag-cc (--alloctag-tags=tags.h): tags xmalloc without
 * touching xalloc.c.  Each call to xmalloc is charged to its caller's line,
 * not to the malloc inside xmalloc.
 */
#include <stddef.h>
#include <alloctag.h>

void *xmalloc(size_t n) __alloc_tagged;
