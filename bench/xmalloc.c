/* SPDX-License-Identifier: MIT */
/*
 * bench/xmalloc.c: frees by other threads than the allocating one, as in
 * mimalloc-bench's xmalloc-test: THREADS threads each allocate blocks of 16
 * to 512 bytes, write them, and swap each into a random place of a shared
 * array, freeing the block that was there (most often another thread's).
 *
 *   xmalloc [THREADS [OPERATIONS]]   (defaults 4 and 2000000 per thread)
 *
 * Output: the number of blocks each run freed, the same on every run.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PLACES 8192
#define MAX_THREADS 64

static _Atomic(unsigned char *) places[PLACES];
static long operations = 2000000;
static _Atomic long freed;

static void *work(void *arg)
{
	uint64_t s = (uintptr_t)arg * 0x9e3779b97f4a7c15ull + 1;
	long mine = 0;

	for (long i = 0; i < operations; i++) {
		size_t n;
		unsigned char *p, *old;

		s ^= s << 13, s ^= s >> 7, s ^= s << 17;
		n = 16 + (s >> 20) % 497;
		p = malloc(n);
		if (!p) {
			fputs("xmalloc: out of memory\n", stderr);
			exit(1);
		}
		p[0] = p[n - 1] = (unsigned char)n;
		old = atomic_exchange_explicit(&places[(s >> 40) % PLACES], p, memory_order_acq_rel);
		if (old) {
			mine++;
			free(old);
		}
	}
	atomic_fetch_add(&freed, mine);
	return NULL;
}

int main(int argc, char **argv)
{
	int threads = argc > 1 ? atoi(argv[1]) : 4;
	pthread_t t[MAX_THREADS];

	if (argc > 2)
		operations = atol(argv[2]);
	if (threads < 1 || threads > MAX_THREADS)
		return 2;
	for (int i = 0; i < threads; i++)
		pthread_create(&t[i], NULL, work, (void *)(uintptr_t)(i + 1));
	for (int i = 0; i < threads; i++)
		pthread_join(t[i], NULL);
	for (int k = 0; k < PLACES; k++)
		if (places[k]) {
			free(places[k]);
			freed++;
		}
	printf("xmalloc: %d threads, %ld blocks freed\n", threads, (long)freed);
	return 0;
}
