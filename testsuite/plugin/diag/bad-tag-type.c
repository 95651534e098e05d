/* A tag type without the kernel's codetag layout. */
struct alloc_tag { int lineno; };		/* { dg-error "'struct alloc_tag' needs a 'struct codetag ct' field" } */
struct alloc_tag *alloc_tag_save(struct alloc_tag *tag);
void alloc_tag_restore(struct alloc_tag *tag, struct alloc_tag *old);

void *b_alloc(unsigned long n) __attribute__((alloc_tagged));

void *use(void)
{
	return b_alloc(1);
}
