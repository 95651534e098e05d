# expat 2.5.0 (Debian's expat) built twice with CMake, C and C++: with plain
# $TESTCC and its g++, and with alloctag-cc and alloctag-c++.  Its ctest
# suite runs runtests (C) and runtestspp (the same tests compiled as C++,
# linked by the C++ compiler with the library's C objects): a mixed C/C++
# project, whose C++ program must link and pass.  expat allocates through
# its memory suite (parser->m_mem.malloc_fcn): indirect calls of malloc's
# type, tagged with no list.

# expat_build DIR CC [ENV...]: cmake (in DIR, below expat's sources) and make,
# with the C++ compiler that goes with CC.
expat_build() {
	local b=$1 cc=$2 cxx=${TESTCC/gcc/g++}
	shift 2
	[ "$cc" = "$REAL_CC" ] && cxx=${REAL_CC%/*}/alloctag-c++
	mkdir -p "$b"
	(cd "$b" && env "$@" cmake -DCMAKE_C_COMPILER="$cc" -DCMAKE_CXX_COMPILER="$cxx" \
			-DCMAKE_C_FLAGS="$REAL_CFLAGS -g" -DCMAKE_CXX_FLAGS="$REAL_CFLAGS -g" \
			-DEXPAT_BUILD_DOCS=OFF .. &&
		env "$@" make -j2) >"$b/build.log" 2>&1
}

real_expat() {
	local name=real/expat SRC=$REAL/expat/src
	local P=$SRC/expat/bld-plain T=$SRC/expat/bld-tagged b
	if ! command -v "${TESTCC/gcc/g++}" >/dev/null; then
		skip "$name" "no ${TESTCC/gcc/g++}"
		return
	fi
	sources "$name" expat "$SRC" || return

	build_both "$name" expat_build "" ALLOCTAG_REPORT=off || return
	# runtestspp: C++ compiled by alloctag-c++, linked by it with objects
	# that alloctag-cc compiled.
	if ! grep -q "alloctag-c++ .*runtestspp.cpp.o .*xmlparse.c.o" "$T/CMakeFiles/runtestspp.dir/link.txt"; then
		fail "$name: build with alloctag-cc and alloctag-c++" \
			"runtestspp not linked by alloctag-c++:" "$(cat "$T/CMakeFiles/runtestspp.dir/link.txt")"
		return
	fi
	pass "$name: build with alloctag-cc and alloctag-c++"
	note "runtestspp: C++ and C objects, linked by alloctag-c++"

	mkdir -p "$T/reports"
	in_both ctest env ALLOCTAG_REPORT="$T/reports/%e-%p.txt" ctest -j2
	local results
	for b in "$P" "$T"; do
		sed -nE 's/^ *[0-9]+\/[0-9]+ Test +#[0-9]+: ([^ ]+) \.*[ *]*([A-Za-z]+).*/\1 \2/p' "$b/ctest.out" |
			sort >"$b/ctest.cmp"
	done
	results=$(tr '\n' ' ' <"$T/ctest.cmp")
	if [ "$results" != "runtests Passed runtestspp Passed " ]; then
		fail "$name: ctest" "$results" "$(logtail "$T/ctest.out")"
	elif same_output "$name: ctest" "$P/ctest.cmp" "$T/ctest.cmp"; then
		pass "$name: ctest"
		note "$results(as with the plain build)"
	fi
	check_no_negative "$name: ctest reports: no site negative" "$T"/reports/*.txt
	local r=$(ls "$T"/reports/runtestspp-*.txt 2>/dev/null | head -n 1)
	check_top_sites "$name: runtestspp report: top sites are expat code" "${r:-$T/reports/none}" \
		5 "$SRC" total
}
