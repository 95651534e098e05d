# alloctag testsuite helpers, sourced by each test's process (testsuite/run)
# and by testsuite/real/run.
#
# Results are lines "PASS: name", "FAIL: name" (details indented below it,
# then the command that runs the test again) and "SKIP: name (reason)";
# testsuite/run ends with "N passed, N failed, N skipped".
#
# Set by testsuite/run for each test: TOP (repo root), TESTCC (gcc, gcc-11,
# ...), PLUGIN (its alloctag.so), ATCC (its alloctag-cc), WORK (the test's
# own scratch folder, empty at its start, also its working directory) and
# RERUN (the command that runs the test again).
#
# What a test can use (testsuite/README.md): pass, fail, skip, check; pcc
# (the compiler with the plugin); directive; OPT_LEVELS; ensure_deps; the markers'
# readers expected_tags and expected_sites; report_rows and report_by_line
# (a report's sites); run_diag_test, run_tag_test and run_report_test (the
# runners of the .c tests).

export LC_ALL=C

pass() { echo "PASS: ${RUN_LABEL:-$TESTCC}: $1"; }
skip() { echo "SKIP: ${RUN_LABEL:-$TESTCC}: $1 ($2)"; }
fail() {
	echo "FAIL: ${RUN_LABEL:-$TESTCC}: $1"
	shift
	[ $# -gt 0 ] && printf '%s\n' "$@" | sed 's/^/    /' | head -n 60
	[ -n "${RERUN:-}" ] && echo "    rerun: $RERUN"
	return 0
}

# check NAME COMMAND...: PASS if the command succeeds, else FAIL with its output.
check() {
	local name=$1 out
	shift
	if out=$("$@" 2>&1); then pass "$name"; else fail "$name" "$out"; fi
}

OPT_LEVELS="-O0 -O1 -O2 -O3 -Os -Og"

# ensure_deps PACKAGE...: plugin/ensure-deps.sh for $TESTCC and these Debian
# packages, which installs with apt-get what is missing; what it installed is
# said (make check says so, as make demo does), its last line is DEPS_OUT.
ensure_deps() {
	local rc
	DEPS_OUT=$(sh "$TOP/plugin/ensure-deps.sh" "$TESTCC" "$@" 2>&1)
	rc=$?
	printf '%s\n' "$DEPS_OUT" | grep '^alloctag: installing'
	DEPS_OUT=$(printf '%s\n' "$DEPS_OUT" | tail -n 1)
	return $rc
}

# The compiler with the plugin and the project's header.
pcc() {
	"$TESTCC" -fplugin="$PLUGIN" -I"$TOP/runtime" -fdiagnostics-plain-output -fchecking "$@"
}

# A directive "// NAME: value" from a test source, or nothing.
directive() {
	sed -n "s|^// $1: *||p" "$2" | head -n 1
}

# Compile a diagnostics test and compare what GCC says with its
# { dg-error "re" }, { dg-warning "re" } and { dg-note "re" } markers: every
# marker must be matched by a diagnostic of that kind on that line, and every
# error and warning must be expected.  An internal compiler error never is.
run_diag_test() {
	local src=$1 name dir base args opt out problems
	dir=$(dirname "$src")
	base=$(basename "$src")
	name="diag/${base%.c}"
	args=$(directive args "$src")
	for opt in -O0 -O2; do
		out=$(cd "$dir" && pcc $opt $args -c -o /dev/null "$base" 2>&1)
		problems=$(diag_compare "$base" "$src" "$out")
		if [ -n "$problems" ]; then
			fail "$name $opt" "$problems" "--- compiler said:" "$out"
			return
		fi
	done
	pass "$name"
}

diag_compare() {
	local file=$1 src=$2 out=$3
	if printf '%s\n' "$out" | grep -q "internal compiler error"; then
		echo "internal compiler error"
	fi
	# expected: LINE KIND REGEX
	grep -no '{ dg-\(error\|warning\|note\) "[^"]*" }' "$src" |
	sed 's|^\([0-9]*\):{ dg-\([a-z]*\) "\(.*\)" }|\1 \2 \3|' |
	while read -r line kind re; do
		printf '%s\n' "$out" | grep "^$file:$line:[0-9]*: $kind: " |
			grep -qE -- "$re" || echo "missing $kind at $file:$line: $re"
	done
	# unexpected errors and warnings
	printf '%s\n' "$out" | grep -E ": (error|warning): " |
	while IFS= read -r diag; do
		local where line kind
		where=${diag%%: *}
		line=$(echo "$where" | cut -d: -f2)
		kind=$(echo "$diag" | sed -E 's/^[^ ]*: (error|warning): .*/\1/')
		if [ "${where%%:*}" != "$file" ] ||
		   ! sed -n "${line}p" "$src" | grep -q "{ dg-$kind "; then
			echo "unexpected: $diag"
		fi
	done
}

# Expected tags of a tag test: "file:line function calls=N [@COLUMN CALLEE]",
# one per tag, from markers "// tag FUNCTION calls=N [xCOUNT] [@COLUMN
# CALLEE][; tag ...]" in the given files, and "untagged calls=N" from a
# marker "// untagged calls=N".
expected_tags() {
	local f
	for f in "$@"; do
		awk -v file="$f" '
			match($0, /\/\/ untagged calls=[0-9]+/) {
				print substr($0, RSTART + 3, RLENGTH - 3)
			}
			match($0, /\/\/ tag .*/) {
				n = split(substr($0, RSTART + 3), parts, /; */)
				for (i = 1; i <= n; i++) {
					split(parts[i], w, " ")
					count = 1
					at = ""
					for (k = 4; k in w; k++)
						if (w[k] ~ /^x[0-9]+$/)
							count = substr(w[k], 2)
						else if (w[k] ~ /^@[0-9]+$/)
							at = " " w[k] " " w[k + 1]
					for (j = 0; j < count; j++)
						print file ":" FNR " " w[2] " " w[3] at
				}
			}' "$f"
	done | sort
}

# Build and run a tag test (testsuite/plugin/tags/*.c) at every optimization
# level: the program prints its tags (tagtest.h); they must be exactly the
# expected ones, with the expected number of calls charged to each, and the
# expected column and callee where the markers give them (a test whose
# markers give none does not compare them).
run_tag_test() {
	local src=$1 dir base name args files expect opt got out exe
	dir=$(dirname "$src")
	base=$(basename "$src")
	name="tags/${base%.c}"
	args=$(directive args "$src")
	files=$(directive files "$src")
	expect=$(cd "$dir" && expected_tags "$base" $files $(directive headers "$src"))
	exe="$WORK/${base%.c}"
	for opt in $OPT_LEVELS "-O2 -flto" "-O2 -g -fPIE -pie" "-O1 -fPIC -fexceptions"; do
		if ! out=$(cd "$dir" && pcc $opt $args -Wall -Wextra -Werror -I.. -o "$exe" \
				"$base" $files ../tagtest.c 2>&1); then
			fail "$name $opt" "compile failed:" "$out"
			return
		fi
		if ! got=$("$exe" | sort); then
			fail "$name $opt" "program failed" "$got"
			return
		fi
		echo "$expect" | grep -q ' @[0-9]' || got=$(echo "$got" | sed 's/ @[0-9]* [^ ]*$//')
		if [ "$got" != "$expect" ]; then
			fail "$name $opt" "$(diff <(echo "$expect") <(echo "$got") | grep '^[<>]' |
				sed 's/^</expected:/; s/^>/got:     /')"
			return
		fi
	done
	pass "$name"
}

