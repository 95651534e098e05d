/* The external definition of c99_alloc, and so of its variant's alias. */
#include "c99-inline.h"

extern void *c99_alloc(size_t n);
