# The alloctag command's options as in GNU tools: -h/--help and --version on
# every subcommand (status 0, on stdout), long names beside short ones,
# options after the operands, one line naming a bad option or value as
# written, and a standard output that cannot be written is trouble.
. "$TOP/testsuite/tool/lib.sh"

cmds=$("$AT" --help | sed -n 's/^  alloctag \([a-z]*\) .*/\1/p' | tr '\n' ' ')
at_out "tool/options: the commands --help lists" "top snapshot ps leaks diff record plot pprof " echo "$cmds"
for cmd in $cmds; do
	out=$("$AT" "$cmd" --help 2>&1)
	rc=$?
	if [ $rc = 0 ] && [ "$(echo "$out" | head -n 1 | cut -d' ' -f1-3)" = "usage: alloctag $cmd" ] &&
	   echo "$out" | grep -qx "  -h, --help  *This help, then exit." && [ "$("$AT" "$cmd" -h)" = "$out" ]; then
		pass "tool/options: $cmd --help"
	else
		fail "tool/options: $cmd --help" "status $rc" "$out"
	fi
	at_out "tool/options: $cmd --version" "alloctag $(sed -n 's/^VERSION := //p' "$TOP/Makefile")" \
		"$AT" "$cmd" --version
done
at_out "tool/options: diff --help says its exit status" \
	"exit status: 0 if A and B are the same, 1 if they differ, 2 on trouble (as diff(1))." \
	sh -c "'$AT' diff --help | tail -n 1"

B=$TWORK/options
mkdir -p "$B"
"$AT" snapshot -f json -o "$B/want.json" "$TDATA/before.full"
at_out "tool/options: options after the operand, long names" "$(cat "$B/want.json")" \
	"$AT" snapshot "$TDATA/before.full" --format=json
AT_RC=1 at_out "tool/options: diff A B -a is diff -a A B" "$("$AT" diff -a "$TDATA/before.full" "$TDATA/after.json")" \
	"$AT" diff "$TDATA/before.full" "$TDATA/after.json" --all
at_error "tool/options: an unknown short option" "no option -x (alloctag top --help)" "$AT" top -x
at_error "tool/options: an unknown long option" "no option --width (alloctag plot --help)" \
	"$AT" plot --width 3 "$TDATA/before.full"
at_error "tool/options: an option without its value" "-o needs a value (alloctag pprof --help)" \
	"$AT" pprof "$TDATA/before.full" -o
at_error "tool/options: an unknown option before the command" "no option --bogus (alloctag --help)" \
	"$AT" --bogus
# A bad value: the option said as written, long or short.
at_error "tool/options: a bad value of a long option" \
	"--sort s1.txt: no such column: live (l), blocks (b), growth (g), rate (a), calls/s (n), total (t), calls (c), peak (p), site (s)" \
	"$AT" top --sort s1.txt
at_error "tool/options: a bad value of a long option with =" "--iterations=0: not a count of refreshes" \
	"$AT" top --iterations=0 "$TDATA/before.full"
at_error "tool/options: a bad value of a short option" "-n0: not a number of sites from 1 to 1000" \
	"$AT" plot -n0 "$TDATA/before.full"
at_error "tool/options: an empty operand" "an empty operand: name a PID, a program or a file" "$AT" top ''

# A standard output that cannot be written is trouble, as in GNU tools:
# status 2 and one line, whatever the command wrote it with.
at_full() {
	local name=$1 who=$2 err rc
	shift 2
	err=$("$AT" "$@" 2>&1 >/dev/full)
	rc=$?
	if [ $rc = 2 ] && [ "$err" = "$who: cannot write to the standard output: No space left on device" ]; then
		pass "tool/options: $name > /dev/full"
	else
		fail "tool/options: $name > /dev/full" "status $rc (want 2)" "stderr: $err"
	fi
}
if [ -w /dev/full ]; then
	cp "$TDATA/rise-and-fall.timeline" "$B/rise.timeline"
	at_full "--help" alloctag --help
	at_full "--version" alloctag --version
	at_full "ps --help" "alloctag ps" ps --help
	at_full "ps" "alloctag ps" ps
	at_full "ps -a" "alloctag ps" ps -a
	at_full "top -b FILE" "alloctag top" top -b "$TDATA/before.full"
	at_full "snapshot" "alloctag snapshot" snapshot -f json "$TDATA/before.full"
	# 44 KiB: more than stdio's buffer, whose failed write inside printf()
	# would lose why.
	at_full "snapshot of 7.2's allocinfo" "alloctag snapshot" snapshot "$TDATA/allocinfo-7.2-arm64.txt"
	at_full "leaks" "alloctag leaks" leaks "$TDATA/before.full"
	at_full "diff" "alloctag diff" diff "$TDATA/before.full" "$TDATA/after.json"
	at_full "plot, its file's name" "alloctag plot" plot "$B/rise.timeline"
	at_full "pprof, its file's name" "alloctag pprof" pprof "$B/rise.timeline"
else
	skip "tool/options: a standard output that cannot be written" "no /dev/full"
fi
