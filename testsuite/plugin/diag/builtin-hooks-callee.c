/*
 * The hooks' stores are looked for in the functions they call, too, where
 * GCC can see them: a volatile store is fine, a plain one is an error.
 */
#include <stddef.h>

struct codetag { unsigned int flags, lineno; const char *modname, *function, *filename; };
struct alloc_tag { struct codetag ct; };
extern struct alloc_tag *current_tag;

static void set_current(struct alloc_tag *tag)
{
	current_tag = tag;			/* { dg-error "'set_current' makes a plain store, which GCC deletes around a call to the built-in 'malloc'" } */
}

static inline struct alloc_tag *alloc_tag_save(struct alloc_tag *tag)
{
	struct alloc_tag *old = current_tag;

	*(struct alloc_tag *volatile *)&current_tag = tag;
	return old;
}

static inline void alloc_tag_restore(struct alloc_tag *tag, struct alloc_tag *old)
{
	(void)tag;
	set_current(old);
}

void *malloc(size_t n);
void *zalloc(size_t n) __attribute__((alloc_tagged("malloc")));

void *use(void)
{
	return zalloc(1);			/* { dg-note "'zalloc' is tagged here and calls 'malloc'" } */
}
