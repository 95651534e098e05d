/*
 * A multi-threaded program for the live tests: NTHREADS threads allocate
 * from four sites for ROUNDS rounds, sleeping MS milliseconds between
 * rounds; each round keeps one block, frees the others, and hands one
 * block to the next thread to free (a remote free).  Its exit report is
 * what a reader following it must converge to.
 *
 *   threads [ROUNDS [MS]]      default 50 rounds, 10 ms
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NTHREADS	4

static int rounds = 50, ms = 10;
static _Atomic(void *) handoff[NTHREADS];

static void pause_ms(int n)
{
	struct timespec ts = { n / 1000, (long)(n % 1000) * 1000000 };

	nanosleep(&ts, NULL);
}

static void *worker(void *arg)
{
	long id = (long)arg;
	char **kept = calloc(rounds, sizeof(*kept));

	for (int r = 0; r < rounds; r++) {
		void *mine, *theirs;

		kept[r] = malloc(1000 + id);
		for (int i = 0; i < 100; i++)
			{ void *volatile p = malloc(64 + (i & 63)); free(p); }
		mine = strdup("handed over");
		theirs = atomic_exchange(&handoff[(id + 1) % NTHREADS], mine);
		free(theirs);
		pause_ms(ms);
	}
	return kept;
}

int main(int argc, char **argv)
{
	pthread_t t[NTHREADS];

	if (argc > 1)
		rounds = atoi(argv[1]);
	if (argc > 2)
		ms = atoi(argv[2]);
	for (long i = 0; i < NTHREADS; i++)
		pthread_create(&t[i], NULL, worker, (void *)i);
	for (int i = 0; i < NTHREADS; i++)
		pthread_join(t[i], NULL);
	printf("done\n");
	return 0;
}
