/*
 * C too: what a system header's static inline function allocates is charged
 * to the line outside the system headers that called it (the header is one
 * by its pragma, as one found through -isystem or /usr/include is), even
 * through an allocator of the program's that it calls through a pointer.
 */
#include "include/liballoc.h"
#include "escape.h"

/*
 * An allocator of the program's that the header calls through a pointer: no
 * wrapper (its address is taken), so its own line is charged where it is
 * called directly; under the header's call, the line that called the header.
 */
static void *by_hook(size_t n) { return malloc(n); }				// site 0/0 8/1 8

int main(void)
{
	struct lib_buf *b = lib_buf_new(100);						// site 16/1 116/2 116
	size_t n = lib_buf_len(b);

	lib_buf_grow(b, 200);								// site 200/1 200/1 200
	free(escape(lib_make(by_hook, 40)));						// site 0/0 40/1 40
	free(escape(by_hook(8)));
	escape(b);
	return n != 100 || lib_buf_len(b) != 200;
}
