/*
 * Every allocator the C library header tags: exact bytes and calls at each line.
 *
 * asprintf and vasprintf allocate as the C library's printf does: glibc 2.36
 * (Debian 12) and older write into a block of 100 bytes, then realloc it to
 * what was written (106 bytes in 2 calls for "12345"); glibc 2.37 rewrote
 * printf's buffers: it writes into 200 bytes on the stack and allocates
 * one block of the exact size (6 bytes in 1 call; tested: 2.41 in Debian
 * 13, 2.43 in sid).
 */
#define _GNU_SOURCE
#include <malloc.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wchar.h>
#include "escape.h"

static int fmt(char **out, const char *f, ...)
{
	va_list ap;
	int n;

	va_start(ap, f);
	n = vasprintf(out, f, ap);			// site 0/0 106/2 106 if glibc<2.37; site 0/0 6/1 6 if glibc>=2.37
	va_end(ap);
	return n;
}

int main(void)
{
	void *keep[4], *p;
	char *s, *line = NULL, buf[256];
	size_t cap = 0;
	FILE *f;

	keep[0] = malloc(100);				// site 100/1 100/1 100
	free(escape(malloc(7)));			// site 0/0 7/1 7
	keep[1] = escape(calloc(3, 5));			// site 15/1 15/1 15
	keep[2] = escape(reallocarray(NULL, 4, 6));	// site 24/1 24/1 24
	p = escape(aligned_alloc(4096, 10));		// site 0/0 10/1 10
	if ((uintptr_t)p % 4096)
		return 1;
	free(p);
	if (posix_memalign(&p, 64, 20) || (uintptr_t)p % 64)	// site 0/0 20/1 20
		return 2;
	free(p);
	p = memalign(32, 30);				// site 0/0 30/1 30
	free(p);
	free(valloc(40));				// site 0/0 40/1 40
	free(pvalloc(50));				// site 0/0 4096/1 4096
	free(escape(strdup("hello")));			// site 0/0 6/1 6
	free(escape(strndup("hello", 2)));		// site 0/0 3/1 3
	free(wcsdup(L"ab"));				// site 0/0 12/1 12
	if (asprintf(&s, "%d", 12345) != 5)		// site 6/1 106/2 106 if glibc<2.37; site 6/1 6/1 6 if glibc>=2.37
		return 3;
	keep[3] = s;
	fmt(&s, "%s", "abcde");
	free(s);
	f = fmemopen("one\ntwo\n", 8, "r");			// site 0/0 * * (the FILE, its cookie)
	setvbuf(f, buf, _IOFBF, sizeof(buf));		/* or getline allocates it */
	getline(&line, &cap, f);			// site 0/0 120/1 120
	fclose(f);
	free(line);
	line = NULL;
	cap = 0;
	f = fmemopen("a,b", 3, "r");				// site 0/0 * *
	setvbuf(f, buf, _IOFBF, sizeof(buf));
	getdelim(&line, &cap, ',', f);			// site 0/0 120/1 120
	fclose(f);
	free(line);
	free(realpath("/", NULL));			// site 0/0 2/1 2
	free(canonicalize_file_name("/"));		// site 0/0 2/1 2
	/* sizes that depend on the machine: every call charged, all freed */
	free(getcwd(NULL, 0));				// site 0/0 * *
	free(get_current_dir_name());			// site 0/0 * *
	f = open_memstream(&s, &cap);			// site 0/0 * *
	fclose(f);
	free(s);
	if (malloc_usable_size(keep[0]) < 100)
		return 4;
	return 0;	/* keep[] is still live at exit */
}
