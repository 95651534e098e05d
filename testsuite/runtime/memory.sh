# The runtime's memory is bounded and given back, measured against glibc:
# each program runs built plain and with alloctag-cc, and prints what
# /proc/self says of its memory (VmRSS in KiB, mappings).
d=$WORK/memory
mkdir -p "$d"
cp "$TOP/testsuite/runtime/programs/measure.h" "$d/"
# Build NAME.c plain and with alloctag-cc.
build_both() {
	cd "$d" && "$TESTCC" -O2 -o "$1.plain" "$1.c" -lpthread &&
		"$ATCC" -O2 -o "$1.tagged" "$1.c" -lpthread
}
# The value of KEY (rss or maps) at WHEN in OUTPUT.
value() {
	echo "$3" | sed -n "s/^$2 .*$1=\([0-9]*\).*/\1/p"
}
# Whether the tagged run stays within FACTOR x plain + SLACK KiB (or mappings).
within() {
	local key=$1 when=$2 factor=$3 slack=$4 plain tagged
	plain=$(value "$key" "$when" "$plain_out")
	tagged=$(value "$key" "$when" "$tagged_out")
	if [ -z "$plain" ] || [ -z "$tagged" ] ||
	   [ "$tagged" -gt $((plain * factor + slack)) ]; then
		echo "$when $key: plain $plain, alloctag $tagged (bound ${factor}x + $slack)"
		return 1
	fi
}
run_both() {
	plain_out=$(cd "$d" && ./"$1".plain "${@:2}") &&
		tagged_out=$(cd "$d" && ALLOCTAG_REPORT=off ./"$1".tagged "${@:2}")
}

# Shrink-to-fit: a big block reallocated small, then freed, 70000 times.
cat > "$d/shrink.c" <<'C'
#include <stdlib.h>
#include "measure.h"
int main(void)
{
	for (int i = 0; i < 70000; i++) {
		char *b = malloc(256 * 1024);
		b[0] = 1;
		free(realloc(b, 20));
	}
	measure("end");
	return 0;
}
C
shrink_check() {
	build_both shrink && run_both shrink || return 1
	within maps end 1 16 && within rss end 1 2048
}
check memory/shrink-to-fit shrink_check

# Large blocks freed, then small ones made: glibc's heap reuses the space;
# alloctag's large blocks are glibc's and its small ones its own slabs', so
# glibc's free pages must be given back (malloc_trim) before the slabs take
# fresh memory, or the peak is both (16 MiB here, against 10).  A live large
# block above the freed ones keeps glibc from trimming its top itself.
cat > "$d/two-heaps.c" <<'C'
#include <stdlib.h>
#include <string.h>
#include "measure.h"
#define LARGE 2048
int main(void)
{
	static char *large[LARGE];
	char *guard, **small;
	size_t n = ((size_t)8 << 20) / 64;

	for (int i = 0; i < LARGE; i++)
		memset(large[i] = malloc(4000), 1, 4000);
	guard = malloc(4000);
	for (int i = 0; i < LARGE; i++)
		free(large[i]);
	small = calloc(n, sizeof(*small));
	for (size_t i = 0; i < n; i++)
		memset(small[i] = malloc(64), 2, 64);
	measure("peak");
	for (size_t i = 0; i < n; i++)
		free(small[i]);
	free(small);
	free(guard);
	return 0;
}
C
two_heaps_check() {
	build_both two-heaps && run_both two-heaps || return 1
	within rss peak 1 2048
}
check memory/large-freed-then-small two_heaps_check

# Under ulimit -v, a program gets what it gets with glibc (no reservation).
cat > "$d/ulimit.c" <<'C'
#include <stdlib.h>
#include "measure.h"
int main(void)
{
	long mb = 0;
	for (; mb < 200; mb++) {
		char *p = malloc(1 << 20);
		if (!p)
			break;
		p[0] = 1;
	}
	printf("got %ld\n", mb);
	return 0;
}
C
ulimit_check() {
	build_both ulimit || return 1
	plain_out=$(cd "$d" && ulimit -v 250000 && ./ulimit.plain)
	tagged_out=$(cd "$d" && ulimit -v 250000 && ALLOCTAG_REPORT=stdout ./ulimit.tagged)
	[ "$plain_out" = "got 200" ] && [ "$(echo "$tagged_out" | head -n 1)" = "got 200" ] &&
		echo "$tagged_out" | grep -q '^ *209715200 *200 ulimit.c:7 func:main $' ||
		{ echo "plain: $plain_out"; echo "alloctag: $tagged_out"; return 1; }
}
check memory/ulimit-v ulimit_check

