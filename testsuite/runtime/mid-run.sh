# Reports made while threads allocate and free (alloctag_report(), a signal,
# a reader of the live file) show what can be true: no count below zero,
# no bytes without a block, no more blocks live than were allocated.
d=$WORK/mid-run
mkdir -p "$d"
cat > "$d/churn.c" <<'C'
#include <alloctag.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#define SLOTS 4096
static _Atomic(char *) ring[SLOTS];
static atomic_int stop;
static void *producer(void *arg)
{
	for (unsigned i = 0; !atomic_load(&stop); i++) {
		char *p = malloc(8 + i % 200);
		p = atomic_exchange(&ring[i % SLOTS], p);
		free(p);
	}
	return arg;
}
static void *consumer(void *arg)
{
	for (unsigned i = 0; !atomic_load(&stop); i += 7)
		free(atomic_exchange(&ring[i % SLOTS], NULL));
	return arg;
}
int main(void)
{
	pthread_t t[4];
	for (int i = 0; i < 4; i++)
		pthread_create(&t[i], 0, i % 2 ? consumer : producer, 0);
	for (int i = 0; i < 300; i++)
		alloctag_report();
	atomic_store(&stop, 1);
	for (int i = 0; i < 4; i++)
		pthread_join(t[i], 0);
	return 0;
}
C
mid_run_check() {
	cd "$d" && "$ATCC" -O2 -o churn churn.c -lpthread || return 1
	ALLOCTAG_FORMAT=full ALLOCTAG_REPORT=reports ./churn || return 1
	[ "$(grep -c '^allocinfo' reports)" = 301 ] || { echo "$(grep -c '^allocinfo' reports) reports"; return 1; }
	awk '!/^(allocinfo|#)/ {
		if ($1 < 0 || $2 < 0 || $1 > 1e15 || $2 > $4 || ($2 == 0 && $1 != 0)) { print "impossible:", $0; bad = 1 }
	} END { exit bad }' reports
}
check mid-run/consistent mid_run_check
