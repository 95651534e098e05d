#include <stdio.h>
#include <string.h>
#include "site.h"

__thread struct alloc_tag *alloctag_current;
static int checks, failures;

int t_check_noprof(const char *file, int line, const char *func)
{
	struct codetag *ct = &alloctag_current->ct;

	checks++;
	if (strcmp(ct->filename, file) || ct->lineno != (unsigned)line || strcmp(ct->function, func)) {
		printf("tag %s:%u %s, expected %s:%d %s\n", ct->filename, ct->lineno, ct->function,
		       file, line, func);
		failures++;
	}
	return 0;
}

#define TWICE() (CHECK() + CHECK())
#define INDIRECT() TWICE()
#define APPLY(m) m()

int main(void)
{
	int inner(void) { return CHECK(); }

	CHECK();
	CHECK_IN_ARGS(
		CHECK());
	TWICE();
	INDIRECT(
	);
	APPLY(
		CHECK);
	CHECK_IN_ARGS(t_check(__FILE__, __LINE__, __func__));
	check_in_header();
	inner();
#line 500 "renamed.c"
	CHECK();
#line 43 "site.c"
	printf("%d checks, %d failures\n", checks, failures);
	return failures;
}
