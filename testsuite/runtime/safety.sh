# The runtime must never be the reason a program corrupts its heap, hangs
# or crashes (the cases of the safety audit, each against glibc alone).
# Each program runs built with alloctag-cc and, where a plain program shows
# the case, built plain with liballoctag.so preloaded; races loop long enough
# to have hit the old runtime's bug many times over.
d=$WORK/safety
mkdir -p "$d"
lib=$(dirname "$ATCC")/liballoctag.so

# safety_build NAME [FLAGS...]: NAME.c built plain (NAME.plain) and with alloctag-cc (NAME.tagged).
safety_build() {
	local name=$1
	shift
	(cd "$d" && "$TESTCC" -O2 -w -o "$name.plain" "$name.c" -lpthread "$@" &&
		"$ATCC" -O2 -w -o "$name.tagged" "$name.c" -lpthread "$@")
}

# safety_runs NAME ARGS...: the program run plain, tagged, and plain with the runtime
# preloaded; each must exit 0 and print what the plain run prints.
safety_runs() {
	local name=$1 plain out how
	shift
	plain=$(cd "$d" && timeout 120 "./$name.plain" "$@" 2>&1) || { echo "plain: $plain"; return 1; }
	for how in tagged preloaded; do
		if [ $how = tagged ]; then
			out=$(cd "$d" && ALLOCTAG_REPORT=off timeout 120 "./$name.tagged" "$@" 2>&1)
		else
			out=$(cd "$d" && ALLOCTAG_REPORT=off LD_PRELOAD="$lib" timeout 120 "./$name.plain" "$@" 2>&1)
		fi || { echo "$how: status $?: $out"; return 1; }
		[ "$out" = "$plain" ] || { echo "$how: printed"; echo "$out"; echo "plain printed"; echo "$plain"; return 1; }
	done
}

# Case 1: malloc_trim(0) in one thread while others allocate and free (the
# old runtime aborted in 1 run of 4, "corrupted size vs. prev_size").
cat > "$d/trim.c" <<'C'
#include <malloc.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
static volatile int stop;
static void *work(void *arg)
{
	static __thread void *keep[512];
	unsigned s = (unsigned)(size_t)arg;
	while (!stop)
		for (int i = 0; i < 512; i++) {
			size_t n = (s = s * 1103515245 + 12345) >> 16 & 2047;
			free(keep[i]);
			keep[i] = malloc(n + 1);
			memset(keep[i], i, n + 1);
		}
	for (int i = 0; i < 512; i++)
		free(keep[i]);
	return arg;
}
int main(void)
{
	pthread_t t[3];
	struct timespec start, now;
	long trims = 0;
	for (int i = 0; i < 3; i++)
		pthread_create(&t[i], 0, work, (void *)(size_t)(i + 1));
	clock_gettime(CLOCK_MONOTONIC, &start);
	do {
		malloc_trim(0);
		trims++;
		clock_gettime(CLOCK_MONOTONIC, &now);
	} while (now.tv_sec - start.tv_sec < 2);
	stop = 1;
	for (int i = 0; i < 3; i++)
		pthread_join(t[i], 0);
	return trims < 10;
}
C
check safety/trim-while-allocating sh -c "$(declare -f safety_build safety_runs); d='$d' lib='$lib' TESTCC='$TESTCC' ATCC='$ATCC'; safety_build trim && safety_runs trim"

