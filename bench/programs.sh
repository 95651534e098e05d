# bench/programs.sh, sourced by bench/run: programs nobody here tuned for,
# each run as it is with glibc's malloc ("plain") and with alloctag, side by
# side in the same run (the "Performance" goals of the runtime: within 1.02x
# of glibc in instructions and wall, within 5% in peak RSS).
#
#   xmllint    libxml2 2.9.14 (Debian's source package) built with gcc and
#              with alloctag-cc; xmllint --noout on a generated XML file of
#              BENCH_XML_RECORDS records (230000: 57 MB, 6.8 M blocks, all
#              freed at the end: a DOM built, then dropped); and the plain
#              build with liballoctag.so preloaded ("preload": the allocator
#              without libxml2's tags)
#   perl       Debian's /usr/bin/perl, bench/hash.pl over BENCH_PERL_LINES
#              generated lines (2000000), liballoctag.so preloaded
#   python     Debian's /usr/bin/python3, bench/objects.py
#              BENCH_PYTHON_SCALE (2), preloaded
#   cc1        $CC BENCH_CC1_OPT (-O1) -c sqlite3.c (SQLite's amalgamation),
#              preloaded into the driver, cc1 and as; instructions are cc1's
#              (-O1: 47 G instructions, 4 minutes under callgrind on an idle
#              core; -O2 takes three times as long)
#   buildfree  bench/micro.c's build-free mode: BENCH_BUILDFREE_BLOCKS
#              (5000000) blocks of 96 bytes allocated, then all freed; built
#              with gcc and with alloctag-cc
#   xmalloc    bench/xmalloc.c: 4 threads allocating and swapping blocks
#              through a shared array, so that most blocks are freed by
#              another thread than their own (mimalloc-bench's
#              xmalloc-test); BENCH_XMALLOC_OPS (2000000) per thread; built
#              with gcc and with alloctag-cc.  Callgrind runs one thread at
#              a time: its count is the work, the wall time the contention
#
# Figures: callgrind's instruction count of one run (cc1's alone for cc1),
# wall and peak RSS (ru_maxrss) the median of BENCH_PROGRAM_ROUNDS (7)
# interleaved runs, allocations from the alloctag run's own report (calls of
# malloc, calloc, realloc, ... over every site).  Each program's output is
# checked to be the same in every variant.
#
# Uses from bench/run: W, B, CC, TOP, TIMEIT, ACC, die, say, emit, median,
# ratio, mb, per, wall_rounds, fetch_sources, sqlite_amalgamation,
# SQLITE_FLAGS.

XML_RECORDS=${BENCH_XML_RECORDS:-230000}
PERL_LINES=${BENCH_PERL_LINES:-2000000}
PYTHON_SCALE=${BENCH_PYTHON_SCALE:-2}
CC1_OPT=${BENCH_CC1_OPT:--O1}
BUILDFREE_BLOCKS=${BENCH_BUILDFREE_BLOCKS:-5000000}
XMALLOC_OPS=${BENCH_XMALLOC_OPS:-2000000}
PROGRAM_ROUNDS=${BENCH_PROGRAM_ROUNDS:-7}
PROGRAMS="xmllint perl python cc1 buildfree xmalloc"
PRELOAD=$B/liballoctag.so

# The variants of a program.
program_variants() {
	case $1 in
	xmllint) echo "plain alloctag preload" ;;
	*) echo "plain alloctag" ;;
	esac
}

# Whether a variant's run preloads liballoctag.so (Debian's programs, and
# the plain libxml2's "preload").
preloaded() {	# PROGRAM VARIANT
	case $1/$2 in
	*/preload | perl/alloctag | python/alloctag | cc1/alloctag) return 0 ;;
	esac
	return 1
}

# The environment of a run (arguments of env): the report to a file, per
# program name (the driver, cc1 and as each write one); the runtime
# preloaded; Perl's and Python's hash seeds fixed, or their instruction
# counts change from run to run (by 0.4% for bench/objects.py).
program_env() {	# PROGRAM VARIANT
	echo "ALLOCTAG_REPORT=report-%e.txt ALLOCTAG_FORMAT=full"
	preloaded "$1" "$2" && echo "LD_PRELOAD=$PRELOAD"
	case $1 in
	perl) echo "PERL_HASH_SEED=0 PERL_PERTURB_KEYS=0" ;;
	python) echo "PYTHONHASHSEED=0" ;;
	esac
}

