/*
 * Sites that share a line are told apart by the tag's optional fields: the
 * column of the place __LINE__ names, as GCC's diagnostics print it (tabs
 * to the next multiple of 8; in a macro, the macro's name where it is used,
 * or the call written in a macro argument; a call written as an argument of
 * another call at its own place, though GCC gives it the other's), and the
 * callee: the function called, or the variable, parameter or member an
 * indirect call goes through.
 */
#include <stdlib.h>
#include "tagtest.h"

#define TWO(n) (t_touch(), t_count(n))
#define ARG(x) (x)
typedef int count_fn(int) __alloc_tagged;	/* indirect calls of t_count's type */

static struct { count_fn *count; } hooks = { t_count_noprof };

static void free2(void *a, void *b)
{
	free(a);
	free(b);
}

static int through(count_fn *fp, count_fn **table)
{
	return fp(1) + hooks.count(2) + table[0](3);	// tag through calls=1 @16 fp; tag through calls=1 @24 count; tag through calls=1 @41 table
}

int main(void)
{
	count_fn *table[1] = { t_count_noprof };

	free(t_alloc(1)); t_touch();		// tag main calls=1 @14 t_alloc; tag main calls=1 @27 t_touch
	TWO(3);					// tag main calls=1 @9 t_touch; tag main calls=1 @9 t_count
	ARG(t_count(4));			// tag main calls=1 @13 t_count
	ARG(
		    t_count(5));		// tag main calls=1 @21 t_count
	/* GCC gives both its location to free2's: they cannot be told apart. */
	free2(t_alloc(6), t_alloc(7));		// tag main calls=1 @9 t_alloc; tag main calls=1 @9 t_alloc
	return through(t_count_noprof, table) != 9;
}
