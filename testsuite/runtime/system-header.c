/*
 * C too: what a system header's static inline function allocates is charged
 * to the line outside the system headers that called it (the header is one
 * by its pragma, as one found through -isystem or /usr/include is).
 */
#include "include/liballoc.h"
#include "escape.h"

int main(void)
{
	struct lib_buf *b = lib_buf_new(100);						// site 16/1 116/2 116
	size_t n = lib_buf_len(b);

	lib_buf_grow(b, 200);								// site 200/1 200/1 200
	escape(b);
	return n != 100 || lib_buf_len(b) != 200;
}
