// args: -fplugin-arg-alloctag-indirect-type=lib_alloc,lib_count -fplugin-arg-alloctag-no-indirect
/* no-indirect: no indirect call is tagged, types opted in included. */
#include <stdlib.h>
#include "tagtest.h"

typedef void *(*lib_alloc)(size_t);
typedef int lib_count(int);

int main(void)
{
	lib_alloc a = t_alloc_noprof;
	lib_count *c = t_count_noprof;

	free(a(1));
	return c(1) == 0;				// untagged calls=2
}
