# libxml2 2.9.14 (Debian's libxml2) built twice with its configure and
# libtool, with plain $TESTCC and with alloctag-cc, both with
# -Wredundant-decls -Werror=redundant-decls; its test programs (runtest,
# testrecurse, testapi, testchar, testdict: "make runtests" but for the
# W3C conformance suite it does not ship) run on both.  Its allocation API
# is tagged by name, tags/libxml2.tags, given as --alloctag-functions=@FILE
# in CFLAGS: configure keeps CFLAGS for make, where an environment variable
# given to configure alone would be lost.

LIBXML2_TESTS="runtest testrecurse testapi testchar testdict"

# libxml2_build DIR CC [ENV...]: configure (in DIR, below the sources), make
# the library and the test programs.
libxml2_build() {
	local b=$1 cc=$2 flags="$REAL_CFLAGS -g -Wredundant-decls -Werror=redundant-decls"
	shift 2
	[ "$cc" = "$REAL_CC" ] && flags="$flags --alloctag-functions=@$TAGS/libxml2.tags"
	mkdir -p "$b"
	ln -sfn ../test "$b/test"		# where the test programs look
	ln -sfn ../result "$b/result"
	(cd "$b" && env "$@" ../configure --without-python CC="$cc" CFLAGS="$flags" &&
		env "$@" make -j2 && env "$@" make -j2 $LIBXML2_TESTS) >"$b/build.log" 2>&1
}

# libxml2_warnings LOG: the compiler's warnings of a build, sorted.
libxml2_warnings() {
	grep -E ': (warning|error): ' "$1" | sort -u
}

# libxml2_tests: each test program through its libtool wrapper (which points
# the dynamic loader at .libs; the program in .libs run directly would load
# the system's libxml2, if any): its standard output and exit status, its
# messages in PROGRAM.stderr (runtest's thread tests write theirs at once,
# mixed within lines: not compared), a report of each process in reports/.
# The lines are compared sorted: the thread tests' lines come in any order.
libxml2_tests() {
	local t
	mkdir -p reports
	for t in $LIBXML2_TESTS; do
		ALLOCTAG_REPORT="$PWD/reports/%e-%p.txt" ./$t 2>"$t.stderr"
		echo "$t: exit $?"
	done
}

# libxml2_lines OUTPUT: what of the test programs' OUTPUT must be the same in
# both builds: its lines sorted, but for the messages of runtest's thread
# tests (after "## Catalog and Threads", up to its "Total" line), of which
# the characters are counted: the threads write their messages in pieces,
# interleaved differently in every run ("I/O " of one thread, "parse
# failed" of another, then "warning : ").
libxml2_lines() {
	local threads='/^## /{t = /Threads/} /^(## |Total |[a-z]+: exit )/{t = t && /^## /}'
	awk "$threads !t || /^## /" "$1" | sort
	echo "characters of the thread tests' messages:"
	awk "$threads t && !/^## /" "$1" | tr -d '\n' | fold -w 1 | sort | uniq -c
}

real_libxml2() {
	# Folder names of one length: libxml2 allocates paths that contain
	# them, a byte more each in the tagged build's count otherwise.
	local name=real/libxml2 SRC=$REAL/libxml2/src
	local P=$SRC/bld-plain T=$SRC/bld-alloc
	sources "$name" libxml2 "$SRC" || return

	build_both "$name" libxml2_build "" ALLOCTAG_REPORT=off || return
	local pw tw
	pw=$(libxml2_warnings "$P/build.log")
	tw=$(libxml2_warnings "$T/build.log")
	if [ "$pw" != "$tw" ]; then
		fail "$name: build with alloctag-cc" "its warnings differ from the plain build's:" \
			"$(diff <(echo "$pw") <(echo "$tw") | grep '^[<>]')"
		return
	fi
	pass "$name: build with alloctag-cc"
	note "-Wredundant-decls -Werror=redundant-decls, $(echo "$pw" | grep -c .) warnings, the plain build's"

	# configure found the same system: the same config.h.
	if cmp -s "$P/config.h" "$T/config.h"; then
		pass "$name: configure: the same config.h"
		note "$(grep -c '^#define' "$T/config.h") definitions"
	else
		fail "$name: configure: the same config.h" "$(diff "$P/config.h" "$T/config.h")"
	fi

	# The test programs: the plain build's output, each exit 0 but runtest's
	# (it counts the thread tests whose files Debian's tarball lacks).
	in_both tests libxml2_tests
	libxml2_lines "$P/tests.out" >"$P/tests.cmp"
	libxml2_lines "$T/tests.out" >"$T/tests.cmp"
	local summary
	summary=$(grep -hE '^(Total|dictionary tests)' "$T/tests.out")
	if ! grep -q '^testapi: exit 0$' "$T/tests.out" || ! grep -q 'Total: [0-9]* functions, [0-9]* tests, 0 errors' "$T/tests.out"; then
		fail "$name: test programs" "$(logtail "$T/tests.out")"
	elif same_output "$name: test programs" "$P/tests.cmp" "$T/tests.cmp"; then
		pass "$name: test programs"
		note "$summary" "(the plain build's output and exit statuses)"
	fi
	check_no_negative "$name: test reports: no site negative" "$T"/reports/*.txt
	merge_reports "$T"/reports/*.txt >"$T/tests.report"
	check_top_sites "$name: test reports: top sites are libxml2 code" "$T/tests.report" 10 "$SRC" \
		total xmlStrndup xmlStrndup__internal_alias xmlDictAddString xmlDictAddQString

	# Sites on one line: XML_GET_VAR_STR (error.c) calls xmlMalloc and
	# xmlRealloc in one macro, used on one line: two sites in the reports,
	# told apart by their callee.
	local sites
	sites=$(report_rows "$T/tests.report" | awk '$6 ~ /error\.c:501:/ { print $6, $NF }' | sed 's|^[./]*||' | sort)
	if [ "$sites" = "$(printf '%s\n' 'error.c:501:9 callee:xmlMalloc' 'error.c:501:9 callee:xmlRealloc')" ]; then
		pass "$name: two sites on one line differ by callee"
		note "$(echo "$sites" | tr '\n' ';' | sed 's/;$//; s/;/; /')"
	else
		fail "$name: two sites on one line differ by callee" "got: $sites"
	fi

	# Exact counts: DHAT's count of testchar (5.6 million blocks) in the
	# plain build; not runtest, whose thread tests race and make as many
	# dynamic-loader blocks as there are threads, each larger with the
	# runtime's library loaded.  The program in .libs, with the loader
	# pointed at the build's library (what libtool's wrapper does), so that
	# valgrind runs it, not the wrapper.
	(cd "$P" && LD_LIBRARY_PATH=$P/.libs dhat "$P/testchar.dhat" .libs/testchar) &
	(cd "$T" && export $(report_env "$T/testchar.report") &&
		LD_LIBRARY_PATH=$T/.libs .libs/testchar >/dev/null 2>&1)
	wait
	check_dhat "$name: testchar: report = DHAT's count" "$T/testchar.report" "$P/testchar.dhat"
}
