/* A tagged call in a unit that does not declare the hooks: one error, at the first call. */
#include <stddef.h>

void *r_alloc(size_t n) __attribute__((alloc_tagged));

void *use(void)
{
	void *p = r_alloc(1);		/* { dg-error "call to 'r_alloc' cannot be tagged: 'alloc_tag_save' is not declared; include 'alloctag.h'" } */
	return p ?: r_alloc(2);
}
