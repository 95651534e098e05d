/* Variants that cannot be called in place of the tagged function. */
#include <stddef.h>
#include <alloctag.h>

void *v_proto(size_t n) __alloc_tagged;
void *v_proto_noprof(int n);				/* { dg-error "prototype of 'v_proto_noprof' does not match 'v_proto', whose untagged variant it is" } */

void *v_ret(size_t n) __alloc_tagged;
char v_ret_noprof(size_t n);				/* { dg-error "prototype of 'v_ret_noprof' does not match 'v_ret'" } */

void *v_var(size_t n) __alloc_tagged;
int v_var_noprof;					/* { dg-error "'v_var_noprof' cannot be the untagged variant of 'v_var': it is not a function" } */

void *v_macro(size_t n) __alloc_tagged;			/* { dg-error "untagged variant .v_macro_noprof. of .v_macro. is a macro; declare a function of that name or name one with .alloc_tagged\(.\.\.\..\)." } */
#define v_macro_noprof(n) 0

static void *v_static(size_t n) __alloc_tagged;		/* { dg-error "'v_static' is static and not defined here, and its untagged variant 'v_static_noprof' is not declared" } */

/* GCC built-ins are fine with alloctag.h's hooks (diag/builtin-hooks.c). */
void *malloc(size_t n);
void *v_builtin(size_t n) __alloc_tagged_as("malloc");
char *strdup(const char *s) __alloc_tagged_as("strdup");

void *v_ok(const size_t n) __alloc_tagged;
void *v_ok_noprof(size_t n);				/* qualifiers of parameters do not matter */

void *use(void)
{
	return v_proto(1) ?: v_ret(2) ?: v_var(3) ?: v_macro(4) ?: v_static(5) ?: v_ok(6)
		?: v_builtin(7) ?: strdup("8");
}
