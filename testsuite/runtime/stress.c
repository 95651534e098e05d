/*
 * Random malloc/calloc/realloc/free of sizes around the cache's classes on
 * two threads, whose blocks the main thread frees at the end: every byte
 * written is read back, calloc'ed bytes are zero, and nothing stays live.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define BLOCKS 512
#define ROUNDS 200000

struct block { unsigned char *p; size_t n; unsigned char fill; };
static struct block blocks[2][BLOCKS];	/* one array a thread */
static int failures;

static size_t random_size(unsigned *seed)
{
	unsigned r = rand_r(seed);

	switch (r % 4) {
	case 0: return r % 64;
	case 1: return r % 1100;		/* around SMALL_MAX */
	case 2: return 980 + r % 40;
	default: return r % 5000;
	}
}

static int intact(const struct block *b)
{
	for (size_t i = 0; i < b->n; i++)
		if (b->p[i] != b->fill)
			return 0;
	return 1;
}

static void *work(void *arg)
{
	int me = (int)(intptr_t)arg;
	unsigned seed = 1234 + me;

	for (int r = 0; r < ROUNDS; r++) {
		struct block *b = &blocks[me][rand_r(&seed) % BLOCKS];
		size_t n = random_size(&seed);
		unsigned char fill = rand_r(&seed);

		if (b->p && !intact(b))
			__atomic_add_fetch(&failures, 1, __ATOMIC_RELAXED);
		switch (rand_r(&seed) % 4) {
		case 0:
			free(b->p);
			b->p = malloc(n);			// site 0/0 * *
			break;
		case 1:
			free(b->p);
			b->p = calloc(1, n);			// site 0/0 * *
			for (size_t i = 0; i < n; i++)
				if (b->p[i])
					__atomic_add_fetch(&failures, 1, __ATOMIC_RELAXED);
			break;
		case 2:
			if (b->p) {
				size_t keep = n < b->n ? n : b->n;
				b->p = realloc(b->p, n ? n : 1);	// site 0/0 * *
				for (size_t i = 0; i < keep; i++)
					if (b->p[i] != b->fill)
						__atomic_add_fetch(&failures, 1, __ATOMIC_RELAXED);
			}
			break;
		default:
			free(b->p);
			b->p = NULL;
			n = 0;
		}
		b->n = b->p ? n : 0;
		b->fill = fill;
		if (b->p)
			memset(b->p, fill, n);
	}
	return NULL;
}

int main(void)
{
	pthread_t t[2];

	for (int i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, work, (void *)(intptr_t)i);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	for (int s = 0; s < 2; s++)		/* frees from another thread */
		for (int i = 0; i < BLOCKS; i++)
			free(blocks[s][i].p);
	return failures != 0;
}
