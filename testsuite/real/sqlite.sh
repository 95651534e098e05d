# SQLite 3.40.1 (Debian's sqlite3) built twice, with plain $TESTCC and with
# alloctag-cc, from the same sources: configure, the amalgamation sqlite3.c
# (made by build-time tools that configure compiles with the same CC and
# CFLAGS: lemon, mkkeywordhash, mksourceid), speedtest1 and fuzzcheck.
# SQLite's allocation API is tagged by tags/sqlite.h.

SQLITE_FUZZDATA="fuzzdata1.db fuzzdata2.db fuzzdata3.db fuzzdata4.db fuzzdata5.db fuzzdata6.db fuzzdata7.db fuzzdata8.db"

# sqlite_build NAME CC [ENV...]: configure and make in src/bld-NAME.
sqlite_build() {
	local b=$SRC/bld-$1 cc=$2
	shift 2
	mkdir -p "$b"
	(cd "$b" && env "$@" CC="$cc" CFLAGS="$REAL_CFLAGS" ../configure --disable-tcl &&
		env "$@" make -j2 sqlite3.c speedtest1 fuzzcheck) >"$b/build.log" 2>&1
}

# Timings out, results in: what must not change with the plugin.
sqlite_speedtest_filter() {
	sed -E 's/ *[0-9]+\.[0-9]+s$/ (time)/' "$1"
}
sqlite_fuzzcheck_filter() {
	sed -E 's/ in [0-9.]+ seconds/ in (time) seconds/' "$1"
}

real_sqlite() {
	local name=real/sqlite SRC=$REAL/sqlite/src P T out
	mkdir -p "$REAL/sqlite"
	if ! out=$(unpack sqlite3/bookworm "$SRC" 2>&1); then
		fail "$name: sources (apt-get source sqlite3)" "$out"
		return
	fi
	P=$SRC/bld-plain
	T=$SRC/bld-tagged
	pass "$name: sources"
	note "Debian sqlite3 $(sed -n 's/^Version: //p' "$CACHE"/src/sqlite3/*.dsc), upstream sources (Debian's patches not applied)"

	mkdir -p "$T/tool-reports"
	sqlite_build plain "$TESTCC" & local pid=$!
	sqlite_build tagged "$REAL_CC" ALLOCTAG_TAGS="$TAGS/sqlite.h" \
		ALLOCTAG_REPORT="$T/tool-reports/%e-%p.txt"
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
	# configure gave alloctag-cc to the build-time tools too: they were built
	# with it, and lemon (the one that allocates) ran with the runtime.
	local tools missing= t
	for t in lemon mkkeywordhash mksourceid; do
		grep -q "^$REAL_CC .*-o $t " "$T/build.log" || missing="$missing $t"
	done
	tools=$(ls "$T/tool-reports" | sed 's/-[0-9]*\.txt$//' | sort -u | tr '\n' ' ')
	if [ -n "$missing" ]; then
		fail "$name: build with alloctag-cc" "not built with alloctag-cc:$missing"
		return
	fi
	case " $tools " in
	*" lemon "*) ;;
	*) fail "$name: build with alloctag-cc" "no report from lemon" "reports from: $tools"
	   return ;;
	esac
	if ! cmp -s "$P/sqlite3.c" "$T/sqlite3.c"; then
		fail "$name: build with alloctag-cc" \
			"the build-time tools built with alloctag-cc made another sqlite3.c"
		return
	fi
	pass "$name: build with alloctag-cc"
	note "lemon, mkkeywordhash, mksourceid built with alloctag-cc made the same sqlite3.c (reports from: ${tools% })"

	# fuzzcheck over SQLite's fuzz corpus, both builds at once.
	local dbs= d
	for d in $SQLITE_FUZZDATA; do dbs="$dbs $SRC/test/$d"; done
	(cd "$P" && ./fuzzcheck $dbs >fuzzcheck.out 2>&1; echo "exit $?" >>fuzzcheck.out) &
	pid=$!
	(cd "$T" && env $(report_env "$T/fuzzcheck.report") ./fuzzcheck $dbs \
		>fuzzcheck.out 2>&1; echo "exit $?" >>fuzzcheck.out)
	wait $pid
	sqlite_fuzzcheck_filter "$P/fuzzcheck.out" >"$P/fuzzcheck.cmp"
	sqlite_fuzzcheck_filter "$T/fuzzcheck.out" >"$T/fuzzcheck.cmp"
	local summary
	summary=$(grep '^fuzzcheck: ' "$T/fuzzcheck.out")
	if ! grep -q '^fuzzcheck: 0 errors out of [1-9]' "$T/fuzzcheck.out" ||
	   ! grep -q '^exit 0$' "$T/fuzzcheck.out"; then
		fail "$name: fuzzcheck over test/fuzzdata*.db" "$(logtail "$T/fuzzcheck.out")"
	elif same_output "$name: fuzzcheck over test/fuzzdata*.db" "$P/fuzzcheck.cmp" "$T/fuzzcheck.cmp"; then
		pass "$name: fuzzcheck over test/fuzzdata*.db"
		note "$summary (the plain build: $(grep '^fuzzcheck: ' "$P/fuzzcheck.out"))"
	fi
	check_no_negative "$name: fuzzcheck report: no site negative" "$T/fuzzcheck.report"

	# speedtest1 --memdb: same tests, same results (verification hash).
	(cd "$P" && ./speedtest1 --memdb --verify >speedtest1.out 2>&1; echo "exit $?" >>speedtest1.out) &
	pid=$!
	(cd "$T" && env $(report_env "$T/speedtest1.report") ./speedtest1 --memdb --verify \
		>speedtest1.out 2>&1; echo "exit $?" >>speedtest1.out)
	wait $pid
	sqlite_speedtest_filter "$P/speedtest1.out" >"$P/speedtest1.cmp"
	sqlite_speedtest_filter "$T/speedtest1.out" >"$T/speedtest1.cmp"
	if ! grep -q '^exit 0$' "$T/speedtest1.out" || ! grep -q '^Verification Hash' "$T/speedtest1.out"; then
		fail "$name: speedtest1 --memdb --verify" "$(logtail "$T/speedtest1.out")"
	elif same_output "$name: speedtest1 --memdb --verify" "$P/speedtest1.cmp" "$T/speedtest1.cmp"; then
		pass "$name: speedtest1 --memdb --verify"
		note "$(grep -c '^ *[0-9]* - ' "$T/speedtest1.out") tests, $(grep '^Verification Hash' "$T/speedtest1.out"), as the plain build"
	fi
	check_no_negative "$name: speedtest1 report: no site negative" "$T/speedtest1.report"
	check_top_sites "$name: speedtest1 report: top sites are SQLite code" \
		"$T/speedtest1.report" 10 "$SRC" total sqlite3MemMalloc sqlite3MemRealloc

	# Exact counts: DHAT counts the blocks of the same run of the plain build.
	local args="--memdb --size 5"
	(cd "$P" && dhat "$P/dhat" ./speedtest1 $args) &
	pid=$!
	(cd "$T" && env $(report_env "$T/speedtest1-small.report") ./speedtest1 $args >/dev/null 2>&1)
	wait $pid
	check_dhat "$name: speedtest1 $args: report = DHAT's count" "$T/speedtest1-small.report" "$P/dhat"
}