# The command of a run, in $W/PROGRAM/VARIANT.
program_command() {	# PROGRAM
	case $1 in
	xmllint) echo "./inst/bin/xmllint --noout $W/xmllint/input.xml" ;;
	perl) echo "/usr/bin/perl $TOP/bench/hash.pl $W/perl/lines.txt" ;;
	python) echo "/usr/bin/python3 $TOP/bench/objects.py $PYTHON_SCALE" ;;
	cc1) echo "$CC $CC1_OPT $SQLITE_DEFS -I$W/src/sqlite/amalg -c -o sqlite3.o $W/src/sqlite/amalg/sqlite3.c" ;;
	buildfree) echo "./micro build-free $BUILDFREE_BLOCKS" ;;
	xmalloc) echo "./xmalloc 4 $XMALLOC_OPS" ;;
	esac
}
# speedtest1's flags but the optimization level (bench/run).
SQLITE_DEFS=$(echo $SQLITE_FLAGS | sed 's/-O[0-9s]* //')

# program_once DIR VARIANT: one timed run (wall_rounds' callback), its times
# appended to DIR/VARIANT/wall, its output to DIR/VARIANT/out.
program_once() {
	local p=${1##*/} v=$2
	(cd "$1/$v" && "$TIMEIT" wall env $(program_env "$p" "$v") $(program_command "$p") >out)
}

# program_callgrind PROGRAM VARIANT: instructions of one run in
# DIR/VARIANT/cg.total; cc1's alone for cc1 (its children traced).
program_callgrind() {
	local p=$1 v=$2 d=$W/$1/$2 f
	rm -rf "$d/cg"
	mkdir -p "$d/cg"
	if [ "$p" = cc1 ]; then
		(cd "$d" && env $(program_env "$p" "$v") valgrind --tool=callgrind --trace-children=yes \
			--callgrind-out-file="$d/cg/out.%p" $(program_command "$p") >cg.stdout 2>cg.log) || return 1
		for f in "$d"/cg/out.*; do
			grep -q '^cmd: .*cc1 ' "$f" && sed -n 's/^totals: *//p' "$f"
		done | awk '{ s += $1 } END { if (NR) printf "%.0f\n", s }' >"$d/cg.total"
	else
		(cd "$d" && env $(program_env "$p" "$v") valgrind --tool=callgrind \
			--callgrind-out-file="$d/cg/out" $(program_command "$p") >cg.stdout 2>cg.log) || return 1
		sed -n 's/^totals: *//p' "$d/cg/out" >"$d/cg.total"
	fi
	[ -s "$d/cg.total" ]
}

# The name of the measured process (its report is report-NAME.txt).
program_process() {	# PROGRAM
	case $1 in
	python) echo python3 ;;
	buildfree) echo micro ;;
	*) echo "$1" ;;
	esac
}

# allocations PROGRAM VARIANT: the calls of every site in the report of the
# measured process's last run (ALLOCTAG_FORMAT=full: size, calls, total
# size, total calls, peak, tag).
allocations() {
	awk '$1 ~ /^-?[0-9]+$/ && NF >= 6 { n += $4 } END { if (n) print n }' \
		"$W/$1/$2/report-$(program_process "$1").txt" 2>/dev/null
}

# --- the programs' builds and inputs -------------------------------------------

# libxml2 in DIR with CC: configure, the library and xmllint, installed in
# DIR/inst (xmllint finds its libxml2.so by its RUNPATH).
libxml2_build() {	# DIR CC
	local d=$1 cc=$2
	rm -rf "$d"
	mkdir -p "$d"
	cp -r "$W/src/libxml2" "$d/src"
	(cd "$d/src" && env ALLOCTAG_CC_VERBOSE= ./configure --prefix="$d/inst" CC="$cc" CFLAGS=-O2 \
		--disable-static --without-python --without-zlib --without-lzma --without-icu \
		--without-http --without-ftp --without-readline &&
	 make -j2 libxml2.la xmllint && make install-libLTLIBRARIES install-binPROGRAMS) \
		>"$d/build.log" 2>&1
}

prepare_xmllint() {
	local d=$W/xmllint
	say "xmllint: libxml2 sources, builds with $CC and alloctag-cc, $XML_RECORDS records of XML"
	mkdir -p "$W/src" "$d"
	[ -d "$W/src/libxml2" ] || fetch_sources libxml2/bookworm "$W/src/libxml2"
	libxml2_build "$d/plain" "$CC" & libxml2_build "$d/alloctag" "$ACC"; wait
	for v in plain alloctag; do
		[ -x "$d/$v/inst/bin/xmllint" ] || die "libxml2 ($v) build failed: see $d/$v/build.log"
	done
	rm -rf "$d/preload"
	mkdir -p "$d/preload"
	ln -s ../plain/inst "$d/preload/inst"
	"$W/bin/gen-input" xml "$XML_RECORDS" >"$d/input.xml" || die "gen-input xml failed"
}

prepare_perl() {
	mkdir -p "$W/perl/plain" "$W/perl/alloctag"
	"$W/bin/gen-input" lines "$PERL_LINES" >"$W/perl/lines.txt" || die "gen-input lines failed"
}

