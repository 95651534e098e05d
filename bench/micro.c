/* SPDX-License-Identifier: MIT */
/*
 * bench/micro.c: a malloc/free-heavy micro-benchmark, deterministic (its own
 * xorshift generator, fixed seeds), single-threaded, only malloc and free.
 *
 *   micro [SCALE]           (default 1; the work grows linearly with SCALE)
 *   micro build-free COUNT  COUNT blocks of 96 bytes allocated, then all
 *                           freed in allocation order: a tree built, then
 *                           dropped whole (a DOM parse, then free)
 *
 * The default run has three phases, each a pattern real programs have:
 *   churn:  a working set of 8192 live blocks; each step frees a random one
 *           and allocates a replacement (sizes: mostly small, some medium,
 *           a few large), as a long-running server's objects come and go;
 *   burst:  build a list of 40000 nodes of 24 to 200 bytes, walk it, free
 *           it in allocation order, as a parser's tree or a request's
 *           scratch data;
 *   temp:   allocate a temporary buffer, fill it, free it at once (LIFO),
 *           as formatting or conversion helpers do.
 * Every block is written (its first and last bytes, list links) and read
 * back into a checksum, so that nothing is optimized away; the output is the
 * same on every run: pairs, the peak of live blocks, the checksum.  Every
 * block is freed before exit: pairs = malloc calls = free calls.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static inline uint32_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng >> 11);
}

/* Sizes as programs ask for them: many small, a tail of larger ones. */
static inline size_t object_size(void)
{
	uint32_t r = next() % 1000;

	if (r < 600)
		return 8 + next() % 56;		/* 8..63: 60% */
	if (r < 880)
		return 64 + next() % 192;	/* 64..255: 28% */
	if (r < 980)
		return 256 + next() % 768;	/* 256..1023: 10% */
	return 1024 + next() % 15360;		/* 1 KiB..16 KiB: 2% */
}

static uint64_t pairs, live, peak, sum;

static inline void *get(size_t n)
{
	unsigned char *p = malloc(n);

	if (!p) {
		fprintf(stderr, "micro: out of memory\n");
		exit(1);
	}
	p[0] = (unsigned char)n;		/* a node's link goes there */
	p[n - 1] = (unsigned char)(n >> 3);	/* the checksum reads this one */
	pairs++;
	if (++live > peak)
		peak = live;
	return p;
}

static inline void put(void *p, size_t n)
{
	unsigned char *b = p;

	sum += b[n - 1];
	live--;
	free(p);
}

#define WORKING_SET 8192

static void churn(unsigned long steps)
{
	static void *block[WORKING_SET];
	static size_t size[WORKING_SET];

	for (unsigned i = 0; i < WORKING_SET; i++) {
		size[i] = object_size();
		block[i] = get(size[i]);
	}
	for (unsigned long s = 0; s < steps; s++) {
		unsigned i = next() % WORKING_SET;

		put(block[i], size[i]);
		size[i] = object_size();
		block[i] = get(size[i]);
	}
	for (unsigned i = 0; i < WORKING_SET; i++)
		put(block[i], size[i]);
}

struct node {
	struct node *next;
	uint32_t size, value;
};

static void burst(unsigned rounds, unsigned nodes)
{
	for (unsigned r = 0; r < rounds; r++) {
		struct node *head = NULL, **tail = &head;

		for (unsigned i = 0; i < nodes; i++) {
			size_t n = sizeof(struct node) + 8 + next() % 177;	/* 24..200 */
			struct node *x = get(n);

			x->next = NULL;
			x->size = (uint32_t)n;
			x->value = next();
			*tail = x;
			tail = &x->next;
		}
		for (struct node *x = head; x; x = x->next)
			sum += x->value;
		while (head) {
			struct node *x = head;

			head = x->next;
			put(x, x->size);
		}
	}
}

#define BUILD_FREE_SIZE 96

static void build_free(unsigned long count)
{
	void **block = malloc(count * sizeof(*block));

	if (!block) {
		fprintf(stderr, "micro: out of memory\n");
		exit(1);
	}
	for (unsigned long i = 0; i < count; i++)
		block[i] = get(BUILD_FREE_SIZE);
	for (unsigned long i = 0; i < count; i++)
		put(block[i], BUILD_FREE_SIZE);
	free(block);
}

static void temp(unsigned long count)
{
	for (unsigned long i = 0; i < count; i++) {
		size_t n = 16 + next() % 496;		/* 16..511 */
		char *p = get(n);

		memset(p, 'a' + (int)(i % 26), n < 64 ? n : 64);
		put(p, n);
	}
}

static int usage(void)
{
	fprintf(stderr, "usage: micro [SCALE] | micro build-free COUNT\n");
	return 2;
}

int main(int argc, char **argv)
{
	unsigned long scale = 1, count;
	char *end;

	if (argc == 3 && !strcmp(argv[1], "build-free")) {
		count = strtoul(argv[2], &end, 10);
		if (!count || *end)
			return usage();
		build_free(count);
	} else if (argc <= 2) {
		if (argc == 2 && (!(scale = strtoul(argv[1], &end, 10)) || *end))
			return usage();
		churn(1000000 * scale);
		burst(10 * (unsigned)scale, 40000);
		temp(400000 * scale);
	} else {
		return usage();
	}
	printf("micro: %llu malloc/free pairs, peak %llu live blocks, checksum %016llx\n",
	       (unsigned long long)pairs, (unsigned long long)peak,
	       (unsigned long long)(sum ^ rng));
	return live != 0;
}
