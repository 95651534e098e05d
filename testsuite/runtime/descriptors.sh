# The runtime holds no descriptor while the program runs: a tagged program,
# its fork child and the program it execs see the descriptors the plain
# build sees (gnulib's test-execute.sh wants exactly "0 1 2 10" in an exec'd
# child); closefrom(3) and the numbers a program reuses after it are the
# program's own: output fopen()ed on a reused number reaches its file, a
# pipe made after closefrom works across fork (issue 25 cases 5 and 6).
d=$WORK/descriptors
mkdir -p "$d"
export XDG_RUNTIME_DIR=$d/xdg
mkdir -m 700 "$XDG_RUNTIME_DIR"
cat > "$d/fds.c" <<'C'
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
/* "WHEN: 0 1 2 ...": the descriptors open now. */
static void list_fds(const char *when)
{
	DIR *d = opendir("/proc/self/fd");
	int fds[1024], n = 0, me = dirfd(d);
	struct dirent *e;

	while ((e = readdir(d)) && n < 1024)
		if (e->d_name[0] != '.' && atoi(e->d_name) != me)
			fds[n++] = atoi(e->d_name);
	closedir(d);
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && fds[j - 1] > fds[j]; j--) {
			int t = fds[j]; fds[j] = fds[j - 1]; fds[j - 1] = t;
		}
	printf("%s:", when);
	for (int i = 0; i < n; i++)
		printf(" %d", fds[i]);
	printf("\n");
	fflush(stdout);
}
int main(int argc, char **argv)
{
	const char *how = argc > 1 ? argv[1] : "";
	char *volatile p = malloc(100);

	if (!strcmp(how, "list")) {
		list_fds(argv[2]);
		return 0;
	}
	list_fds("main");
	if (!strcmp(how, "exec")) {		/* as gnulib's test-execute.sh */
		dup2(STDOUT_FILENO, 10);
		execl(argv[0], argv[0], "list", "exec'd", (char *)NULL);
		return 127;
	}
	if (!strcmp(how, "fork")) {
		pid_t child = fork();

		if (child == 0) {
			char *volatile q = malloc(300);	/* a site new to the child: its live file */

			list_fds("child");
			_exit(!q);
		}
		waitpid(child, NULL, 0);
		list_fds("parent");
	}
	if (!strcmp(how, "closefrom-fopen")) {	/* case 5: 3, 4, 5, 6 reused */
		closefrom(3);
		for (int i = 0; i < 4; i++) {
			char name[16];
			FILE *f;

			snprintf(name, sizeof(name), "out%d.txt", i);
			f = fopen(name, "w");
			fprintf(f, "the program's output %d\n", i);	/* flushed by exit */
		}
		list_fds("fopen");
		return !p;
	}
	if (!strcmp(how, "closefrom-pipe")) {	/* case 6 */
		char buf[64] = "";
		int fd[2];
		ssize_t n;
		pid_t child;

		closefrom(3);
		if (pipe(fd))
			return 1;
		child = fork();
		if (child == 0) {
			close(fd[0]);
			_exit(write(fd[1], "through the pipe", 16) != 16);
		}
		close(fd[1]);
		n = read(fd[0], buf, sizeof(buf) - 1);
		printf("read: %s\n", n > 0 ? buf : strerror(errno));
		waitpid(child, NULL, 0);
	}
	list_fds("end");
	return !p;
}
C
fds_build() {
	cd "$d" && "$TESTCC" -O0 -o fds.plain fds.c && "$ATCC" -O0 -o fds fds.c
}
check descriptors/build fds_build

# HOW run plain and as PROGRAM with the runtime (ENV... its environment:
# ALLOCTAG_REPORT, LD_PRELOAD): the same output, and the same out*.txt.
fds_same() {
	local how=$1 program=$2 plain tagged
	shift 2
	cd "$d" || return 1
	rm -f out*.txt
	plain=$(./fds.plain $how; cat out*.txt 2>/dev/null)
	rm -f out*.txt
	tagged=$(env "$@" ./$program $how; cat out*.txt 2>/dev/null)
	[ "$plain" = "$tagged" ] || { echo "plain:"; echo "$plain"; echo "alloctag:"; echo "$tagged"; return 1; }
}
for how in main exec fork closefrom-fopen closefrom-pipe; do
	check "descriptors/$how-report-stderr" fds_same $how fds ALLOCTAG_REPORT=stderr
	check "descriptors/$how-report-file" fds_same $how fds ALLOCTAG_REPORT=report.txt
	check "descriptors/$how-report-default" fds_same $how fds -u ALLOCTAG_REPORT
	# The plain build with the runtime preloaded (the exec'd child too).
	check "descriptors/$how-preloaded" fds_same $how fds.plain ALLOCTAG_REPORT=stderr \
		LD_PRELOAD="$TOP/build/$TESTCC/liballoctag.so"
done
