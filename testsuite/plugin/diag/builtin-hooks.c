// args: -fplugin-arg-alloctag-tag=malloc,strdup
/*
 * Hooks with plain stores, as the kernel's swap(current->alloc_tag, tag):
 * around a call to a GCC built-in, which GCC knows reads no memory, the
 * save's store is dead to GCC and deleted.  One error, at the store, and
 * the first call; a function that is not a built-in is fine.
 */
#include <stddef.h>

struct codetag { unsigned int flags, lineno; const char *modname, *function, *filename; };
struct alloc_tag { struct codetag ct; };
extern struct alloc_tag *current_tag;

static inline struct alloc_tag *alloc_tag_save(struct alloc_tag *tag)
{
	struct alloc_tag *old = current_tag;	/* a local: fine */

	current_tag = tag;			/* { dg-error "'alloc_tag_save' makes a plain store, which GCC deletes around a call to the built-in 'malloc' \(it reads no memory GCC knows of\): the allocation would be charged to another tag" } */
	return old;
}

static inline void alloc_tag_restore(struct alloc_tag *tag, struct alloc_tag *old)
{
	(void)tag;
	current_tag = old;
}

void *malloc(size_t n);
char *strdup(const char *s);
void *kmalloc(size_t n) __attribute__((alloc_tagged));

void *use(void)
{
	void *p = kmalloc(1);
	void *q = malloc(2);			/* { dg-note "'malloc' is tagged here under its own name" } */
	char *s = strdup("three");
	return p ?: q ?: s;
}