# Expected report lines of a runtime test: "file:line function L/C T/TC P"
# (live bytes/calls, total bytes/calls, peak bytes) from markers
# "// site L/C T/TC P [; site ...]" on the allocating lines.  A site whose
# counts depend on the C library's internals says for which versions they
# hold: "site L/C T/TC P if glibc<2.37; site ... if glibc>=2.37" (the C
# library the test runs with: the host's, or a root's).
expected_sites() {
	local f glibc
	glibc=$(getconf GNU_LIBC_VERSION | sed 's/^glibc //')
	for f in "$@"; do
		awk -v file="$f" -v glibc="$glibc" '
			function version(v,  p) { split(v, p, "."); return p[1] * 1000 + p[2] }
			function holds(cond,  v) {
				v = cond; sub(/^glibc(<|>=)/, "", v)
				if (cond ~ /^glibc</) return version(glibc) < version(v)
				if (cond ~ /^glibc>=/) return version(glibc) >= version(v)
				print "bad site condition: " cond > "/dev/stderr"
				exit 1
			}
			match($0, /\/\/ site .*/) {
				fn = "?"
				n = split(substr($0, RSTART + 3), parts, /; */)
				for (i = 1; i <= n; i++) {
					split(parts[i], w, " ")
					if (w[5] == "if" && !holds(w[6]))
						continue
					print file ":" FNR " " w[2] " " w[3] " " w[4]
				}
			}' "$f"
	done | sort
}

