# errno is the program's: 0 when main starts, and what the program left in it
# across fork (the runtime's atfork handlers), as in the plain build.  The
# constructor's isatty, open and getcwd used to leave ENOTTY or EEXIST.
d=$WORK/errno
mkdir -p "$d"
cat > "$d/prog.c" <<'C'
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
int main(void)
{
	int at_start = errno, status;
	pid_t child;

	printf("at start: %d\n", at_start);
	fflush(stdout);
	free(malloc(10));
	errno = 77;			/* fork succeeds: errno stays */
	child = fork();
	if (child == 0) {
		printf("child: %d\n", errno);
		fflush(stdout);
		_exit(0);
	}
	printf("parent: %d\n", errno);
	waitpid(child, &status, 0);
	return 0;
}
C
errno_build() {
	cd "$d" && "$TESTCC" -O0 -o prog.plain prog.c && "$ATCC" -O0 -o prog prog.c
}
check errno/build errno_build

# stderr not a terminal, a live file and a report file made.
errno_check() {
	local plain tagged
	cd "$d" || return 1
	plain=$(./prog.plain < /dev/null 2>&1 | sort)
	tagged=$(ALLOCTAG_REPORT=report ./prog < /dev/null 2>&1 | sort)
	[ "$plain" = "$tagged" ] && [ "$(echo "$plain" | head -n 1)" = "at start: 0" ] ||
		{ echo "plain:"; echo "$plain"; echo "alloctag:"; echo "$tagged"; return 1; }
	tagged=$(unset ALLOCTAG_REPORT; ./prog < /dev/null 2>/dev/null | sort)
	[ "$plain" = "$tagged" ] || { echo "default report: $tagged"; return 1; }
}
check errno/kept errno_check
