# Under RLIMIT_AS (ulimit -v) a program that has used up its address space
# still gets its report at exit: it is written through a buffer on the
# stack, sorted in static memory, and for more sites than that holds,
# unsorted a window at a time, said in the report.  The program's own
# output and status are the plain build's.
d=$WORK/address-space
mkdir -p "$d"
cat > "$d/exhaust.h" <<'C'
#include <stdio.h>
#include <sys/mman.h>
/* Every byte of address space mapped, in ever smaller pieces. */
static void exhaust(void)
{
	for (size_t size = 1 << 24; size >= 4096; size /= 2)
		while (mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
			    -1, 0) != MAP_FAILED)
			;
	printf("exhausted\n");
	fflush(stdout);
}
C
cat > "$d/few.c" <<'C'
#include <stdlib.h>
#include "exhaust.h"
int main(void)
{
	char *volatile a = malloc(100), *volatile b = malloc(3000);

	exhaust();
	return !a || !b;
}
C
# More sites than the report's static room (256).
{
	echo '#include <stdlib.h>'
	echo '#include "exhaust.h"'
	echo 'void *volatile keep[600];'
	echo 'int main(void)'
	echo '{'
	for i in $(seq 0 599); do echo "	keep[$i] = malloc($((i + 1)));"; done
	echo '	exhaust();'
	echo '	return 0;'
	echo '}'
} > "$d/many.c"
as_build() {
	cd "$d" && for p in few many; do
		"$TESTCC" -O0 -o $p.plain $p.c && "$ATCC" -O0 -o $p $p.c || return 1
	done
}
check address-space/build as_build

# PROG run plain and tagged under ulimit -v: the same output and status;
# the tagged report in $d/PROG.report.
as_run() {
	local plain tagged
	plain=$(cd "$d" && ulimit -v 200000 && ./$1.plain; echo "status $?")
	tagged=$(cd "$d" && ulimit -v 200000 && ALLOCTAG_FORMAT=full ALLOCTAG_REPORT=stderr ./$1 2> $1.report; echo "status $?")
	[ "$plain" = "exhausted
status 0" ] && [ "$tagged" = "$plain" ] || { echo "plain: $plain"; echo "alloctag: $tagged"; cat "$d/$1.report"; return 1; }
}

few_check() {
	as_run few || return 1
	# exhaust()'s printf found no memory for stdout's buffer: its site, charged nothing
	[ "$(report_by_line "$d/few.report")" = "exhaust.h:10 0/0 0/0 0
few.c:5 100/1 100/1 100
few.c:5 3000/1 3000/1 3000" ] || { cat "$d/few.report"; return 1; }
	# sorted: the largest first
	[ "$(grep -m 1 'few.c' "$d/few.report" | awk '{ print $1 }')" = 3000 ] || { cat "$d/few.report"; return 1; }
}
check address-space/report-sorted few_check

many_check() {
	local want got
	as_run many || return 1
	want=$({ echo "exhaust.h:10 0/0 0/0 0"
		for i in $(seq 0 599); do echo "many.c:$((i + 6)) $((i + 1))/1 $((i + 1))/1 $((i + 1))"; done; } | sort)
	got=$(report_by_line "$d/many.report")
	[ "$got" = "$want" ] &&
		grep -qx '# alloctag: no memory to sort the sites: they are in the order they were first seen, every one' "$d/many.report" ||
		{ diff <(echo "$want") <(echo "$got") | head; head -n 5 "$d/many.report"; return 1; }
}
check address-space/report-unsorted many_check

# Room for one segment (4 MiB) and not two: the first malloc gets one,
# every time.  Before, a segment the kernel did not put at a 4 MiB boundary
# (it aligns large mappings to 2 MiB: half of them) was made again out of 8
# MiB, which the limit refused, and malloc failed with 4 MiB free
# (coreutils's tests/misc/printf-surprise.sh, under ulimit -v: its small
# xmalloc said "memory exhausted" where glibc's malloc succeeds).  The limit
# set at main, before any allocation (the address space read without one);
# 20 runs: the addresses vary.
cat > "$d/one-fits.c" <<'C'
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#define BLOCK	64
#define BLOCKS	((1 << 20) / BLOCK)
#define ROOM	(6 << 20)		/* one segment, and not two */
static char status[8192];
/* The address space in use, in bytes, read without an allocation. */
static long vm_now(void)
{
	int fd = open("/proc/self/status", O_RDONLY);
	ssize_t n = fd >= 0 ? read(fd, status, sizeof(status) - 1) : -1;
	char *at;

	if (fd >= 0)
		close(fd);
	status[n > 0 ? n : 0] = '\0';
	at = strstr(status, "VmSize:");
	return at ? atol(at + 7) * 1024 : -1;
}
int main(void)
{
	struct rlimit r;

	getrlimit(RLIMIT_AS, &r);
	r.rlim_cur = (rlim_t)vm_now() + ROOM;
	if (setrlimit(RLIMIT_AS, &r) != 0)
		return perror("setrlimit"), 2;
	for (long i = 0; i < BLOCKS; i++)
		if (!malloc(BLOCK))
			return printf("malloc failed after %ld bytes\n", i * BLOCK), 1;
	return 0;
}
C
one_fits_check() {
	local i out
	cd "$d" && "$ATCC" -O1 -o one-fits one-fits.c || return 1
	for i in $(seq 20); do
		out=$(ALLOCTAG_REPORT=off ./one-fits) || { echo "run $i: $out"; return 1; }
	done
}
check address-space/a-segment-where-one-fits one_fits_check
