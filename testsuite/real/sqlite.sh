# SQLite 3.40.1 (Debian's sqlite3) built twice, with plain $TESTCC and with
# alloctag-cc, from the same sources: configure, the amalgamation sqlite3.c
# (made by build-time tools that configure compiles with the same CC and
# CFLAGS: lemon, mkkeywordhash, mksourceid), speedtest1 and fuzzcheck.
# SQLite's allocation API is tagged by tags/sqlite.h.

# sqlite_build DIR CC [ENV...]: configure (in DIR, below the sources) and make.
# Without malloc_usable_size (ac_cv_func_malloc_usable_size=no), SQLite keeps
# the size of its blocks itself: DHAT answers malloc_usable_size with the size
# asked for, glibc (and alloctag, as glibc) with the chunk's room, which SQLite
# grows its strings into, so it would reallocate more often under DHAT and the
# counts to compare would not be of the same run.
sqlite_build() {
	local b=$1 cc=$2
	shift 2
	mkdir -p "$b"
	(cd "$b" && env "$@" CC="$cc" CFLAGS="$REAL_CFLAGS" ../configure --disable-tcl \
			ac_cv_func_malloc_usable_size=no &&
		env "$@" make -j2 sqlite3.c speedtest1 fuzzcheck) >"$b/build.log" 2>&1
}

real_sqlite() {
	local name=real/sqlite SRC=$REAL/sqlite/src
	local P=$SRC/bld-plain T=$SRC/bld-tagged
	sources "$name" sqlite3 "$SRC" || return

	mkdir -p "$T/tool-reports"
	build_both "$name" sqlite_build "$TAGS/sqlite.h" \
		ALLOCTAG_REPORT="$T/tool-reports/%e-%p.txt" || return
	# configure gave alloctag-cc to the build-time tools too: they were built
	# with it, lemon (the one that allocates) ran with the runtime, and they
	# made the same amalgamation.
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

	# fuzzcheck over SQLite's fuzz corpus: 0 errors, the plain build's output
	# but for the time taken.
	in_both fuzzcheck ./fuzzcheck "$SRC"/test/fuzzdata[1-8].db
	local b
	for b in "$P" "$T"; do
		sed -E 's/ in [0-9.]+ seconds/ in (time) seconds/' "$b/fuzzcheck.out" >"$b/fuzzcheck.cmp"
	done
	if ! grep -q '^fuzzcheck: 0 errors out of [1-9]' "$T/fuzzcheck.out" ||
	   ! grep -q '^exit 0$' "$T/fuzzcheck.out"; then
		fail "$name: fuzzcheck over test/fuzzdata*.db" "$(logtail "$T/fuzzcheck.out")"
	elif same_output "$name: fuzzcheck over test/fuzzdata*.db" "$P/fuzzcheck.cmp" "$T/fuzzcheck.cmp"; then
		pass "$name: fuzzcheck over test/fuzzdata*.db"
		note "$(grep '^fuzzcheck: ' "$T/fuzzcheck.out") (the plain build: $(grep '^fuzzcheck: ' "$P/fuzzcheck.out"))"
	fi
	check_no_negative "$name: fuzzcheck report: no site negative" "$T/fuzzcheck.report"

	# speedtest1 --memdb: the same tests, the same results (verification
	# hash), but for the times.
	in_both speedtest1 ./speedtest1 --memdb --verify
	for b in "$P" "$T"; do
		sed -E 's/ *[0-9]+\.[0-9]+s$/ (time)/' "$b/speedtest1.out" >"$b/speedtest1.cmp"
	done
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
	dhat_and_report speedtest1-small ./speedtest1 $args
	check_dhat "$name: speedtest1 $args: report = DHAT's count" \
		"$T/speedtest1-small.report" "$P/speedtest1-small.dhat"
}
