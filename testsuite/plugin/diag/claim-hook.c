/*
 * With auto, the user's code of a unit with implied tags makes its tags
 * current with the claim hook, when the unit declares one: shaped as the save
 * hook, or an error at its declaration.
 */
// args: -fplugin-arg-alloctag-auto -fplugin-arg-alloctag-claim=my_claim
#include <alloctag.h>
#include <stddef.h>

int my_claim(struct alloc_tag *tag);	/* { dg-error "'my_claim' must be declared as 'alloc_tag_save' is" } */

void *c_alloc(size_t n) __alloc_tagged;

void *use(void)
{
	return c_alloc(1);
}
