/* Misplaced and malformed alloc_tagged attributes. */
#include <stddef.h>
#include <alloctag.h>

int counter __attribute__((alloc_tagged));			/* { dg-warning "'alloc_tagged' attribute only applies to functions and function pointers; ignored" } */
typedef int number __attribute__((alloc_tagged));		/* { dg-warning "only applies to functions and function pointers" } */
struct s { int x; } __attribute__((alloc_tagged));		/* { dg-warning "only applies to functions and function pointers" } */
void take(int x __attribute__((alloc_tagged)));			/* { dg-warning "only applies to functions and function pointers" } */
struct t { char *name __attribute__((alloc_tagged)); };		/* { dg-warning "only applies to functions and function pointers" } */
typedef void *alloc_fn(size_t) __attribute__((alloc_tagged("raw")));	/* { dg-error "'alloc_tagged' on 'alloc_fn' takes no argument: indirect calls are not renamed" } */

void *a1(size_t) __attribute__((alloc_tagged(42)));		/* { dg-error "'alloc_tagged' argument must be a string naming the untagged variant of 'a1'" } */
void *a2(size_t) __attribute__((alloc_tagged("")));		/* { dg-error "argument of 'a2' is an empty string" } */
void *a3(size_t) __attribute__((alloc_tagged("not a name")));	/* { dg-error "argument 'not a name' of 'a3' is not a function name" } */
void *a4(size_t) __attribute__((alloc_tagged("x", "y")));	/* { dg-error "wrong number of arguments specified for 'alloc_tagged' attribute" } */
void *a5(size_t) __attribute__((alloc_tagged(L"wide")));	/* { dg-error "must be a string" } */

void *a6(size_t) __attribute__((alloc_tagged("a6_raw")));
void *a6(size_t) __attribute__((alloc_tagged("a6_other")));	/* { dg-error "conflicting 'alloc_tagged' attributes on 'a6': untagged variants 'a6_(raw|other)' and 'a6_(raw|other)'" } */
