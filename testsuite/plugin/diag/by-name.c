// args: -fplugin-arg-alloctag-tag=count,handler,alloc_fn:alloc_fn_raw,hooks,x_alloc -fplugin-arg-alloctag-tag-file=../tags/lib/by-name.tags
/*
 * Names in the list that are not functions: a variable or typedef of
 * function pointer type tags the indirect calls through its type, as the
 * attribute on it would (renaming them is an error); anything else is
 * ignored with a warning.  Each is reported once, at its first declaration.
 */
#include <stddef.h>
#include <alloctag.h>

extern int count;				/* { dg-warning "'count', tagged by name, is neither a function nor a function pointer; ignored" } */
extern int count;				/* (once) */
extern void *(*handler)(size_t);		/* fine: its calls are tagged */
typedef void *alloc_fn(size_t);			/* { dg-error "'alloc_fn', tagged by name as 'alloc_fn:alloc_fn_raw', is not a function: indirect calls through it are tagged, not renamed; drop ':alloc_fn_raw'" } */
struct hooks { int hooks; };			/* a struct tag or member is not a name the list looks at */
void *x_alloc(size_t n);

void *use(void)
{
	return handler(1) ?: x_alloc(2);
}