prepare_python() {
	mkdir -p "$W/python/plain" "$W/python/alloctag"
}

prepare_cc1() {
	mkdir -p "$W/src" "$W/cc1/plain" "$W/cc1/alloctag"
	sqlite_amalgamation
}

# bench/NAME.c built with $CC and with alloctag-cc into $W/PROGRAM/{plain,alloctag}/NAME.
build_both() {	# PROGRAM NAME
	local d=$W/$1
	mkdir -p "$d/plain" "$d/alloctag"
	$CC -O2 -Wall -o "$d/plain/$2" "$TOP/bench/$2.c" -lpthread &&
	ALLOCTAG_CC_VERBOSE= "$ACC" -O2 -Wall -o "$d/alloctag/$2" "$TOP/bench/$2.c" -lpthread ||
		die "cannot build bench/$2.c for $1"
}

prepare_buildfree() {
	build_both buildfree micro
}

prepare_xmalloc() {
	build_both xmalloc xmalloc
}

# --- the run ---------------------------------------------------------------------

bench_program() {	# PROGRAM
	local p=$1 d=$W/$1 v vs
	vs=$(program_variants "$p")
	"prepare_$p"
	say "$p: callgrind ($vs, two at a time), $PROGRAM_ROUNDS interleaved rounds"
	set -- $vs
	while [ $# -gt 0 ]; do	# two at a time
		program_callgrind "$p" "$1" &
		[ $# -gt 1 ] && program_callgrind "$p" "$2"
		wait
		shift $(($# > 1 ? 2 : 1))
	done
	for v in $vs; do
		[ -s "$d/$v/cg.total" ] || die "$p $v: callgrind failed, see $d/$v/cg.log"
	done
	wall_rounds "$PROGRAM_ROUNDS" "$d" program_once $vs
	for v in $vs; do
		cmp -s "$d/plain/cg.stdout" "$d/$v/cg.stdout" && cmp -s "$d/plain/out" "$d/$v/out" ||
			die "$p $v: output differs from the plain run's ($d/$v/out)"
		awk '$5 != 0 { exit 1 }' "$d/$v/wall" || die "$p $v: a run failed ($d/$v/wall)"
	done
}

program_label() {	# PROGRAM VARIANT
	case $1/$2 in
	xmllint/alloctag) echo "xmllint --noout, libxml2 built with alloctag-cc" ;;
	xmllint/preload) echo "xmllint --noout, plain libxml2, liballoctag.so preloaded" ;;
	perl/*) echo "perl bench/hash.pl, $PERL_LINES lines, preloaded" ;;
	python/*) echo "python3 bench/objects.py $PYTHON_SCALE, preloaded" ;;
	cc1/*) echo "cc1: gcc $CC1_OPT -c sqlite3.c, preloaded" ;;
	buildfree/*) echo "micro build-free $BUILDFREE_BLOCKS (96 bytes), alloctag-cc" ;;
	xmalloc/*) echo "xmalloc 4 threads x $XMALLOC_OPS, frees by other threads, alloctag-cc" ;;
	esac
}

# The table: one row per program and alloctag variant, ratios to its plain run.
programs_table() {
	local p v d i0 i w0 w r0 r n any=
	for p in $PROGRAMS; do wants "$p" && any=1; done
	[ -n "$any" ] || return 0
	emit "" "### Programs nobody here tuned for: glibc against alloctag" "" \
	     "Goal: instructions and wall within 1.02x of glibc, peak RSS within 1.05x." \
	     "Allocations: the alloctag run's report (calls of every site). Wall and peak RSS: median of" \
	     "$PROGRAM_ROUNDS interleaved runs; glibc's figures in parentheses." "" \
	     "| program | allocations | instructions | Δ instr. per allocation | wall | peak RSS |" \
	     "|---|---|---|---|---|---|"
	for p in $PROGRAMS; do
		wants "$p" || continue
		d=$W/$p
		i0=$(cat "$d/plain/cg.total")
		w0=$(median 1 "$d/plain/wall")
		r0=$(median 4 "$d/plain/wall")
		for v in $(program_variants "$p"); do
			[ "$v" = plain ] && continue
			n=$(allocations "$p" "$v")
			i=$(cat "$d/$v/cg.total")
			w=$(median 1 "$d/$v/wall")
			r=$(median 4 "$d/$v/wall")
			emit "| $(program_label "$p" "$v") | $n | $(ratio "$i" "$i0") ($(awk -v i="$i0" 'BEGIN { printf "%.0f M", i / 1e6 }')) | $(per "$i" "$i0" "$n") | $(ratio "$w" "$w0") ($w0 s) | $(ratio "$r" "$r0") ($(mb "$r0") MB to $(mb "$r") MB) |"
		done
	done
}