# Heap errors end as glibc's do: abort() and one line, never silence, never
# SIGSEGV.  Case 2: freeing the old pointer after realloc moved it; case 3:
# a write to a freed block's first word (to a live block's address, and to
# a small number), then malloc; case 11: free() of a pointer 16 bytes into
# a block of size-like words.
cat > "$d/errors.c" <<'C'
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(int argc, char **argv)
{
	char *p, *a, *b, *q;
	size_t *w;
	switch (atoi(argv[1])) {
	case 2:		/* realloc moved p (a block after it); p freed again */
		p = malloc(24);
		a = malloc(24);
		q = realloc(p, 5000);
		free(p);
		a = malloc(24);
		b = malloc(24);
		printf("%d\n", a == b);
		free(q);
		return 0;
	case 3:		/* a freed block's first word overwritten with a live block's address */
		a = malloc(40);
		b = malloc(40);
		free(a);
		memcpy(a, &b, sizeof(b));
		p = malloc(40);
		q = malloc(40);
		printf("%d\n", p == b || q == b);
		return 0;
	case 4:		/* ... and with a small number */
		a = malloc(40);
		free(a);
		*(size_t *)a = 5;
		p = malloc(40);
		q = malloc(40);
		printf("%d\n", p == q);
		return 0;
	case 11:	/* free(p + 16) of a block of size-like words */
		w = malloc(100);
		for (int i = 0; i < 12; i++)
			w[i] = 0x100001;	/* glibc: "double free or corruption (out)" */
		free((char *)w + 16);
		return 0;
	}
	return 2;
}
C
# safety_abort CASE: alloctag's program, built and preloaded, aborts with
# exactly one line on stderr, "alloctag: ..." or glibc's.  The plain program
# aborts too with Debian 12's glibc; glibc 2.43 (sid) lets case 2 reach a
# SIGSEGV, which is glibc's own outcome and not asked of alloctag.
safety_abort() {
	local c=$1 status lines how
	for how in tagged preloaded; do
		if [ $how = tagged ]; then
			(cd "$d" && ulimit -c 0 && ALLOCTAG_REPORT=off ./errors.tagged "$c") >/dev/null 2>"$d/err"
		else
			(cd "$d" && ulimit -c 0 && ALLOCTAG_REPORT=off LD_PRELOAD="$lib" ./errors.plain "$c") >/dev/null 2>"$d/err"
		fi
		status=$?
		lines=$(wc -l < "$d/err")
		[ $status = 134 ] && [ "$lines" = 1 ] ||
			{ echo "case $c, $how: status $status, stderr:"; cat "$d/err"; return 1; }
	done
}
# safety_no_live CASE: a corrupted free list never hands out a live block:
# alloctag's builds abort with one line, or print 0 (glibc may do neither).
safety_no_live() {
	local c=$1 status how out
	for how in tagged preloaded; do
		if [ $how = tagged ]; then
			out=$(cd "$d" && ulimit -c 0 && ALLOCTAG_REPORT=off ./errors.tagged "$c" 2>"$d/err")
		else
			out=$(cd "$d" && ulimit -c 0 && ALLOCTAG_REPORT=off LD_PRELOAD="$lib" ./errors.plain "$c" 2>"$d/err")
		fi
		status=$?
		{ [ $status = 134 ] && [ "$(wc -l < "$d/err")" = 1 ]; } || { [ $status = 0 ] && [ "$out" = 0 ]; } ||
			{ echo "case $c, $how: status $status, printed $out, stderr:"; cat "$d/err"; return 1; }
	done
}
safety_errors() {
	safety_build errors -O0 || return 1		# every call as written
	for c in 2 11; do
		safety_abort $c || return 1
	done
	for c in 3 4; do
		safety_no_live $c || return 1
	done
	# the runtime's own words for its blocks
	(cd "$d" && ulimit -c 0 && ALLOCTAG_REPORT=off ./errors.tagged 2) 2>&1 >/dev/null |
		grep -qx 'alloctag: free(): double free detected (the block is free) (0x[0-9a-f]*)' &&
	(cd "$d" && ulimit -c 0 && ALLOCTAG_REPORT=off ./errors.tagged 11) 2>&1 >/dev/null |
		grep -qx 'alloctag: free(): invalid pointer (0x[0-9a-f]*)' &&
	for c in 3 4; do
		(cd "$d" && ulimit -c 0 && ALLOCTAG_REPORT=off ./errors.tagged $c) 2>&1 >/dev/null |
			grep -qx 'alloctag: malloc(): corrupted list of freed blocks (a freed block was written to) (0x[0-9a-f]*)' ||
			{ echo "case $c: not the runtime's line"; return 1; }
	done
}
check safety/heap-errors-as-glibc sh -c "$(declare -f safety_build safety_abort safety_no_live safety_errors); d='$d' lib='$lib' TESTCC='$TESTCC' ATCC='$ATCC'; safety_errors"

