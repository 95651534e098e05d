# jansson 2.14 (Debian's jansson) built twice with CMake, with plain $TESTCC
# and with alloctag-cc (CMAKE_C_COMPILER), and its ctest suite run on both.
# jansson's allocators are tagged by tags/jansson.h.

# jansson_build NAME CC [ENV...]: cmake and make in src/bld-NAME (-g: DHAT's
# stacks name the sites).
jansson_build() {
	local b=$SRC/bld-$1 cc=$2
	shift 2
	mkdir -p "$b"
	(cd "$b" && env "$@" cmake -DCMAKE_C_COMPILER="$cc" -DCMAKE_C_FLAGS="$REAL_CFLAGS -g" \
			-DJANSSON_BUILD_DOCS=OFF .. &&
		env "$@" make -j2) >"$b/build.log" 2>&1
}

# jansson_results CTESTLOG: "test status" lines, sorted.
jansson_results() {
	sed -nE 's/^ *[0-9]+\/[0-9]+ Test +#[0-9]+: ([^ ]+) \.*[ *]*([A-Za-z]+).*/\1 \2/p' "$1" | sort
}

real_jansson() {
	local name=real/jansson SRC=$REAL/jansson/src P T out pid
	mkdir -p "$REAL/jansson"
	if ! out=$(unpack jansson/bookworm "$SRC" 2>&1); then
		fail "$name: sources (apt-get source jansson)" "$out"
		return
	fi
	P=$SRC/bld-plain
	T=$SRC/bld-tagged
	pass "$name: sources"
	note "Debian jansson $(sed -n 's/^Version: //p' "$CACHE"/src/jansson/*.dsc), upstream sources (Debian's patches not applied)"

	jansson_build plain "$TESTCC" & pid=$!
	jansson_build tagged "$REAL_CC" ALLOCTAG_TAGS="$TAGS/jansson.h" ALLOCTAG_REPORT=off
	local trc=$?
	wait $pid
	local prc=$?
	if [ $prc -ne 0 ]; then
		fail "$name: build with $TESTCC" "$(logtail "$P/build.log")"
		return
	fi
	pass "$name: build with $TESTCC"
	if [ $trc -ne 0 ]; then
		fail "$name: build with alloctag-cc" "$(logtail "$T/build.log")"
		return
	fi
	pass "$name: build with alloctag-cc"

	# ctest, each test process of the tagged build writing its own report.
	mkdir -p "$T/reports"
	(cd "$P" && ctest -j2 >ctest.out 2>&1) & pid=$!
	(cd "$T" && env $(report_env "$T/reports/%e-%p.txt") ctest -j2 >ctest.out 2>&1)
	wait $pid
	jansson_results "$P/ctest.out" >"$P/ctest.cmp"
	jansson_results "$T/ctest.out" >"$T/ctest.cmp"
	local ntests npassed
	ntests=$(wc -l <"$T/ctest.cmp")
	npassed=$(grep -c ' Passed$' "$T/ctest.cmp")
	if [ "$ntests" -ne 213 ] || [ "$npassed" -ne "$ntests" ]; then
		fail "$name: ctest" "$npassed of $ntests tests passed (213 expected)" \
			"$(grep -v ' Passed$' "$T/ctest.cmp")" "$(logtail "$T/ctest.out")"
	elif same_output "$name: ctest" "$P/ctest.cmp" "$T/ctest.cmp"; then
		pass "$name: ctest"
		note "$npassed of $ntests tests passed, as with the plain build ($(grep -c ' Passed$' "$P/ctest.cmp") of $(wc -l <"$P/ctest.cmp"))"
	fi

	# Every report of the suite's processes; their sites summed.
	local bad= r nrep=0
	for r in "$T"/reports/*.txt; do
		[ -e "$r" ] || continue
		nrep=$((nrep + 1))
		report_rows "$r" | awk '$1 < 0 || $2 < 0 || $3 < 0 || $4 < 0 || $5 < 0' |
			grep -q . && bad="$bad $(basename "$r")"
	done
	if [ "$nrep" -eq 0 ]; then
		fail "$name: ctest reports: no site negative" "no report in $T/reports"
	elif [ -n "$bad" ]; then
		fail "$name: ctest reports: no site negative" "negative sites in:$bad"
	else
		pass "$name: ctest reports: no site negative"
		note "$nrep reports"
	fi
	merge_reports "$T"/reports/*.txt >"$T/suite.report"
	check_top_sites "$name: ctest reports: top sites are jansson code" \
		"$T/suite.report" 10 "$SRC" total jsonp_malloc

	# Exact counts: the report of each API test program against DHAT's count
	# of the same program of the plain build, site by site (jansson does not
	# realloc; test_dump calls calloc(1, 0)).  jansson's loop detection
	# (jsonp_loop_check, value.c) keys a hashtable by snprintf("%p") of an
	# object, and under valgrind heap addresses print shorter (0x4a5b040,
	# not 0x55d4c6a3e2a0): the pairs of those keys (init_pair, hashtable.c)
	# are smaller under DHAT than in a native run.
	local prog details= bad= out
	mkdir -p "$T/api-reports" "$P/dhat"
	for prog in "$P"/bin/test_*; do
		prog=$(basename "$prog")
		(cd "$P" && DHAT_SITES=1 dhat "$P/dhat/$prog" "$P/bin/$prog") & pid=$!
		(cd "$T" && env $(report_env "$T/api-reports/$prog.txt") "$T/bin/$prog" >/dev/null 2>&1)
		wait $pid
		out=$(dhat_compare "$T/api-reports/$prog.txt" "$P/dhat/$prog" "$SRC" \
			"$TAGS/jansson.h" hashtable.c:init_pair)
		echo "$out" | grep -q '^BAD' && bad="$bad $prog"
		details="$details
$prog: $(echo "$out" | grep -v '^BAD' | sed '2,$s/^/    /')"
	done
	if [ -z "$bad" ]; then
		pass "$name: API test programs: report = DHAT's count"
		note "${details#?}"
	else
		fail "$name: API test programs: report = DHAT's count" "differ:$bad" "${details#?}"
	fi
}
