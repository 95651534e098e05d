/* Untagged variants for tagtest.h and the report of the tags at exit. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tagtest.h"

__thread struct alloc_tag *alloctag_current;
static unsigned untagged_hits;

/* Atomic: OpenMP regions (tags/openmp.c) call from several threads at once. */
static void hit(void)
{
	if (alloctag_current)
		__atomic_add_fetch(&alloctag_current->counters->reserved, 1, __ATOMIC_RELAXED);
	else
		__atomic_add_fetch(&untagged_hits, 1, __ATOMIC_RELAXED);
}

void *t_alloc_noprof(size_t n) { hit(); return malloc(n); }
void t_touch_noprof(void) { hit(); }
int t_count_noprof(int x) { hit(); return x + 1; }
struct big t_big_noprof(int x) { struct big b; hit(); memset(&b, 0, sizeof(b)); b.a[7] = x; return b; }
void t_die_noprof(int status) { hit(); exit(status); }
void *t_named_raw(size_t n) { hit(); return malloc(n); }
int t_vararg_noprof(const char *fmt, ...) { hit(); return (int)strlen(fmt); }
void t_free(void *p) { free(p); }

extern struct alloc_tag __start_alloc_tags[] __attribute__((weak));
extern struct alloc_tag __stop_alloc_tags[] __attribute__((weak));

__attribute__((destructor)) static void report(void)
{
	for (struct alloc_tag *t = __start_alloc_tags; t < __stop_alloc_tags; t++)
		printf("%s:%u %s calls=%u @%u %s\n", t->ct.filename, t->ct.lineno,
		       t->ct.function, t->counters->reserved, t->column,
		       t->callee ? t->callee : "-");
	if (untagged_hits)
		printf("untagged calls=%u\n", untagged_hits);
}

/* Variants of the C library allocators tagged in tags/builtins.c. */
void *t_malloc_raw(size_t n) { hit(); return malloc(n); }
void *t_calloc_raw(size_t n, size_t m) { hit(); return calloc(n, m); }
char *t_strdup_raw(const char *s) { hit(); return strdup(s); }
