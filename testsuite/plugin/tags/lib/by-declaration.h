/* Forced in with -include: tags functions whose sources are not edited. */
#include <stddef.h>
#include <alloctag.h>
void *xmalloc(size_t n) __alloc_tagged __attribute__((malloc, alloc_size(1)));
char *xstrdup(const char *s) __alloc_tagged;
void *xrealloc_static_user(size_t n);
