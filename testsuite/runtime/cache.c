/*
 * The runtime's per-thread cache of freed small blocks: realloc within a
 * chunk keeps it, realloc into a class with a cached chunk takes that chunk,
 * and more freed blocks than the cache keeps (4 MiB) go back to glibc; the
 * counters stay exact throughout.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define N 100000

static int filled(const unsigned char *p, size_t n, int v)
{
	while (n--)
		if (p[n] != v)
			return 0;
	return 1;
}

int main(void)
{
	static unsigned char *blocks[N];
	unsigned char *p = malloc(100);			// site 0/0 100/1 100
	unsigned char *q, *r;
	uintptr_t cached;
	int i;

	memset(p, 7, 100);
	cached = (uintptr_t)p;
	q = realloc(p, 104);	/* the same chunk class: kept */	// site 0/0 104/1 104
	if ((uintptr_t)q != cached || !filled(q, 100, 7))
		return 1;
	r = malloc(300);				// site 0/0 300/1 300
	free(r);		/* cached */
	cached = (uintptr_t)q;
	p = realloc(q, 300);	/* r's chunk, q's cached */	// site 0/0 300/1 300
	if (p != r || !filled(p, 100, 7))
		return 2;
	q = malloc(104);	/* q's chunk again */		// site 104/1 104/1 104
	if ((uintptr_t)q != cached)
		return 3;
	free(p);
	for (i = 0; i < N; i++)
		blocks[i] = malloc(64);			// site 0/0 6400000/100000 6400000
	for (i = 0; i < N; i++)
		free(blocks[i]);	/* 8 MB of chunks: the cache is flushed */
	for (i = 0; i < N; i++)
		blocks[i] = calloc(1, 48);		// site 0/0 4800000/100000 4800000
	for (i = 0; i < N; i++)
		if (!filled(blocks[i], 48, 0))
			return 4;
	for (i = 0; i < N; i++)
		free(blocks[i]);
	return 0;
}
