/*
 * Tag tests: tagged functions of every shape, whose untagged variants
 * (tagtest.c) count a hit on the current tag.  At exit tagtest.c prints every
 * tag in the alloc_tags section as "file:line function calls=N @column callee"
 * ("-": no callee).
 */
#ifndef TAGTEST_H
#define TAGTEST_H
#include <stddef.h>
#include <alloctag.h>

struct big { long a[8]; };

void *t_alloc(size_t n) __alloc_tagged __attribute__((malloc, alloc_size(1)));
void t_touch(void) __alloc_tagged;
int t_count(int x) __alloc_tagged;
struct big t_big(int x) __alloc_tagged;
void t_die(int status) __alloc_tagged __attribute__((noreturn));
void *t_named(size_t n) __alloc_tagged_as("t_named_raw");
int t_vararg(const char *fmt, ...) __alloc_tagged;
void t_free(void *p);



/* For indirect calls: the untagged entry points, whose addresses are taken. */
void *t_alloc_noprof(size_t n);
int t_count_noprof(int x);
#endif
