/* A returns_twice function cannot have code inserted before its call. */
#include <alloctag.h>

int rt_save(void *env) __alloc_tagged __attribute__((returns_twice));

int use(void *env)
{
	return rt_save(env);		/* { dg-warning "call to 'rt_save' is not tagged: it returns twice" } */
}
