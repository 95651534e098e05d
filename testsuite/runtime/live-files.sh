# Live files leave nothing behind: a fork child that execs or _exits makes
# none (its file is made lazily, once it allocates from a call site new to
# it; one that made its file and exec'd leaves a stale one, removed at the
# next sweep), and a process killed by SIGKILL leaves one, its last word,
# that the next sweep (the first start of the user's a second after the
# last sweep) keeps as PID.counters among the kept reports, as bounded as
# they are.  Measured:
# 1000 fork+exec, 1000 fork+_exit, then 0 files; 100 SIGKILLs, then 0 live
# files and the last 64 kept.
d=$WORK/live-files
mkdir -p "$d"
export XDG_RUNTIME_DIR=$d/xdg ALLOCTAG_REPORT=off
LIVE=$XDG_RUNTIME_DIR/alloctag
SWEEP_INTERVAL=1.05	# runtime/live_dir.h: LIVE_SWEEP_INTERVAL_NS, and a little
cat > "$d/forker.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
static char *volatile keep;
/* Does this process have a live file? */
static int has_file(void)
{
	char path[4096];
	struct stat st;

	snprintf(path, sizeof(path), "%s/alloctag/%d", getenv("XDG_RUNTIME_DIR"), (int)getpid());
	return stat(path, &st) == 0;
}
int main(int argc, char **argv)
{
	const char *how = argv[1];
	int n = atoi(argv[2]);

	keep = malloc(100);
	for (int i = 0; i < n; i++) {
		pid_t child = fork();

		if (child == 0 && !strcmp(how, "exec")) {
			free(keep);		/* a site the parent used already */
			keep = malloc(10);
			execl("/bin/true", "true", (char *)NULL);
			_exit(127);
		}
		if (child == 0 && !strcmp(how, "exit"))
			_exit(0);
		if (child == 0) {		/* lives on: a site new to it */
			char *volatile mine = malloc(200);
			int had = has_file();

			free(mine);
			exit(had ? 0 : 1);	/* its exit removes it */
		}
		int status;
		if (waitpid(child, &status, 0) != child || !WIFEXITED(status) || WEXITSTATUS(status))
			return printf("child %d: status %d\n", i, status), 1;
	}
	return 0;
}
C
cat > "$d/sleeper.c" <<'C'
#include <stdlib.h>
#include <unistd.h>
int main(void)
{
	char *volatile p = malloc(10);

	pause();
	return !p;
}
C
lf_build() {
	cd "$d" && "$ATCC" -O1 -o forker forker.c && "$ATCC" -O1 -o sleeper sleeper.c
}
check live-files/build lf_build

# The live files in the directory (names all digits), the kept counters.
live_count() {
	ls "$LIVE" 2>/dev/null | grep -c '^[0-9]*$'
}
kept_count() {
	ls "$LIVE" 2>/dev/null | grep -c '^[0-9]*\.counters$'
}

fork_exec_check() {
	rm -rf "$XDG_RUNTIME_DIR" && mkdir -m 700 "$XDG_RUNTIME_DIR" || return 1
	(cd "$d" && ./forker exec 1000 && ./forker exit 1000) || return 1
	[ "$(ls "$LIVE" | wc -l)" = 0 ] || { echo "$(ls "$LIVE" | wc -l) files left"; ls "$LIVE" | head; return 1; }
}
check live-files/fork-exec-leaves-none fork_exec_check

# A child that lives on has its file (forker checks), and removes it at exit.
lives_on_check() {
	rm -rf "$XDG_RUNTIME_DIR" && mkdir -m 700 "$XDG_RUNTIME_DIR" || return 1
	(cd "$d" && ./forker lives 20) || return 1
	[ "$(live_count)" = 0 ] || { echo "$(live_count) files left"; return 1; }
}
check live-files/child-that-lives-on lives_on_check

# 100 running at once (none is stale when the others start), then killed.
sigkill_check() {
	local pids=() pid
	rm -rf "$XDG_RUNTIME_DIR" && mkdir -m 700 "$XDG_RUNTIME_DIR" || return 1
	for _ in $(seq 100); do
		"$d/sleeper" &
		pids+=($!)
	done
	for pid in "${pids[@]}"; do
		for _ in $(seq 500); do [ -e "$LIVE/$pid" ] && break; sleep 0.01; done
	done
	kill -KILL "${pids[@]}"
	wait "${pids[@]}" 2>/dev/null
	[ "$(live_count)" = 100 ] || { echo "$(live_count) files after SIGKILL, not 100"; return 1; }
	sleep "$SWEEP_INTERVAL"
	(cd "$d" && ./forker exit 1) || return 1
	[ "$(live_count)" = 0 ] || { echo "$(live_count) live files left after the next sweep"; return 1; }
	[ "$(kept_count)" = 64 ] || { echo "$(kept_count) kept as PID.counters, not the last 64"; return 1; }
}
check live-files/sigkilled-kept-bounded-at-next-sweep sigkill_check

# A live file is named once it is whole: while the runtime sizes it (its
# first ftruncate, here the program's own, which the runtime's call binds
# to) no file of the process's is in the directory yet, so a reader never
# finds one half made ("the process is starting"); then it is there.
cat > "$d/whole.c" <<'C'
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
static int named_when_sized = -1;
static int named(void)
{
	char path[4096];
	struct stat st;

	snprintf(path, sizeof(path), "%s/alloctag/%d", getenv("XDG_RUNTIME_DIR"), (int)getpid());
	return stat(path, &st) == 0;
}
int ftruncate(int fd, off_t length)
{
	if (named_when_sized < 0)
		named_when_sized = named();
	return syscall(SYS_ftruncate, fd, length);
}
int main(void)
{
	char *volatile p = malloc(10);

	printf("named when sized: %d, named now: %d\n", named_when_sized, named());
	return !p;
}
C
whole_check() {
	local out
	rm -rf "$XDG_RUNTIME_DIR" && mkdir -m 700 "$XDG_RUNTIME_DIR" || return 1
	cd "$d" && "$ATCC" -O1 -o whole whole.c && out=$(./whole) || return 1
	[ "$out" = "named when sized: 0, named now: 1" ] || { echo "$out"; return 1; }
}
check live-files/named-once-whole whole_check
