# jansson 2.14 (Debian's jansson) built twice with CMake, with plain $TESTCC
# and with alloctag-cc (CMAKE_C_COMPILER), and its ctest suite run on both.
# jansson's allocators are tagged by tags/jansson.h.

# jansson_build DIR CC [ENV...]: cmake (in DIR, below the sources) and make;
# -g: DHAT's stacks name the sites.
jansson_build() {
	local b=$1 cc=$2
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
	local name=real/jansson SRC=$REAL/jansson/src out
	local P=$SRC/bld-plain T=$SRC/bld-tagged
	sources "$name" jansson "$SRC" || return

	build_both "$name" jansson_build "$TAGS/jansson.h" ALLOCTAG_REPORT=off || return
	pass "$name: build with alloctag-cc"

	# ctest: all 213 tests pass, as with the plain build; each test process
	# of the alloctag-cc build writes its own report.
	mkdir -p "$T/reports"
	in_both ctest env ALLOCTAG_REPORT="$T/reports/%e-%p.txt" ctest -j2
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
	check_no_negative "$name: ctest reports: no site negative" "$T"/reports/*.txt
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
	local prog details= bad=
	for prog in "$P"/bin/test_*; do
		prog=$(basename "$prog")
		DHAT_SITES=1 dhat_and_report "$prog" "bin/$prog"
		out=$(dhat_compare "$T/$prog.report" "$P/$prog.dhat" "$SRC" \
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
