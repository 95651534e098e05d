/*
 * measure(WHEN): "WHEN rss=KIB maps=N inuse=KIB" on stdout, from /proc/self
 * and mallinfo2() (the blocks in use, glibc's and the runtime's): what the
 * memory tests (memory.sh, safety.sh) compare between a plain build and an
 * alloctag build.
 */
#include <malloc.h>
#include <stdio.h>
#include <string.h>
/* "rss=KIB maps=N inuse=KIB", from /proc/self and glibc (its blocks in use). */
static void measure(const char *when)
{
	char line[256];
	long rss = 0, maps = 0;
	struct mallinfo2 mi = mallinfo2();
	FILE *f = fopen("/proc/self/status", "r");

	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "VmRSS:", 6))
			rss = atol(line + 6);
	if (f)
		fclose(f);
	f = fopen("/proc/self/maps", "r");
	while (f && fgets(line, sizeof(line), f))
		maps += strchr(line, '\n') != NULL;
	if (f)
		fclose(f);
	printf("%s rss=%ld maps=%ld inuse=%zu\n", when, rss, maps, (mi.uordblks + mi.hblkhd) / 1024);
	fflush(stdout);
}
