/* The demo's own allocator: a malloc that never returns NULL. */
#include <stddef.h>

void *xmalloc(size_t n);
