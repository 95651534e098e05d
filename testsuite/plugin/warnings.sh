# What GCC says about allocations stays what it says without alloctag: the
# cases of warnings/cases.c (and cases.cc, with the g++ of the compiler) are
# compiled with the compiler and with alloctag-cc (alloctag-c++) at every
# optimization level, with and without -fanalyzer, and the warnings compared
# line by line.  The only differences allowed are those the cases' markers
# name (see cases.c); anything else, or a marker whose difference is gone,
# fails.  Object sizes of fresh blocks (warnings/objsize.c) are compared too.
W=$TOP/testsuite/plugin/warnings
WFLAGS="-Wall -Wextra -Wnull-dereference -D_FORTIFY_SOURCE=2 -fdiagnostics-plain-output"

# The warnings (not notes) of one compile, sorted, SSA names' versions
# (p_7, as -fanalyzer prints them) made N: the tag's statements renumber them.
# A compile that fails prints "error" and its output.  Run in $W, where the
# sources are: their names as given are the warnings' file names.
warnings_of() {
	if ! (cd "$W" && "$@" $WFLAGS -c -o /dev/null) > "$WORK/warnings.out" 2>&1; then
		echo "error"
		cat "$WORK/warnings.out"
		return
	fi
	grep -E ': warning: ' "$WORK/warnings.out" |
		sed -E 's/([A-Za-z_][A-Za-z0-9_.]*)_[0-9]+([^0-9A-Za-z_]|$)/\1_N\2/g' | sort
}

# The lines of SRC with a marker "// KIND at LEVEL... [if gcc<N | if gcc>=N]"
# (clauses separated by ";") that names OPT and holds for this GCC.
GCC_MAJOR=$("$TESTCC" -dumpversion | cut -d. -f1)
marked_lines() {
	awk -v kind="$2" -v o="$3" -v gcc="$GCC_MAJOR" '
		(i = index($0, "// ")) {
			nc = split(substr($0, i + 3), clause, ";")
			for (c = 1; c <= nc; c++) {
				n = split(clause[c], l, " ")
				if (l[1] != kind || l[2] != "at")
					continue
				hold = 1
				for (k = 3; k < n; k++)
					if (l[k] == "if" && l[k + 1] ~ /^gcc<[0-9]+$/)
						hold = gcc + 0 < substr(l[k + 1], 5) + 0
					else if (l[k] == "if" && l[k + 1] ~ /^gcc>=[0-9]+$/)
						hold = gcc + 0 >= substr(l[k + 1], 6) + 0
				for (k = 3; k <= n && hold; k++)
					if (l[k] == o) { print FNR; next }
			}
		}' "$1"
}

# What the tagged build must say at OPT (AN: -fanalyzer or not), from the
# plain build's warnings P: the same, but for the markers of SRC.
expected_tagged() {
	local src=$W/$1 opt=$2 an=$3 p=$4 base=$1 l
	for l in $(marked_lines "$src" lost "$opt"); do
		p=$(printf '%s\n' "$p" | grep -vE "^$base:$l:[0-9]+: warning: .*\[-W(maybe-)?uninitialized\]")
	done
	printf '%s\n' "$p" | sort
}

# compare_warnings NAME SOURCE PLAIN-CC TAGGED-CC: every level, +/- -fanalyzer
# (SOURCE: a file of $W).  A warning given twice at one place counts once:
# GCC 13 and later repeat the front end's -Wnonnull of strdup(NULL) from
# their post-IPA pass, or not, depending on the statements around the call
# (plain gcc-14 -O1 says it twice, alloctag-cc once; g++-14 the other way).
compare_warnings() {
	local name=$1 src=$2 plain=$3 tagged=$4 opt an p raw t e l bad= n=0
	for opt in $OPT_LEVELS; do
		for an in "" -fanalyzer; do
			p=$(warnings_of "$plain" $opt $an "$src")
			raw=$(warnings_of "$tagged" $opt $an "$src" | uniq)
			t=$(printf '%s\n' "$raw" | sort | uniq)
			e=$(expected_tagged "$src" "$opt" "$an" "$p" | uniq)
			n=$((n + $(printf '%s\n' "$p" | grep -c .)))
			if [ "$t" != "$e" ]; then
				bad="$bad
$opt $an: $(diff <(echo "$e") <(echo "$t") | grep '^[<>]' |
	sed 's/^</expected:/; s/^>/got:     /')"
			fi
		done
	done
	if [ -z "$bad" ] && [ $n -gt 0 ]; then
		pass "$name"
		echo "    $n warnings without alloctag, as the markers say with it"
	else
		fail "$name" "${bad#?}" "($n warnings without alloctag)"
	fi
}

compare_warnings warnings/c cases.c "$TESTCC" "$ATCC"

CXX=${TESTCC/gcc/g++}
if command -v "$CXX" >/dev/null && [ -x "${ATCC%/*}/alloctag-c++" ]; then
	compare_warnings warnings/c++ cases.cc "$CXX" "${ATCC%/*}/alloctag-c++"
else
	skip warnings/c++ "no $CXX"
fi

objsize_check() {
	(cd "$WORK" && "$TESTCC" -O2 -o objsize-plain "$W/objsize.c" &&
		"$ATCC" -O2 -o objsize-tagged "$W/objsize.c") || return 1
	local p t
	p=$("$WORK/objsize-plain") && t=$(ALLOCTAG_REPORT=off "$WORK/objsize-tagged") || return 1
	[ "$p" = "$t" ] || { diff <(echo "$p") <(echo "$t"); return 1; }
	echo "$t" | grep -q '^malloc 10 ' || { echo "$t"; return 1; }
}
check warnings/object-sizes objsize_check