# report_rows REPORT: one line per site of a report in the full format
# (ALLOCTAG_FORMAT=full), "live_bytes live_calls total_calls total_bytes peak_bytes site", the
# columns found by their names in the report's "# <size> ..." header line;
# the untagged line's site is "untagged".
report_rows() {
	awk '
		/^allocinfo - version:/ { next }
		/^#/ && !/</ { next }	# a note ("# alloctag: ..."), not the header
		/^#/ {
			n = 0
			line = $0
			while (match(line, /<[^>]*>/)) {
				col[substr(line, RSTART + 1, RLENGTH - 2)] = ++n
				line = substr(line, RSTART + RLENGTH)
			}
			nnum = n - 1	# numbers, then <tag info>
			next
		}
		nnum && NF > nnum {
			site = $(nnum + 1)
			for (i = nnum + 2; i <= NF; i++) site = site " " $i
			if (site ~ /func:untagged$/) site = "untagged"
			print $col["size"], $col["calls"], $col["total calls"], \
				$col["total size"], $col["peak size"], site
		}' "$1"
}

# report_by_line REPORT: the tagged sites of a full-format report as the
# // site markers write them (expected_sites): "file:line L/C T/TC P", live
# bytes/calls, total bytes/calls, peak bytes; sorted, the untagged line left
# out, a site's column (file:line:column) too.
report_by_line() {
	report_rows "$1" | awk '$6 != "untagged" {
		where = $6
		if (where ~ /:[0-9]+:[0-9]+$/) sub(/:[0-9]+$/, "", where)
		print where " " $1 "/" $2 " " $4 "/" $3 " " $5 }' | sort
}

# Build a runtime test with alloctag-cc and compare its report at exit with
# its // site markers.  Directives: "// args:", "// env:", "// files:".
run_report_test() {
	local src=$1 dir base name args files envs expect got out cc=$ATCC
	dir=$(dirname "$src")
	base=$(basename "$src")
	name="runtime/${base%.*}"
	args=$(directive args "$src")
	files=$(directive files "$src")
	envs=$(directive env "$src")
	expect=$(cd "$dir" && expected_sites "$base" $files)
	case $base in *.cc) cc=${ATCC%/*}/alloctag-c++ ;; esac
	base=${base%.*}
	for opt in -O0 -O2; do
		if ! out=$(cd "$dir" && "$cc" $opt -g -Wall -Werror $args -o "$WORK/$base" \
				"$(basename "$src")" $files -lpthread 2>&1); then
			fail "$name $opt" "compile failed:" "$out"
			return
		fi
		rm -f "$WORK/report"
		if ! out=$(cd "$WORK" && env ALLOCTAG_FORMAT=full ALLOCTAG_REPORT="$WORK/report" $envs \
				"./$base" 2>&1); then
			fail "$name $opt" "program failed:" "$out"
			return
		fi
		# a "*" in a marker matches any value; "*/N", any bytes in N blocks
		got=$(report_by_line "$WORK/report" | awk -v want="$expect" '
			BEGIN {
				n = split(want, w, "\n")
				for (i = 1; i <= n; i++) {
					split(w[i], f, " ")
					for (j = 2; j <= 4; j++)
						if (f[j] == "*")
							any[f[1], j] = 1
						else if (f[j] ~ /^[*]\//)
							any_bytes[f[1], j] = 1
				}
			}
			{
				for (j = 2; j <= 4; j++)
					if (($1, j) in any)
						$j = "*"
					else if (($1, j) in any_bytes)
						sub(/^[0-9]+\//, "*/", $j)
				print
			}')
		if [ "$got" != "$expect" ]; then
			fail "$name $opt" "$(diff <(echo "$expect") <(echo "$got") | grep '^[<>]' |
				sed 's/^</expected:/; s/^>/got:     /')" "$out"
			return
		fi
	done
	pass "$name"
}

# ccache_counts: ccache's "hits misses" so far (in CCACHE_DIR); ccache_since
# BEFORE: the "hits misses" since ccache_counts said BEFORE.  (ccache -z
# would take a second.)
ccache_counts() {
	ccache --print-stats | awk '
		$1 == "direct_cache_hit" || $1 == "preprocessed_cache_hit" { h += $2 }
		$1 == "cache_miss" { m += $2 }
		END { print h + 0, m + 0 }'
}
ccache_since() {
	echo "$1 $(ccache_counts)" | awk '{ print $3 - $1, $4 - $2 }'
}
