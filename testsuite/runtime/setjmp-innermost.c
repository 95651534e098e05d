// args: -fplugin-arg-alloctag-no-indirect --alloctag-functions=xmalloc,grab --alloctag-innermost
/*
 * setjmp.c under the innermost rule (the kernel's): the tag a longjmp left
 * current is replaced at the setjmp it lands at by the one current when the
 * setjmp was first called (none, or the tag of a call around it), which
 * reading it there (save(NULL): no tag current until the restore right
 * after it) left as it was.  An allocation through a pointer (no-indirect:
 * untagged) is charged to whatever tag is current.
 */
#include <setjmp.h>
#include <stdlib.h>
#include "escape.h"

#define TOO_MUCH 1000

static jmp_buf on_error;
static void *(*volatile untagged)(size_t) = malloc;

/* Tagged by name; the innermost rule charges the malloc's own line. */
void *xmalloc(size_t n)
{
	if (n > TOO_MUCH)
		longjmp(on_error, 1);
	return malloc(n);				// site 0/0 10/1 10
}

/* Tagged by name: after the jump, its caller's tag is current again. */
void *grab(size_t n)
{
	if (setjmp(on_error))
		return untagged(n);
	return xmalloc(TOO_MUCH + 1);
}

int main(void)
{
	free(escape(grab(20)));				// site 0/0 20/1 20
	if (!setjmp(on_error))
		free(escape(xmalloc(TOO_MUCH + 2)));
	free(escape(untagged(30)));
	free(escape(xmalloc(10)));
	return 0;
}