# A pool of 200 threads that churned and went idle; the main thread busy for
# 2.5 s: the idle threads' caches go back to glibc (it holds them, so that
# glibc's count of its blocks in use shows it, not RSS); malloc_trim(); the
# threads gone and malloc_trim() again.
cat > "$d/pool.c" <<'C'
#include <malloc.h>
#include <pthread.h>
#include <stdlib.h>
#include <time.h>
#include "measure.h"
#define THREADS 200
static pthread_barrier_t churned, done;
static void *worker(void *arg)
{
	void *p[2000];
	for (int round = 0; round < 2; round++) {
		for (int i = 0; i < 2000; i++)
			p[i] = malloc(64 + (i % 8) * 64);
		for (int i = 0; i < 2000; i++)
			free(p[i]);
	}
	pthread_barrier_wait(&churned);
	pthread_barrier_wait(&done);		/* idle */
	return arg;
}
/* The main thread allocates for 2.5 seconds, missing its cache. */
static void busy_main(void)
{
	static void *p[5000];
	struct timespec start, now;
	clock_gettime(CLOCK_MONOTONIC, &start);
	for (int round = 0;; round++) {
		for (int i = 0; i < 5000; i++)
			p[i] = malloc(16 + (round % 60) * 16);
		for (int i = 0; i < 5000; i++)
			free(p[i]);
		clock_gettime(CLOCK_MONOTONIC, &now);
		if ((now.tv_sec - start.tv_sec) * 1000 + (now.tv_nsec - start.tv_nsec) / 1000000 > 2500)
			break;
	}
}
int main(void)
{
	pthread_t t[THREADS];
	pthread_barrier_init(&churned, 0, THREADS + 1);
	pthread_barrier_init(&done, 0, THREADS + 1);
	for (int i = 0; i < THREADS; i++)
		pthread_create(&t[i], 0, worker, 0);
	pthread_barrier_wait(&churned);
	measure("idle");
	busy_main();
	measure("decayed");
	malloc_trim(0);
	measure("trimmed");
	pthread_barrier_wait(&done);
	for (int i = 0; i < THREADS; i++)
		pthread_join(t[i], 0);
	malloc_trim(0);
	measure("exited");
	return 0;
}
C
pool_check() {
	build_both pool && run_both pool || return 1
	# Caches hold at most their 32 MiB budget; idle a second, or trimmed,
	# they hold nothing (but the busy thread's 4 MiB, CACHE_MAX).
	within rss idle 1 $((32 * 1024 + 4096)) && within inuse decayed 1 $((4 * 1024 + 1024)) &&
		within rss trimmed 1 4096 && within rss exited 1 4096
}
check memory/idle-threads pool_check

# Counters grow with the pairs of a live thread and a site it allocates from
# often: 200 threads that each allocate once from 2000 sites share one slot
# per site; 1000 threads, 4 at a time, each allocating 20 times from each
# site, need 4 threads' slots.
awk 'BEGIN {
	print "#include <pthread.h>\n#include <stdlib.h>\n#include \"measure.h\""
	for (i = 0; i < 2000; i++)
		printf "static void *s%d(void) { return malloc(16); }\n", i
	printf "static void *(*sites[])(void) = {"
	for (i = 0; i < 2000; i++)
		printf "s%d,", i
	print "};"
}' > "$d/sites.h"
cat > "$d/sites.c" <<'C'
#include "sites.h"
static int times;
static void *worker(void *arg)
{
	for (int i = 0; i < 2000; i++)
		for (int k = 0; k < times; k++)
			free(sites[i]());
	return arg;
}
static void run(int threads, int at_once)
{
	pthread_t t[200];
	for (int done = 0; done < threads; done += at_once) {
		for (int i = 0; i < at_once; i++)
			pthread_create(&t[i], 0, worker, 0);
		for (int i = 0; i < at_once; i++)
			pthread_join(t[i], 0);
	}
}
int main(int argc, char **argv)
{
	times = 1;
	run(200, 200);
	measure("wide");
	times = 20;
	run(1000, 4);
	measure("many");
	return 0;
}
C
sites_check() {
	build_both sites && run_both sites || return 1
	within rss wide 1 8192 && within rss many 1 8192
}
check memory/counters sites_check
