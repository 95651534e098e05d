// args: -fplugin-arg-alloctag-indirect-type=lib_alloc,lib_count
/* Types opted in from the command line (lua_Alloc, SQLite's xMalloc): no edit to the library. */
#include <stdlib.h>
#include "tagtest.h"

typedef void *(*lib_alloc)(size_t);
typedef int lib_count(int);

int main(void)
{
	lib_alloc a = t_alloc_noprof;
	lib_count *c = t_count_noprof;

	free(a(1));					// tag main calls=1
	return c(1) == 0;				// tag main calls=1
}
