/*
 * Random heap operations across threads, checked against a model (used by
 * fuzz.sh): malloc, calloc, realloc, free, posix_memalign, aligned_alloc,
 * memalign, malloc_usable_size, blocks handed to other threads and freed
 * there, malloc_trim, and fork (the child runs operations of its own, trims
 * and exits).  Every block holds a pattern of its own, checked before it is
 * freed or moved; calloc's bytes are checked zero; aligned blocks are
 * checked aligned.
 *
 *   fuzz SECONDS THREADS SEED
 *
 * Output: one line per call site, "SITE calls bytes", of what the model
 * says this process allocated there (fuzz.sh compares it with the report:
 * every block is freed before exit, so each site's live bytes are 0), and
 * "ok".  A broken check prints what and exits 1.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <malloc.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum site { S_MALLOC, S_CALLOC, S_REALLOC, S_POSIX, S_ALIGNED, S_MEMALIGN, SITES };
static const char *const site_name[SITES] = {
	"malloc", "calloc", "realloc", "posix_memalign", "aligned_alloc", "memalign",
};

#define SLOTS		2048
#define SHARED		256
#define MAX_THREADS	16

struct block {
	unsigned char *p;
	size_t n;
	uint32_t seed;		/* its pattern */
	int zero;		/* calloc'ed: zero until written */
};

struct model {
	uint64_t calls[SITES], bytes[SITES];
};

/* Blocks on their way to another thread, each under its own lock. */
static struct {
	atomic_flag lock;
	struct block b;
} shared[SHARED];
static struct model models[MAX_THREADS];
static double deadline;
static _Atomic int failed;

static uint32_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return (uint32_t)(*s >> 11);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void die(const char *what, const struct block *b)
{
	if (!atomic_exchange(&failed, 1))
		printf("FAILED: %s (block %p, %zu bytes)\n", what, (void *)b->p, b->n);
	fflush(stdout);
	_exit(1);
}

static size_t random_size(uint64_t *s)
{
	uint32_t r = rnd(s) % 100;

	if (r < 40)
		return rnd(s) % 65;
	if (r < 80)
		return 65 + rnd(s) % 960;
	if (r < 95)
		return 1025 + rnd(s) % 20000;
	return 20000 + rnd(s) % 280000;
}

static unsigned char pattern(uint32_t seed, size_t i)
{
	return (unsigned char)((seed >> (i % 24)) + i * 131);
}

/* Which bytes a check looks at: all of a small block, the ends and a sample of a large one. */
#define WHOLE	2048

static void fill(struct block *b)
{
	size_t n = b->n;

	if (n <= WHOLE) {
		for (size_t i = 0; i < n; i++)
			b->p[i] = pattern(b->seed, i);
		return;
	}
	for (size_t i = 0; i < 512; i++) {
		b->p[i] = pattern(b->seed, i);
		b->p[n - 1 - i] = pattern(b->seed, n - 1 - i);
	}
	for (size_t i = 512; i < n - 512; i += 4093)
		b->p[i] = pattern(b->seed, i);
}

static void check(const struct block *b, size_t upto)
{
	size_t n = upto < b->n ? upto : b->n;

	if (b->zero) {
		for (size_t i = 0; i < n; i++)
			if (b->p[i])
				die("calloc's bytes are not zero", b);
		return;
	}
	if (b->n <= WHOLE || upto < b->n) {
		size_t filled = b->n <= WHOLE ? n : n < 512 ? n : 512;	/* fill()'s first part */

		for (size_t i = 0; i < filled; i++)
			if (b->p[i] != pattern(b->seed, i))
				die("a block's bytes changed", b);
		return;
	}
	for (size_t i = 0; i < 512; i++)
		if (b->p[i] != pattern(b->seed, i) || b->p[n - 1 - i] != pattern(b->seed, n - 1 - i))
			die("a block's bytes changed", b);
	for (size_t i = 512; i < n - 512; i += 4093)
		if (b->p[i] != pattern(b->seed, i))
			die("a block's bytes changed", b);
}

static void drop(struct block *b)
{
	if (!b->p)
		return;
	check(b, b->n);
	free(b->p);
	b->p = NULL;
}

/* A new block in B at one of the allocating sites, counted in M. */
static void make(struct block *b, struct model *m, uint64_t *s)
{
	size_t n = random_size(s), align = (size_t)32 << (rnd(s) % 8);
	uint32_t kind = rnd(s) % 100;
	enum site site;
	void *p = NULL;

	b->zero = 0;
	if (kind < 60) {
		site = S_MALLOC;
		p = malloc(n);
	} else if (kind < 80) {
		site = S_CALLOC;
		p = calloc(1, n);
		b->zero = 1;
	} else if (kind < 88) {
		site = S_POSIX;
		if (posix_memalign(&p, align, n))
			p = NULL;
	} else if (kind < 94) {
		site = S_ALIGNED;
		n = (n + align - 1) / align * align;
		p = aligned_alloc(align, n);
	} else {
		site = S_MEMALIGN;
		p = memalign(align, n);
	}
	if (!p)
		die("out of memory", b);
	if (site >= S_POSIX && (uintptr_t)p % align)
		die("a block is not aligned as asked", b);
	if (malloc_usable_size(p) < n)
		die("malloc_usable_size is below the size asked for", b);
	m->calls[site]++;
	m->bytes[site] += n;
	b->p = p;
	b->n = n;
	b->seed = rnd(s);
	if (!b->zero || rnd(s) % 2) {
		b->zero = 0;
		fill(b);
	}
}

