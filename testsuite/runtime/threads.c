/*
 * 4 threads x 10000 allocations at one site, half freed by the allocating
 * thread and half handed to the main thread, which frees them: counts are
 * exact (no lost updates), live is zero.
 */
#include <pthread.h>
#include <stdlib.h>

#define THREADS 4
#define PER_THREAD 10000

static void *handed[THREADS][PER_THREAD / 2];

static void *work(void *arg)
{
	void **out = arg;

	for (int i = 0; i < PER_THREAD; i++) {
		void *p = malloc(16 + i % 4);		// site 0/0 700000/40000 *
		if (i % 2)
			free(p);
		else
			out[i / 2] = p;
	}
	return NULL;
}

int main(void)
{
	pthread_t t[THREADS];

	for (int i = 0; i < THREADS; i++)
		if (pthread_create(&t[i], NULL, work, handed[i]))
			return 1;
	for (int i = 0; i < THREADS; i++)
		pthread_join(t[i], NULL);
	for (int i = 0; i < THREADS; i++)
		for (int j = 0; j < PER_THREAD / 2; j++)
			free(handed[i][j]);
	return 0;
}
