// args: -fplugin-arg-alloctag-no-indirect --alloctag-functions=xmalloc,grab
/*
 * A longjmp out of a tagged call skips the call's restore: the tag stays
 * current.  The setjmp (sigsetjmp) it lands at gives back the tag that was
 * current when it was first called, so what is allocated after its second
 * return is charged as if there had been no jump, each to its own line, not
 * to the call the longjmp left.  xmalloc (tagged by name) and checked (a
 * wrapper the compiler finds) jump when asked for too much; an allocation
 * through a pointer (no-indirect: untagged) is charged to whatever tag is
 * current, and so is counted here only if a tag was left behind.
 */
#include <setjmp.h>
#include <stdlib.h>
#include "escape.h"

#define TOO_MUCH 1000

static jmp_buf on_error;
static sigjmp_buf on_signal;
static int use_siglongjmp;
static void *(*volatile untagged)(size_t) = malloc;

static void fail(void)
{
	if (use_siglongjmp)
		siglongjmp(on_signal, 1);
	longjmp(on_error, 1);
}

/* Tagged by name: its callers' lines are charged; it jumps before allocating. */
void *xmalloc(size_t n)
{
	if (n > TOO_MUCH)
		fail();
	return malloc(n);
}

/* A wrapper (auto): its callers' lines are charged (an implied tag); it jumps after. */
static void *checked(size_t n)
{
	void *p = malloc(n);

	if (!p || n > TOO_MUCH) {
		free(escape(p));
		fail();
	}
	return p;
}

/* A setjmp in main, under no tag; the longjmp from an explicitly tagged call. */
static void explicit_tag(void)
{
	if (!setjmp(on_error))
		free(escape(xmalloc(TOO_MUCH + 1)));	/* jumps: charged nothing */
	free(escape(untagged(10)));
	free(escape(malloc(20)));			// site 0/0 20/1 20
}

/* A sigsetjmp in a function with no tagged call of its own (fn is called through a pointer). */
static int protect(void (*fn)(void))
{
	use_siglongjmp = 1;
	if (sigsetjmp(on_signal, 1))
		return 1;
	fn();
	return 0;
}

static void too_big(void)
{
	free(escape(checked(TOO_MUCH + 2)));		// site 0/0 1002/1 1002
}

static void implied_tag(void)
{
	protect(too_big);
	use_siglongjmp = 0;
	free(escape(untagged(30)));
	free(escape(checked(40)));			// site 0/0 40/1 40
}

/*
 * A setjmp under a tag (grab's caller's): after the jump that tag is current
 * again, not none.
 */
void *grab(size_t n)
{
	if (setjmp(on_error))
		return malloc(n);			/* the caller's line is charged */
	return xmalloc(TOO_MUCH + 3);
}

int main(void)
{
	explicit_tag();
	implied_tag();
	free(escape(grab(50)));				// site 0/0 50/1 50
	free(escape(untagged(60)));
	return 0;
}