static void grow(struct block *b, struct model *m, uint64_t *s)
{
	size_t n = random_size(s) + 1;
	unsigned char *q;

	check(b, b->n);
	q = realloc(b->p, n);
	if (!q)
		die("realloc failed", b);
	m->calls[S_REALLOC]++;
	m->bytes[S_REALLOC] += n;
	b->p = q;
	check(b, n);
	b->n = n;
	b->zero = 0;
	b->seed = rnd(s);
	fill(b);
}

/* B handed to other threads through the shared array, what was there freed by this one. */
static void exchange(struct block *b, uint64_t *s)
{
	unsigned k = rnd(s) % SHARED;
	struct block taken;

	if (!b->p)
		return;
	while (atomic_flag_test_and_set_explicit(&shared[k].lock, memory_order_acquire))
		;
	taken = shared[k].b;
	shared[k].b = *b;
	atomic_flag_clear_explicit(&shared[k].lock, memory_order_release);
	b->p = NULL;
	drop(&taken);		/* another thread's block, most often */
}

static void operations(struct block *slots, size_t nslots, struct model *m, uint64_t *s,
		       int me, int may_fork);

/* A child of fork: operations of its own, a trim, everything freed, exit. */
static void child(uint64_t seed)
{
	static struct block mine[256];
	struct model m = { 0 };

	alarm(20);		/* a hang is a failure, not a stuck test */
	operations(mine, 256, &m, &seed, -1, 0);
	malloc_trim(0);
	for (int i = 0; i < 256; i++)
		drop(&mine[i]);
	_exit(0);
}

static void do_fork(uint64_t *s)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return;
	if (pid == 0)
		child(*s ^ 0x5bd1e995);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status))
		die("a fork child failed or hung", &(struct block){ 0 });
}

static void operations(struct block *slots, size_t nslots, struct model *m, uint64_t *s,
		       int me, int may_fork)
{
	for (int step = 0; step < 2000; step++) {
		struct block *b = &slots[rnd(s) % nslots];
		uint32_t op = rnd(s) % 1000;

		if (op < 450)
			drop(b), make(b, m, s);
		else if (op < 650 && b->p)
			grow(b, m, s);
		else if (op < 900)
			drop(b);
		else if (op < 995 && me >= 0)
			exchange(b, s);
		else if (op < 999)
			malloc_trim(0);
		else if (may_fork)
			do_fork(s);
	}
}

struct thread_arg {
	int me;
	uint64_t seed;
};

static void *thread(void *arg)
{
	struct thread_arg *a = arg;
	static struct block slots[MAX_THREADS][SLOTS];
	uint64_t s = a->seed;

	while (now() < deadline && !failed)
		operations(slots[a->me], SLOTS, &models[a->me], &s, a->me, a->me == 0);
	for (int i = 0; i < SLOTS; i++)
		drop(&slots[a->me][i]);
	return NULL;
}

int main(int argc, char **argv)
{
	double seconds = argc > 1 ? atof(argv[1]) : 2;
	int threads = argc > 2 ? atoi(argv[2]) : 4;
	uint64_t seed = argc > 3 ? strtoull(argv[3], NULL, 0) : 1;
	pthread_t t[MAX_THREADS];
	struct thread_arg args[MAX_THREADS];
	struct model total = { 0 };

	if (threads < 1 || threads > MAX_THREADS)
		return 2;
	deadline = now() + seconds;
	for (int i = 0; i < threads; i++) {
		args[i] = (struct thread_arg){ i, seed * 0x9e3779b97f4a7c15ull + i + 1 };
		if (pthread_create(&t[i], NULL, thread, &args[i]))
			return 2;
	}
	for (int i = 0; i < threads; i++)
		pthread_join(t[i], NULL);
	for (int k = 0; k < SHARED; k++)
		drop(&shared[k].b);
	for (int i = 0; i < threads; i++)
		for (int k = 0; k < SITES; k++) {
			total.calls[k] += models[i].calls[k];
			total.bytes[k] += models[i].bytes[k];
		}
	for (int k = 0; k < SITES; k++)
		printf("%s %llu %llu\n", site_name[k], (unsigned long long)total.calls[k],
		       (unsigned long long)total.bytes[k]);
	puts("ok");
	return 0;
}
