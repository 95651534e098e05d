/* The functions tags/by-name.c tags by name, in another unit: not tagged here. */
#include "tagtest.h"
#include "by-name.h"

void *n_alloc(size_t n) { return t_alloc_noprof(n); }
void *n_dup__internal_alias(size_t n) { return t_alloc_noprof(n); }
void *n_renamed_raw(size_t n) { return t_alloc_noprof(n); }
void *n_listed(size_t n) { return t_alloc_noprof(n); }
void *n_listed_raw(size_t n) { return t_alloc_noprof(n); }
void *n_plain(size_t n) { return t_alloc_noprof(n); }
