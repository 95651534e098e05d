# Reports: the kernel's format to the byte, settings, on demand, on a signal.
cat > "$WORK/fmt.c" <<'C'
#include <alloctag.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
void *keep[3];
int main(int argc, char **argv)
{
	keep[0] = malloc(1000);
	keep[1] = strdup("twelve bytes");
	free(keep[2] = malloc(5));
	if (argc > 1 && !strcmp(argv[1], "now"))
		alloctag_report();
	if (argc > 1 && !strcmp(argv[1], "signal"))
		raise(SIGUSR1);
	keep[2] = calloc(1, 7);
	return 3;
}
C
if ! out=$(cd "$WORK" && "$ATCC" -O2 -o fmt fmt.c 2>&1); then
	fail report/build "$out"
else
	golden='allocinfo - version: 2.0
#     <size>  <calls> <tag info>
        1000        1 fmt.c:8 func:main 
          13        1 fmt.c:9 func:main 
           7        1 fmt.c:15 func:main 
           0        0 fmt.c:10 func:main '
	# The untagged line varies with the C library's own needs: left out.
	report_of() { grep -v '^ .* untagged:0 func:untagged $' "$1"; }

	(cd "$WORK" && ALLOCTAG_REPORT=out.txt ./fmt; echo "status=$?" > status.txt)
	if [ "$(report_of "$WORK/out.txt")" = "$golden" ] && grep -qx status=3 "$WORK/status.txt"; then
		pass report/golden
	else
		fail report/golden "$(cat "$WORK/out.txt" "$WORK/status.txt")"
	fi

	# ALLOCTAG_REPORT=stderr: the same report on stderr, nothing on stdout.
	(cd "$WORK" && ALLOCTAG_REPORT=stderr ./fmt 2> err.txt > stdout.txt)
	[ "$(report_of "$WORK/err.txt")" = "$golden" ] && [ ! -s "$WORK/stdout.txt" ] &&
		pass report/stderr || fail report/stderr "$(cat "$WORK/err.txt")"

	# Unset: nothing on the program's streams, on a terminal (script(1)
	# gives one, as expect and DejaGnu do) as under a pipe: the report is
	# kept in the live directory, where alloctag snapshot PID finds it.
	export XDG_RUNTIME_DIR=$WORK/xdg
	mkdir -p -m 700 "$XDG_RUNTIME_DIR"
	AT=$TOP/build/$TESTCC/alloctag
	(cd "$WORK" && unset ALLOCTAG_REPORT && { ./fmt 2> err.txt > stdout.txt & echo $! > pid.txt; wait; };
	 script -qec 'echo $$ > tty-pid.txt; exec ./fmt' /dev/null > tty.txt)
	"$AT" snapshot "$(cat "$WORK/pid.txt")" > "$WORK/kept.txt" 2>&1
	"$AT" snapshot "$(cat "$WORK/tty-pid.txt")" > "$WORK/tty-kept.txt" 2>&1
	[ ! -s "$WORK/err.txt" ] && [ ! -s "$WORK/stdout.txt" ] &&
	[ "$(report_of "$WORK/kept.txt")" = "$golden" ] &&
		pass report/default-kept || fail report/default-kept "$(cat "$WORK/err.txt" "$WORK/kept.txt")"
	[ ! -s "$WORK/tty.txt" ] && [ "$(report_of "$WORK/tty-kept.txt")" = "$golden" ] &&
		pass report/default-kept-on-a-terminal ||
		fail report/default-kept-on-a-terminal "$(cat -A "$WORK/tty.txt"; cat "$WORK/tty-kept.txt")"

	(cd "$WORK" && rm -f r.* && ALLOCTAG_REPORT='r.%e.%p.%%' ./fmt; ls r.* > names.txt)
	grep -qx 'r\.fmt\.[0-9][0-9]*\.%' "$WORK/names.txt" &&
		pass report/path-expansion || fail report/path-expansion "$(cat "$WORK/names.txt")"

	out=$(cd "$WORK" && ALLOCTAG_REPORT=off ./fmt 2>&1; echo "status=$?")
	[ "$out" = status=3 ] && pass report/off || fail report/off "$out"

	out=$(cd "$WORK" && ALLOCTAG_TOP=2 ALLOCTAG_REPORT=stdout ./fmt | grep -c 'func:')
	[ "$out" = 2 ] && pass report/top || fail report/top "$out lines"

	out=$(cd "$WORK" && ALLOCTAG_FORMAT=json ALLOCTAG_REPORT=stdout ./fmt)
	echo "$out" | grep -q '^{"version": 1, "program": "fmt", "pid": [0-9]*, "frees_seen": true, "sites": \[$' &&
	echo "$out" | grep -q '{"file": "fmt.c", "line": 8, "column": [0-9]*, "function": "main", "callee": [a-z"]*, "module": null, "bytes": 1000, "calls": 1, "total_bytes": 1000, "total_calls": 1, "peak_bytes": 1000}' &&
		pass report/json || fail report/json "$out"

	# A device is written to, not truncated or replaced.
	out=$(cd "$WORK" && ALLOCTAG_REPORT=/dev/stdout ./fmt 2>/dev/null | grep -c 'func:')
	[ "$out" -ge 4 ] && pass report/device || fail report/device "$out lines"

	# On demand: alloctag_report() and ALLOCTAG_SIGNAL; then the exit report.
	out=$(cd "$WORK" && ALLOCTAG_REPORT=stdout ./fmt now | grep -c '^allocinfo')
	[ "$out" = 2 ] && pass report/on-demand || fail report/on-demand "$out reports"
	out=$(cd "$WORK" && ALLOCTAG_SIGNAL=USR1 ALLOCTAG_REPORT=stdout ./fmt signal | grep -c '^allocinfo')
	[ "$out" = 2 ] && pass report/signal || fail report/signal "$out reports"

	# Bad settings: one line each, in the report (kept here: its file cannot
	# be written), nothing on stderr; output and exit status unchanged.  With
	# the report on stderr, said there at once.
	(cd "$WORK" || exit
	 ALLOCTAG_FORMAT=xml ALLOCTAG_TOP=-1 ALLOCTAG_SIGNAL=BOGUS ALLOCTAG_REPORT=/nonexistent/dir/r.txt \
		./fmt > bad.out 2> bad.err &
	 echo $! > pid.txt
	 wait $!
	 echo "status=$?" >> bad.out)
	want='ALLOCTAG_FORMAT=xml is not allocinfo, full or json; using allocinfo
ALLOCTAG_TOP=-1 is not a positive number; showing every site
ALLOCTAG_SIGNAL=BOGUS is not a signal (USR1, USR2, HUP, ... or a number); none used'
	got=$("$AT" snapshot "$(cat "$WORK/pid.txt")" | sed -n 's/^# alloctag: //p')
	[ "$got" = "$want
cannot write the report to /nonexistent/dir/r.txt: No such file or directory" ] && [ ! -s "$WORK/bad.err" ] &&
	[ "$(cat "$WORK/bad.out")" = status=3 ] &&
		pass report/bad-settings || fail report/bad-settings "$got" "$(cat "$WORK/bad.err" "$WORK/bad.out")"
	got=$(cd "$WORK" && ALLOCTAG_FORMAT=xml ALLOCTAG_TOP=-1 ALLOCTAG_SIGNAL=BOGUS ALLOCTAG_REPORT=stderr \
		./fmt 2>&1 > /dev/null | head -n 3)
	[ "$got" = "$(echo "$want" | sed 's/^/alloctag: /')" ] &&
		pass report/bad-settings-on-stderr || fail report/bad-settings-on-stderr "$got"
fi
