/*
 * The C library's functions that allocate inside get implied tags
 * (alloctag_callers.c): the FILE of tmpfile and fmemopen, a stream's buffer
 * at its first write or read (fputs, printf made puts by GCC, fgets: at -O2
 * its fortified __fgets_chk), opendir's DIR, each charged to the line that
 * called it; a tagged call of the program's under them (qsort's comparison)
 * charges its own line; the functions of one character (putc) are not
 * tagged, so that a stream written only through them has its buffer
 * untagged.
 */
#ifdef __OPTIMIZE__
#define _FORTIFY_SOURCE 2
#endif
#define _GNU_SOURCE
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "escape.h"

static int by_value(const void *a, const void *b)
{
	free(escape(strdup("x")));							// site 0/0 * *
	return *(const int *)a - *(const int *)b;
}

int main(void)
{
	static const char text[] = "one\ntwo\n";
	int v[8] = { 5, 3, 8, 1, 9, 2, 7, 4 };	/* under 1 KiB: qsort allocates nothing */
	char line[16];
	FILE *f, *g;
	DIR *d;

	printf("sorted:\n");								// site */1 */1 * (stdout's buffer)
	qsort(v, 8, sizeof(v[0]), by_value);
	f = tmpfile();									// site 0/0 */1 *
	fputs("abc", f);								// site 0/0 */1 *
	putc('d', f);
	fclose(f);
	g = tmpfile();									// site 0/0 */1 *
	putc('e', g);	/* its buffer: untagged */
	fclose(g);
	f = fmemopen((void *)text, sizeof(text) - 1, "r");				// site 0/0 * *
	if (!fgets(line, sizeof(line), f))						// site 0/0 */1 *
		return 1;
	fclose(f);
	d = opendir("/");								// site 0/0 */1 *
	if (!d || !readdir(d))
		return 1;
	closedir(d);
	return v[0] != 1 || strcmp(line, "one\n") != 0;
}
