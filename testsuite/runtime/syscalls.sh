# The runtime's start and exit make the same system calls whatever its live
# directory holds (runtime/live_kept.c), so that a test suite that counts a
# program's calls under strace counts the program's: coreutils's
# tests/ls/stat-free-symlinks.sh counts the stat-family calls of two runs of
# ls and wants exactly one more in the second.  Before, every exit stat'ed
# each kept report (65 at the bound) and every start each live file, and the
# two runs differed by what other processes had left between them.
#
# A small program under strace, ALLOCTAG_REPORT unset (its report kept):
#   quiet    the kept reports at their bound already (64)
#   crowded  the same, and 40 stale live files and 10 of running processes
#            beside them, a start within the sweep interval: every call the
#            same as quiet, by name and count
#   swept    a start after the interval, which sweeps: the stat-family calls
#            the same as quiet, and the 40 stale files gone, 64 kept
d=$WORK/syscalls
mkdir -p "$d"
export XDG_RUNTIME_DIR=$d/xdg
unset ALLOCTAG_REPORT
LIVE=$XDG_RUNTIME_DIR/alloctag
SWEEP_INTERVAL=1.05	# runtime/live_dir.h: LIVE_SWEEP_INTERVAL_NS, and a little
STATS=stat,statx,lstat,newfstatat,fstatat64,stat64,lstat64	# coreutils's list
if ! ensure_deps strace || ! command -v strace > /dev/null; then
	skip syscalls/same-whatever-the-directory-holds "no strace: $DEPS_OUT"
	return 0
fi
if ! out=$(strace -qq -o /dev/null true 2>&1); then
	skip syscalls/same-whatever-the-directory-holds "strace cannot trace here: $out"
	return 0
fi
cat > "$d/prog.c" <<'C'
#include <stdlib.h>
#include <unistd.h>
int main(int argc, char **argv)
{
	char *volatile p = malloc(100);

	if (argc > 1)
		pause();	/* one that runs on, until killed */
	free(p);
	return 0;
}
C
check syscalls/build sh -c "cd '$d' && '$ATCC' -O1 -o prog prog.c"

# The calls of one run of prog, by name, counted.  The addresses not
# randomized (setarch -R): where mmap puts a segment decides whether the
# allocator trims it to its alignment (an mmap and munmaps more).
calls() {
	setarch "$(uname -m)" -R strace -qq -o "$d/trace" "$d/prog" || return 1
	sed -E 's/^[0-9]+ +//; s/\(.*//' "$d/trace" | sort | uniq -c
}
stat_calls() {
	echo "$1" | grep -Ew "$(echo "$STATS" | tr , '|')"
}
stale_count() {
	ls "$LIVE" | grep -c '^20000000'
}
differ() {	# differ WHAT BEFORE AFTER
	echo "$1:"
	diff <(echo "$2") <(echo "$3")
	return 1
}

# The quiet calls, then the crowded, within the interval after a sweep.
measure() {
	local i
	sleep "$SWEEP_INTERVAL"
	"$d/prog"	# sweeps; the next within the interval do not
	quiet=$(calls) || return 1
	for i in $(seq 40); do echo stale > "$LIVE/$((2000000000 + i))"; done
	crowded=$(calls)
}

# With RUNNERS running beside: quiet, crowded (within the interval after a
# sweep, or again: a slow machine may take longer), then swept.
compare() {
	local quiet crowded swept tries
	for tries in 1 2 3; do
		measure || return 1
		[ "$(stat_calls "$crowded")" = "$(stat_calls "$quiet")" ] ||
			differ "stat calls, quiet then crowded" "$(stat_calls "$quiet")" "$(stat_calls "$crowded")" || return 1
		[ "$(stale_count)" = 40 ] && break
	done
	[ "$(stale_count)" = 40 ] || { echo "no measure within the sweep interval in 3 tries"; return 1; }
	[ "$crowded" = "$quiet" ] || differ "calls, quiet then crowded" "$quiet" "$crowded" || return 1
	sleep "$SWEEP_INTERVAL"
	swept=$(calls) || return 1
	[ "$(stat_calls "$swept")" = "$(stat_calls "$quiet")" ] ||
		differ "stat calls, quiet then swept" "$(stat_calls "$quiet")" "$(stat_calls "$swept")" || return 1
	[ "$(stale_count)" = 0 ] || { echo "$(stale_count) stale files left by the sweep"; return 1; }
	[ "$(ls "$LIVE" | grep -c '\.report$')" = 64 ] || { echo "$(ls "$LIVE" | grep -c '\.report$') reports kept, not 64"; return 1; }
}

syscalls_check() {
	local runners=() rc
	rm -rf "$XDG_RUNTIME_DIR" && mkdir -m 700 "$XDG_RUNTIME_DIR" || return 1
	for _ in $(seq 70); do "$d/prog" || return 1; done
	for _ in $(seq 10); do
		"$d/prog" running > /dev/null 2>&1 &
		runners+=($!)
	done
	for _ in $(seq 100); do [ "$(ls "$LIVE" | grep -c '^[0-9]*$')" = 10 ] && break; sleep 0.05; done
	compare
	rc=$?
	kill "${runners[@]}" 2>/dev/null
	wait "${runners[@]}" 2>/dev/null
	return $rc
}
check syscalls/same-whatever-the-directory-holds syscalls_check
