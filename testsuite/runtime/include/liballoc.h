/* A library's header with static inline allocators, for system-header.c. */
#pragma GCC system_header
#include <stdlib.h>

struct lib_buf {
	char *data;
	size_t len;
};

static inline struct lib_buf *lib_buf_new(size_t n)
{
	struct lib_buf *b = (struct lib_buf *)malloc(sizeof(*b));

	b->data = (char *)malloc(n);
	b->len = n;
	return b;
}

static inline void lib_buf_grow(struct lib_buf *b, size_t n)
{
	b->data = (char *)realloc(b->data, n);
	b->len = n;
}

/* An allocation through the caller's own allocator, called through a pointer. */
static inline void *lib_make(void *(*alloc)(size_t), size_t n)
{
	return alloc(n);
}

static inline size_t lib_buf_len(const struct lib_buf *b)
{
	return b->len;
}