# Case 4: every block mmapped (mallopt, or glibc's environment variable):
# the program runs and the counts are exact.
cat > "$d/mmapped.c" <<'C'
#include <malloc.h>
#include <stdlib.h>
#include <string.h>
int main(int argc, char **argv)
{
	void *keep[64];
	if (argc > 1)
		mallopt(M_MMAP_THRESHOLD, 0);
	for (int round = 0; round < 20; round++) {
		for (int i = 0; i < 64; i++) {
			keep[i] = malloc(100 + i * 200);
			memset(keep[i], 1, 100 + i * 200);
		}
		for (int i = 0; i < 64; i += 2)
			keep[i] = realloc(keep[i], 3000 + i);
		for (int i = 0; i < 64; i++)
			free(keep[i]);
	}
	return 0;
}
C
safety_mmapped() {
	local how want got
	safety_build mmapped || return 1
	# malloc: 20 x 64 calls of 100 + 200 i bytes; realloc: 20 x 32 of 3000 + i, i even
	want='0 0 640 1939840
0 0 1280 8192000'
	for how in mallopt env; do
		if [ $how = mallopt ]; then
			(cd "$d" && ALLOCTAG_REPORT=report ALLOCTAG_FORMAT=full ./mmapped.tagged x) || return 1
		else
			(cd "$d" && MALLOC_MMAP_THRESHOLD_=0 ALLOCTAG_REPORT=report ALLOCTAG_FORMAT=full ./mmapped.tagged) || return 1
		fi
		got=$(report_rows "$d/report" | grep mmapped.c | awk '{ print $1, $2, $3, $4 }' | sort -n -k3)
		[ "$got" = "$want" ] || { echo "$how:"; cat "$d/report"; return 1; }
	done
	(cd "$d" && MALLOC_MMAP_THRESHOLD_=0 ALLOCTAG_REPORT=off LD_PRELOAD="$lib" ./mmapped.plain x)
}
check safety/mmap-threshold-0 safety_mmapped

# Case 7: fork() while other threads allocate, free each other's blocks and
# trim: every child allocates, trims and exits; none hangs (the old runtime
# hung a child's malloc_trim within 15 to 48 forks).
cat > "$d/forks.c" <<'C'
#include <malloc.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
static volatile int stop;
static _Atomic(void *) handed[64];
static void *work(void *arg)
{
	unsigned s = (unsigned)(size_t)arg;
	while (!stop) {
		unsigned k = (s = s * 1103515245 + 12345) >> 16 & 63;
		void *p = malloc((s >> 8 & 511) + 1);
		free(atomic_exchange(&handed[k], p));
		if ((s & 1023) == 0)
			malloc_trim(0);
	}
	return arg;
}
int main(void)
{
	pthread_t t[3];
	int status;
	for (int i = 0; i < 3; i++)
		pthread_create(&t[i], 0, work, (void *)(size_t)(i + 7));
	for (int n = 0; n < 600; n++) {
		pid_t pid = fork();
		if (pid == 0) {
			alarm(10);
			for (int i = 0; i < 1000; i++)
				free(malloc(i % 700 + 1));
			malloc_trim(0);
			free(malloc(100));
			_exit(0);
		}
		if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status))
			return 1;
	}
	stop = 1;
	for (int i = 0; i < 3; i++)
		pthread_join(t[i], 0);
	for (int k = 0; k < 64; k++)
		free(handed[k]);
	return 0;
}
C
check safety/fork-while-threads-allocate sh -c "$(declare -f safety_build safety_runs); d='$d' lib='$lib' TESTCC='$TESTCC' ATCC='$ATCC'; safety_build forks && safety_runs forks"

# Case 7b: the next allocator's first call made by threads at once (8
# threads from a barrier into malloc_trim, glibc's malloc never called yet:
# the runtime is the process's malloc).  glibc's set-up on a first call is
# not thread-safe; the old runtime left that first call to whichever thread
# came first, and crashed in 23 runs of 300.  40 fresh processes each way.
cat > "$d/first-calls.c" <<'C'
#include <malloc.h>
#include <pthread.h>
#define THREADS 8
static pthread_barrier_t start;
static void *trim(void *arg)
{
	pthread_barrier_wait(&start);
	malloc_trim(0);
	return arg;
}
int main(void)
{
	pthread_t t[THREADS];
	pthread_barrier_init(&start, 0, THREADS);
	for (int i = 0; i < THREADS; i++)
		pthread_create(&t[i], 0, trim, 0);
	for (int i = 0; i < THREADS; i++)
		pthread_join(t[i], 0);
	return 0;
}
C
check safety/first-calls-of-the-next-allocator-at-once sh -c "$(declare -f safety_build safety_runs); d='$d' lib='$lib' TESTCC='$TESTCC' ATCC='$ATCC'; safety_build first-calls && for i in \$(seq 40); do safety_runs first-calls || exit 1; done"

