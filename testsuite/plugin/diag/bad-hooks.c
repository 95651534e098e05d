/* Hooks of the wrong shape are reported where they are declared. */
struct alloc_tag;
int alloc_tag_save(int tag);			/* { dg-error "'alloc_tag_save' must take a 'struct alloc_tag .' and return the tag it replaces" } */
void alloc_tag_restore(struct alloc_tag *tag, struct alloc_tag *old);

void *h_alloc(unsigned long n) __attribute__((alloc_tagged));

void *use(void)
{
	return h_alloc(1);
}
