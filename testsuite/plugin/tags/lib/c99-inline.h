/* A C99 inline function: each unit has the inline body, one has the extern definition. */
#include <stddef.h>
#include "tagtest.h"

inline void *c99_alloc(size_t n) __alloc_tagged;
inline void *c99_alloc(size_t n)
{
	return t_alloc_noprof(n);
}
