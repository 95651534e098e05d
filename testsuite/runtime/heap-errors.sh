# Heap errors are detected at least as often as glibc detects them, and end
# as glibc ends them: a line on stderr and abort().  Never silence where
# glibc aborts, never a SIGSEGV where glibc has none (a second free of an
# mmapped block faults in both: its memory is gone).  Each case runs built
# plain (glibc) and with alloctag-cc.
d=$WORK/heap-errors
mkdir -p "$d"
cat > "$d/errors.c" <<'C'
#include <stdlib.h>
#include <string.h>
int main(int argc, char **argv)
{
	char stack_buf[256];
	char *p, *a, *q;
	volatile int which = atoi(argv[1]);

	memset(stack_buf, 0, sizeof(stack_buf));
	switch (which) {
	case 1:	/* the issue's double free: then three malloc(40) */
		p = malloc(40); a = malloc(40);
		free(a); free(p); free(p);
		a = malloc(40); q = malloc(40); p = malloc(40);
		return a == q || q == p;
	case 2:	/* double free of a block too big for any cache */
		p = malloc(2000); a = malloc(2000);
		free(p); free(p);
		return 0;
	case 3:	/* double free of an mmapped block */
		p = malloc(1 << 20);
		free(p); free(p);
		return 0;
	case 4:	/* a pointer into the stack */
		free(stack_buf + 32);
		return 0;
	case 5:	/* a pointer into a block */
		p = calloc(1, 100);
		free(p + 16);
		return 0;
	case 6:	/* realloc of a freed block */
		p = malloc(40); a = malloc(40);
		free(p);
		q = realloc(p, 80);
		return q == 0;
	}
	return 0;
}
C
heap_errors_check() {
	local c plain ours err lines
	cd "$d" && "$TESTCC" -O0 -w -o plain errors.c && "$ATCC" -O0 -w -o ours errors.c || return 1
	for c in 1 2 3 4 5 6; do
		(ulimit -c 0; ./plain $c) 2> /dev/null; plain=$?
		(ulimit -c 0; ALLOCTAG_REPORT=off ./ours $c) 2> err; ours=$?
		lines=$(wc -l < err)
		if [ $ours = 139 ] && [ $plain != 139 ]; then
			echo "case $c: SIGSEGV"; return 1
		fi
		if [ $plain = 134 ] && { [ $ours != 134 ] || [ "$lines" != 1 ]; }; then
			echo "case $c: glibc aborts, alloctag: status $ours, stderr:"; cat err; return 1
		fi
		if [ $ours = 134 ] && [ "$lines" != 1 ]; then
			echo "case $c: aborted without one line"; cat err; return 1
		fi
	done
}
check heap-errors/as-glibc heap_errors_check

# The double frees glibc's tcache lets through when the block sits in
# another thread's cache, alloctag's vector entries do not: a block freed
# twice, the second time by another thread, aborts with alloctag's line
# (its slab still holds a block in use, so its memory is not reused).
cat > "$d/cross.c" <<'C'
#include <pthread.h>
#include <stdlib.h>
static void *again(void *p) { free(p); return 0; }
int main(void)
{
	pthread_t t;
	char *p = malloc(40), *q = malloc(40);
	free(p);
	pthread_create(&t, 0, again, p);
	pthread_join(t, 0);
	free(q);
	return 0;
}
C
cross_check() {
	cd "$d" && "$ATCC" -O0 -o cross cross.c -lpthread || return 1
	(ulimit -c 0; ALLOCTAG_REPORT=off ./cross) 2> err
	[ $? = 134 ] && grep -qx 'alloctag: free(): double free detected (the block is free) (0x[0-9a-f]*)' err ||
		{ cat err; return 1; }
}
check heap-errors/cross-thread-double-free cross_check