# Cases 8 and 19: threads that free what others allocated, threads that
# never allocate among them: 64 producers and 2 consumers, then one thread
# allocating 64-byte blocks in batches and another freeing them.  No
# abort, and exact counts: every block freed, nothing live.
cat > "$d/handoff.c" <<'C'
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#define QUEUE 4096
static void *queue[QUEUE];
static int head, tail, producers_left;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t more = PTHREAD_COND_INITIALIZER, room = PTHREAD_COND_INITIALIZER;
static void put(void *p)
{
	pthread_mutex_lock(&lock);
	while ((tail + 1) % QUEUE == head)
		pthread_cond_wait(&room, &lock);
	queue[tail] = p;
	tail = (tail + 1) % QUEUE;
	pthread_cond_signal(&more);
	pthread_mutex_unlock(&lock);
}
static void *get(void)
{
	void *p = NULL;
	pthread_mutex_lock(&lock);
	while (head == tail && producers_left)
		pthread_cond_wait(&more, &lock);
	if (head != tail) {
		p = queue[head];
		head = (head + 1) % QUEUE;
		pthread_cond_signal(&room);
	}
	pthread_mutex_unlock(&lock);
	return p;
}
static int batch_mode;
static void *produce(void *arg)
{
	int n = batch_mode ? 400000 : 3000;
	for (int i = 0; i < n; i++) {
		size_t size = batch_mode ? 64 : 16 + (i * 37) % 1500;
		char *p = malloc(size);
		memset(p, 0x5a, size);
		put(p);
	}
	pthread_mutex_lock(&lock);
	producers_left--;
	pthread_cond_broadcast(&more);
	pthread_mutex_unlock(&lock);
	return arg;
}
static void *consume(void *arg)
{
	char *p;
	while ((p = get()))
		if (p[0] != 0x5a)
			abort();
		else
			free(p);
	return arg;
}
int main(int argc, char **argv)
{
	int producers = argc > 1 ? 1 : 64, consumers = argc > 1 ? 1 : 2;
	pthread_t t[66];
	batch_mode = argc > 1;
	producers_left = producers;
	for (int i = 0; i < consumers; i++)
		pthread_create(&t[i], 0, consume, 0);
	for (int i = 0; i < producers; i++)
		pthread_create(&t[consumers + i], 0, produce, 0);
	for (int i = 0; i < producers + consumers; i++)
		pthread_join(t[i], 0);
	return 0;
}
C
safety_handoff() {
	local arg got want
	safety_build handoff || return 1
	for arg in "" batches; do
		safety_runs handoff $arg || return 1
		(cd "$d" && ALLOCTAG_REPORT=report ALLOCTAG_FORMAT=full ./handoff.tagged $arg) || return 1
		got=$(report_rows "$d/report" | grep handoff.c | awk '{ print $1, $2, $3, $4, ($5 > 0) }')
		if [ -z "$arg" ]; then
			want=$(awk 'BEGIN { for (i = 0; i < 3000; i++) b += 16 + (i * 37) % 1500; print "0 0 192000", 64 * b, 1 }')
		else
			want='0 0 400000 25600000 1'
		fi
		[ "$got" = "$want" ] || { echo "${arg:-producers}: want $want, got:"; cat "$d/report"; return 1; }
	done
}
check safety/threads-free-others-blocks safety_handoff

