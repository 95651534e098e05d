# Helpers of the alloctag command's tests (testsuite/tool/*.sh), sourced by
# each of them after testsuite/lib.sh.  AT is the command under test.
AT=$TOP/build/$TESTCC/alloctag
TDATA=$TOP/testsuite/tool/data
TWORK=$WORK/tool
mkdir -p "$TWORK"

# at_out NAME EXPECTED CMD...: CMD succeeds (status 0, or $AT_RC) and prints exactly EXPECTED.
at_out() {
	local name=$1 expect=$2 got rc
	shift 2
	got=$("$@" 2>&1)
	rc=$?
	if [ "$rc" != "${AT_RC:-0}" ]; then
		fail "$name" "exit status $rc, not ${AT_RC:-0}" "$got"
	elif [ "$got" != "$expect" ]; then
		fail "$name" "$(diff <(echo "$expect") <(echo "$got") | grep '^[<>]' |
			sed 's/^</expected:/; s/^>/got:     /')"
	else
		pass "$name"
	fi
}

# at_error NAME MESSAGE CMD...: CMD fails with status 2, prints nothing on
# stdout and exactly "alloctag COMMAND: MESSAGE" on stderr when CMD is
# "$AT COMMAND ...", else "alloctag: MESSAGE".
at_error() {
	local name=$1 expect="alloctag: $2" out err rc
	shift 2
	if [ "$1" = "$AT" ] && [ $# -gt 1 ] && "$AT" "$2" --version >/dev/null 2>&1; then
		expect="alloctag $2: ${expect#alloctag: }"
	fi
	out=$("$@" 2>"$TWORK/stderr")
	rc=$?
	err=$(cat "$TWORK/stderr")
	if [ "$rc" != 2 ] || [ -n "$out" ] || [ "$err" != "$expect" ]; then
		fail "$name" "status $rc (want 2)" "stdout: $out" "stderr:   $err" "expected: $expect"
	else
		pass "$name"
	fi
}

# A program built with alloctag-cc (its name, built once per compiler).
at_build() {
	local exe=$TWORK/$1
	[ -x "$exe" ] || (cd "$TOP/testsuite/tool" && "$ATCC" -O2 -g -Wall -Werror -o "$exe" "$1.c" -lpthread) ||
		return 1
	echo "$exe"
}

# A live directory of the test's own ($XDG_RUNTIME_DIR/alloctag), so that
# nothing else on the machine is in the way; at_shared_live_dir puts back
# the caller's XDG_RUNTIME_DIR.
at_private_live_dir() {
	AT_SAVED_XDG=${XDG_RUNTIME_DIR-unset}
	export XDG_RUNTIME_DIR=$TWORK/$1
	rm -rf "$XDG_RUNTIME_DIR" && mkdir -m 700 "$XDG_RUNTIME_DIR"
}
# at_started PID: waits (2 s at most) until `alloctag ps` lists PID: its live
# file is made and whole (a file seen at once may not name its program yet).
at_started() {
	for _ in $(seq 100); do "$AT" ps 2>/dev/null | grep -q "^ *$1 " && return; sleep 0.02; done
}
at_shared_live_dir() {
	if [ "$AT_SAVED_XDG" = unset ]; then unset XDG_RUNTIME_DIR; else export XDG_RUNTIME_DIR=$AT_SAVED_XDG; fi
}
