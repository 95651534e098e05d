/* A library's header, with its functions declared as it wrote them. */
#include <stddef.h>
void *n_alloc(size_t n);
void *n_dup__internal_alias(size_t n);
#define n_dup n_dup__internal_alias	/* libxml2's renaming of its own calls */
void *n_renamed(size_t n);
void *n_renamed_raw(size_t n);
void *n_listed(size_t n);
void *n_listed_raw(size_t n);
void *n_plain(size_t n);
