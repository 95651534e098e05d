/* Hooks declared, tag type never defined. */
struct alloc_tag;
struct alloc_tag *alloc_tag_save(struct alloc_tag *tag);
void alloc_tag_restore(struct alloc_tag *tag, struct alloc_tag *old);

void *i_alloc(unsigned long n) __attribute__((alloc_tagged));

void *use(void)
{
	return i_alloc(1);		/* { dg-error "call to 'i_alloc' cannot be tagged: 'struct alloc_tag' is incomplete; include 'alloctag.h'" } */
}
