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
# stdout and exactly "alloctag: MESSAGE" on stderr.
at_error() {
	local name=$1 expect="alloctag: $2" out err rc
	shift 2
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
