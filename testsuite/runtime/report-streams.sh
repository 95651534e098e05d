# The exit report never disturbs the program: exit status, output order and
# the program's files stay what they are without alloctag, and the report is
# not lost when the program closes its streams or rewrites its environment:
# what cannot go where it was asked to is kept in the live directory, where
# `alloctag snapshot PID` reads it, with a note saying why.
d=$WORK/report-streams
mkdir -p "$d"
export XDG_RUNTIME_DIR=$d/xdg
mkdir -m 700 "$XDG_RUNTIME_DIR"
AT=$TOP/build/$TESTCC/alloctag
cat > "$d/prog.c" <<'C'
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
extern char **environ;
static void close_streams(void)		/* as gnulib's close_stdout */
{
	fclose(stdout);
	fclose(stderr);
}
int main(int argc, char **argv)
{
	const char *how = argc > 1 ? argv[1] : "";
	static char *keep;

	keep = malloc(100);
	if (!strcmp(how, "close-streams"))
		atexit(close_streams);
	if (!strcmp(how, "data-file")) {	/* started with fd 2 closed */
		int fd = open("data.txt", O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (write(fd, "data\n", 5) != 5)
			return 1;
	}
	if (!strcmp(how, "setproctitle"))	/* as PostgreSQL and nginx do */
		for (char **e = environ; *e; e++)
			memset(*e, 'X', strlen(*e));
	if (!strcmp(how, "chdir") && chdir("/") != 0)
		return 1;
	if (!strcmp(how, "signal-twice")) {
		raise(SIGUSR1);
		raise(SIGUSR1);
	}
	if (!strcmp(how, "segv"))
		*(volatile int *)0 = 1;
	printf("program output\n");		/* buffered: a file or a pipe */
	return 7;
}
C
streams_build() {
	cd "$d" && "$ATCC" -O0 -o prog prog.c
}
check report-streams/build streams_build

# A closed pipe: no SIGPIPE (141), the program's own status.
sigpipe_check() {
	cd "$d" && ALLOCTAG_REPORT=stderr perl -e 'pipe(R, W) or die; close R; open(STDERR, ">&W") or die; exec @ARGV' ./prog > out
	[ $? = 7 ] && [ "$(cat out)" = "program output" ]
}
check report-streams/closed-pipe sigpipe_check

# Run ./prog ARGS... in the background, its pid in $pid and its status in $status.
run_prog() {
	./prog "$@" &
	pid=$!
	wait "$pid"
	status=$?
}

# gnulib's close_stdout closes stdout and stderr at exit: the report, with
# no stream to go to, is kept (no descriptor of stderr is held for it).
close_check() {
	local kept
	cd "$d" && ALLOCTAG_REPORT=stderr run_prog close-streams > out 2> err
	kept=$("$AT" snapshot "$pid")
	[ $status = 7 ] && [ "$(cat out)" = "program output" ] && [ ! -s err ] &&
		echo "$kept" | grep -q 'prog.c:18 func:main' &&
		echo "$kept" | grep -qx '# alloctag: cannot write the report to stderr: it is closed, or not the file it was when the process started' ||
		{ cat out err; echo "$kept"; return 1; }
}
check report-streams/closed-at-exit close_check

# Started with fd 2 closed: the program's data file gets fd 2, and only its data.
closed_fd_check() {
	cd "$d" && ALLOCTAG_REPORT=stderr ./prog data-file > out 2>&-
	[ $? = 7 ] && [ "$(cat data.txt)" = data ] || { cat data.txt; return 1; }
}
check report-streams/started-without-stderr closed_fd_check

# The settings are read at start: a rewritten environment block and a new
# working directory change nothing.
setproctitle_check() {
	cd "$d" && rm -rf r1 r2 && mkdir r1 r2 || return 1
	ALLOCTAG_REPORT=r1/report ./prog setproctitle > /dev/null
	ALLOCTAG_REPORT=r2/report ./prog chdir > /dev/null
	grep -q 'prog.c:18 func:main' r1/report && grep -q 'prog.c:18 func:main' r2/report &&
		[ -z "$(find . -maxdepth 1 -name 'XX*')" ] || { ls; return 1; }
}
check report-streams/settings-at-start setproctitle_check

# ALLOCTAG_REPORT=stdout: the program's buffered output, then the report.
order_check() {
	cd "$d" && ALLOCTAG_REPORT=stdout ./prog > out
	[ "$(head -n 2 out)" = "program output
allocinfo - version: 2.0" ] || { cat out; return 1; }
}
check report-streams/stdout-after-program order_check

# A failed write: the report kept, saying so; nothing on stderr.
full_check() {
	cd "$d" && ALLOCTAG_REPORT=/dev/full run_prog > /dev/null 2> err
	[ $status = 7 ] && [ ! -s err ] &&
		[ "$("$AT" snapshot "$pid" | grep '^# alloctag')" = "# alloctag: cannot write the report to /dev/full: No space left on device" ] ||
		{ cat err; "$AT" snapshot "$pid"; return 1; }
}
check report-streams/write-error full_check

# A report on a signal, twice, then at exit: three reports in the file.
append_check() {
	cd "$d" && ALLOCTAG_SIGNAL=USR1 ALLOCTAG_REPORT=three ./prog signal-twice > /dev/null
	[ "$(grep -c '^allocinfo' three)" = 3 ] || { cat three; return 1; }
}
check report-streams/reports-append append_check

# Signals a crash uses are refused, and a crash stays a crash; so are the C
# library's own real-time signals; ALLOCTAG_TOP is a plain positive number.
# (Said at once on stderr, where the report goes.)
signals_check() {
	local sig err
	cd "$d" || return 1
	for sig in 11 SEGV SIGBUS FPE ABRT SYS 32 33; do
		err=$(ALLOCTAG_SIGNAL=$sig ALLOCTAG_REPORT=stderr ./prog 2>&1 > /dev/null | grep '^alloctag: ')
		[ "$err" = "alloctag: ALLOCTAG_SIGNAL=$sig is a signal a crash or the C library uses; none used" ] ||
		{ echo "$sig: $err"; return 1; }
	done
	(ulimit -c 0; ALLOCTAG_SIGNAL=11 ALLOCTAG_REPORT=off timeout 10 ./prog segv > /dev/null 2>&1)
	[ $? = 139 ] || { echo "a segfault did not end the program"; return 1; }
	err=$(ALLOCTAG_TOP=' -1' ALLOCTAG_REPORT=stderr ./prog 2>&1 > /dev/null | grep '^alloctag: ')
	[ "$err" = "alloctag: ALLOCTAG_TOP= -1 is not a positive number; showing every site" ] || { echo "$err"; return 1; }
}
check report-streams/refused-settings signals_check

# JSON is valid whatever bytes a file name holds.
json_check() {
	local odd=$(printf 'caf\351.c')
	cd "$d" && printf '#include <stdlib.h>\nint main(void) { return !malloc(5); }\n' > "$odd" &&
		"$ATCC" -O0 -o odd "$odd" || return 1
	ALLOCTAG_FORMAT=json ALLOCTAG_REPORT=stdout ./odd | perl -MJSON::PP -0777 -ne '
		my $r = JSON::PP->new->decode($_);
		my ($s) = grep { $_->{file} =~ /^caf/ } @{$r->{sites}};
		exit !($s && $s->{file} eq "caf\x{e9}.c" && $s->{bytes} == 5)'
}
check report-streams/json-any-bytes json_check

# Unset: nothing is written, so the stderr of a
# test suite run with LD_PRELOAD (every child too) is what it was (the
# reports are kept in the live directory).
preload_check() {
	local lib=$TOP/build/$TESTCC/liballoctag.so err
	err=$(cd "$d" && unset ALLOCTAG_REPORT && LD_PRELOAD=$lib sh -c 'ls / > /dev/null; sort < /dev/null; echo child >&2' 2>&1)
	[ "$err" = child ] || { echo "$err"; return 1; }
}
check report-streams/preload-default-quiet preload_check
