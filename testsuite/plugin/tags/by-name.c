// args: -Wredundant-decls -fplugin-arg-alloctag-tag=n_alloc,n_renamed:n_renamed_raw,t_alloc -fplugin-arg-alloctag-tag-file=lib/by-name.tags
// files: lib/by-name-lib.c
/*
 * Functions tagged by name (-fplugin-arg-alloctag-tag, -tag-file), with no
 * declaration added: tagged under their own name unless the list names a
 * variant; a pattern covers a library's renamed aliases; an alloc_tagged
 * attribute in the code (t_alloc's) wins over the list.  The other unit
 * defines them untagged: calls there are not tagged.
 */
#include <stdlib.h>
#include "tagtest.h"
#include "lib/by-name.h"

int main(void)
{
	free(n_alloc(1));			// tag main calls=1 @14 n_alloc
	free(n_dup(2));				// tag main calls=1 @14 n_dup__internal_alias
	free(n_renamed(3));			// tag main calls=1 @14 n_renamed
	free(n_listed(4));			// tag main calls=1 @14 n_listed
	free(n_listed_raw(5));			// tag main calls=1 @14 n_listed_raw
	free(t_alloc(6));			// tag main calls=1 @14 t_alloc
	free(n_plain(7));	/* not listed */	// untagged calls=1
	return 0;
}