# Cases 9 and 10: a library built with alloctag-cc in a plain host.  It
# reallocates and frees glibc's blocks full of random data (the old runtime
# read a trailer there, and crashed one call in 2^14); its strdup and
# strndup sites are counted, calls and bytes, and the report says that
# live bytes are not.
cat > "$d/lib.c" <<'C'
#include <stdlib.h>
#include <string.h>
void *lib_grow(void *p, size_t n) { return realloc(p, n); }
void lib_free(void *p) { free(p); }
char *lib_copy(const char *s) { return strdup(s); }
char *lib_prefix(const char *s) { return strndup(s, 3); }
C
cat > "$d/host.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
void *lib_grow(void *, size_t);
void lib_free(void *);
char *lib_copy(const char *);
char *lib_prefix(const char *);
int main(void)
{
	unsigned s = 1;
	for (int i = 0; i < 200000; i++) {
		size_t n = (s = s * 1103515245 + 12345) >> 16 & 1023;
		unsigned char *p = malloc(n + 8), *q;
		for (size_t k = 0; k < n + 8; k++)
			p[k] = (unsigned char)((s = s * 1103515245 + 12345) >> 16);
		p[0] = 42;
		q = lib_grow(p, n + 100 + i % 3000);
		if (q[0] != 42)
			return 1;
		if (i % 2)
			lib_free(q);
		else
			free(q);
	}
	for (int i = 0; i < 10; i++) {
		free(lib_copy("abcdef"));
		free(lib_prefix("abcdef"));
	}
	puts("ok");
	return 0;
}
C
safety_plain_host() {
	local got
	(cd "$d" && "$ATCC" -O2 -fPIC -shared -o libsafety.so lib.c &&
		"$TESTCC" -O2 -o host host.c -L. -lsafety -Wl,-rpath,'$ORIGIN') || return 1
	got=$(cd "$d" && ALLOCTAG_REPORT=report ALLOCTAG_FORMAT=full ./host) && [ "$got" = ok ] ||
		{ echo "host: $got"; return 1; }
	grep -qx "# alloctag: free() in this process is not alloctag's (libc.so.6): calls and bytes are counted, live bytes and blocks are not" "$d/report" &&
	[ "$(report_rows "$d/report" | awk '$6 ~ /lib\.c:(5|6)/ {
		s = $6; for (i = 7; i <= NF; i++) s = s " " $i; print $1, $2, $3, $4, s }' | sort)" = \
	  "0 0 10 40 lib.c:6:42 [libsafety.so] func:lib_prefix callee:strndup
0 0 10 70 lib.c:5:40 [libsafety.so] func:lib_copy callee:strdup" ] &&
	[ "$(report_rows "$d/report" | awk '$6 ~ /lib\.c:3/ { print $3 }')" = 200000 ] ||
		{ cat "$d/report"; return 1; }
}
check safety/plain-host safety_plain_host

# Case 12: a tagged program under another allocator preloaded: it runs as
# the plain program runs under it (output, status); the report counts the
# tagged calls (not the C library's own, as stdout's buffer: they go to the
# other malloc) and says whose free() it is.
cat > "$d/other.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(void)
{
	char *keep = malloc(100);
	for (int i = 0; i < 1000; i++) {
		char *p = malloc(i + 1);
		p = realloc(p, i + 2000);
		memset(p, 1, i + 2000);
		free(p);
	}
	char *s = strdup("other");
	printf("%s %d\n", s, keep != NULL);
	free(s);
	free(keep);
	return 3;
}
C
safety_other_allocators() {
	local libdir pre name plain ours status_plain status_ours tried=0
	safety_build other || return 1
	libdir=$(dirname "$(gcc -print-file-name=libc.so.6)")
	for pre in libjemalloc.so.2 libmimalloc.so.2 libtcmalloc.so.4 libc_malloc_debug.so.0; do
		[ -e "/usr/lib/x86_64-linux-gnu/$pre" ] && pre=/usr/lib/x86_64-linux-gnu/$pre ||
			{ [ -e "$libdir/$pre" ] && pre=$libdir/$pre; } || continue
		tried=$((tried + 1))
		plain=$(cd "$d" && MALLOC_CHECK_=3 LD_PRELOAD=$pre ./other.plain 2>&1); status_plain=$?
		ours=$(cd "$d" && MALLOC_CHECK_=3 LD_PRELOAD=$pre ALLOCTAG_REPORT=report ALLOCTAG_FORMAT=full ./other.tagged 2>&1); status_ours=$?
		[ "$plain/$status_plain" = "$ours/$status_ours" ] ||
			{ echo "$pre: plain: $plain ($status_plain), alloctag: $ours ($status_ours)"; return 1; }
		name=${pre##*/}
		grep -qx "# alloctag: free() in this process is not alloctag's ($name): calls and bytes are counted, live bytes and blocks are not" "$d/report" &&
		[ "$(report_rows "$d/report" | grep other.c | awk '{ print $3, $4 }' | sort -k2n)" = "1 6
1 100
1000 500500
1000 2499500" ] || { echo "$pre:"; cat "$d/report"; return 1; }
	done
	[ $tried = 4 ] || { echo "only $tried of the four allocators are installed"; return 1; }
}
for pkg in libjemalloc2 libmimalloc2.0 libgoogle-perftools4; do
	dpkg -s "$pkg" >/dev/null 2>&1 ||
		DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -q --no-install-recommends "$pkg" >/dev/null 2>&1
done
if [ -e /usr/lib/x86_64-linux-gnu/libjemalloc.so.2 ] && [ -e /usr/lib/x86_64-linux-gnu/libmimalloc.so.2 ] &&
   [ -e /usr/lib/x86_64-linux-gnu/libtcmalloc.so.4 ]; then
	check safety/other-allocators safety_other_allocators
else
	skip safety/other-allocators "libjemalloc2, libmimalloc2.0 or libgoogle-perftools4 not installable"
fi

# Case 13: sanitizers.  Built with alloctag-cc -fsanitize=address, thread or
# undefined, and alloctag-c++ -fsanitize=address, the program runs as the
# plain sanitized build runs, and the report is exact.
sed -e 's/= malloc(\([^;]*\));/= static_cast<char *>(malloc(\1));/' \
    -e 's/= realloc(\([^;]*\));/= static_cast<char *>(realloc(\1));/' "$d/other.c" > "$d/other.cc"
safety_sanitizer() {
	local lang=$1 san=$2 cc=$TESTCC atcc=$ATCC src=other.c plain ours status_plain status_ours got
	if [ "$lang" = c++ ]; then
		cc=$(echo "$TESTCC" | sed 's/gcc/g++/') atcc=$(dirname "$ATCC")/alloctag-c++ src=other.cc
	fi
	(cd "$d" && "$cc" -O1 -fsanitize="$san" -o "san-$lang-$san.plain" $src &&
		"$atcc" -O1 -fsanitize="$san" -o "san-$lang-$san.tagged" $src) >"$d/san.log" 2>&1 ||
		{ cat "$d/san.log"; return 1; }
	plain=$(cd "$d" && "./san-$lang-$san.plain" 2>&1); status_plain=$?
	ours=$(cd "$d" && ALLOCTAG_REPORT=report ALLOCTAG_FORMAT=full "./san-$lang-$san.tagged" 2>&1); status_ours=$?
	[ "$plain/$status_plain" = "$ours/$status_ours" ] ||
		{ echo "$lang -fsanitize=$san: plain: $plain ($status_plain), alloctag: $ours ($status_ours)"; return 1; }
	got=$(report_rows "$d/report" | grep "$src" | awk '{ print $1, $2, $3, $4 }' | sort -n -k4)
	[ "$got" = "0 0 1 6
0 0 1 100
4096 1 1 4096
0 0 1000 500500
0 0 1000 2499500" ] || { echo "$lang -fsanitize=$san:"; cat "$d/report"; return 1; }
}
for san in address thread undefined; do
	check "safety/sanitizer-$san" safety_sanitizer c "$san"
done
check safety/sanitizer-address-c++ safety_sanitizer c++ address

# Case 15: idle threads' memory goes back while another thread only hits
# what it has: 12 threads allocate and free 4 MiB each of small blocks and
# wait; the main thread allocates and frees 2 seconds long.  What remains in
# use (glibc's count and the runtime's, mallinfo2) and RSS, against glibc.
cat > "$d/idle.c" <<'C'
#include <pthread.h>
#include <stdlib.h>
#include <time.h>
#include "measure.h"
#define THREADS 12
static pthread_barrier_t churned, done;
static void *worker(void *arg)
{
	static __thread void *p[65536];
	for (int i = 0; i < 65536; i++)
		p[i] = malloc(64);
	for (int i = 0; i < 65536; i++)
		free(p[i]);
	pthread_barrier_wait(&churned);
	pthread_barrier_wait(&done);
	return arg;
}
int main(void)
{
	pthread_t t[THREADS];
	struct timespec start, now;
	pthread_barrier_init(&churned, 0, THREADS + 1);
	pthread_barrier_init(&done, 0, THREADS + 1);
	for (int i = 0; i < THREADS; i++)
		pthread_create(&t[i], 0, worker, 0);
	pthread_barrier_wait(&churned);
	clock_gettime(CLOCK_MONOTONIC, &start);
	do {
		for (int i = 0; i < 10000; i++)
			free(malloc(32));
		clock_gettime(CLOCK_MONOTONIC, &now);
	} while (now.tv_sec - start.tv_sec < 2);
	measure("busy");
	pthread_barrier_wait(&done);
	for (int i = 0; i < THREADS; i++)
		pthread_join(t[i], 0);
	return 0;
}
C
safety_idle() {
	local plain ours
	cp "$TOP/testsuite/runtime/programs/measure.h" "$d/" && safety_build idle || return 1
	plain=$(cd "$d" && ./idle.plain) && ours=$(cd "$d" && ALLOCTAG_REPORT=off ./idle.tagged) || return 1
	echo "$plain $ours" | awk '{
		split($2, pr, "="); split($4, pi, "="); split($6, or, "="); split($8, oi, "=")
		if (oi[2] > pi[2] + 1024 || or[2] > pr[2] + 4096) {
			print "glibc: " $2 " " $4 " KiB, alloctag: " $6 " " $8 " KiB"; exit 1 } }'
}
check safety/idle-threads-give-back safety_idle

# A non-PIE program that takes free's and malloc's address (as Debian's
# python3 does) makes its own PLT entries their address for every object
# (the canonical PLT): with liballoctag.so preloaded, the runtime must still
# see that the program's calls reach its own free, and count live bytes.
cat > "$d/nopie.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
void *(*volatile alloc)(size_t) = 0;
void (*volatile release)(void *) = 0;
int main(void)
{
	char *keep;
	alloc = malloc;
	release = free;
	keep = alloc(100);
	for (int i = 0; i < 1000; i++)
		release(alloc(i + 1));
	puts(keep ? "ok" : "no");
	return 0;
}
C
safety_canonical_plt() {
	local out
	(cd "$d" && "$TESTCC" -O1 -no-pie -fno-pie -o nopie nopie.c) || return 1
	readelf -h "$d/nopie" | grep -q 'Type: *EXEC' || { echo "not a non-PIE executable"; return 1; }
	out=$(cd "$d" && LD_PRELOAD="$lib" ALLOCTAG_REPORT=report ALLOCTAG_FORMAT=full ./nopie 2>&1) &&
		[ "$out" = ok ] || { echo "nopie: $out"; return 1; }
	grep -q "not alloctag's" "$d/report" && { cat "$d/report"; return 1; }
	# untagged: the program's 1001 blocks and the C library's; 100 bytes of them live
	report_rows "$d/report" | awk '$6 == "untagged" && $3 >= 1001 && $1 >= 100 { ok = 1 } END { exit !ok }' ||
		{ cat "$d/report"; return 1; }
}
check safety/preloaded-non-pie-canonical-plt safety_canonical_plt

# Under ASan a leak found at exit ends the process from inside the
# sanitizer, before any destructor: the report is still written (from its
# death callback), with the leaked block live, and the status is the plain
# sanitized build's.
cat > "$d/leak.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
char *volatile kept;
int main(void)
{
	kept = malloc(77);
	kept = 0;
	puts("leaked");
	return 0;
}
C
safety_sanitizer_leak() {
	local status_plain status_ours
	(cd "$d" && "$TESTCC" -O0 -fsanitize=address -o leak.plain leak.c &&
		"$ATCC" -O0 -fsanitize=address -o leak.tagged leak.c) >"$d/san.log" 2>&1 || { cat "$d/san.log"; return 1; }
	(cd "$d" && ./leak.plain) >/dev/null 2>&1; status_plain=$?
	rm -f "$d/report"
	(cd "$d" && ALLOCTAG_REPORT=report ALLOCTAG_FORMAT=full ./leak.tagged) >/dev/null 2>&1; status_ours=$?
	[ $status_plain != 0 ] && [ $status_ours = $status_plain ] ||
		{ echo "status: plain $status_plain, alloctag $status_ours"; return 1; }
	[ "$(report_rows "$d/report" | awk '$6 ~ /^leak\.c:6:/ { print $1, $2, $3, $4 }')" = "77 1 1 77" ] ||
		{ cat "$d/report"; return 1; }
}
check safety/sanitizer-address-leak-report safety_sanitizer_leak
