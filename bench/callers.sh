# bench/callers.sh, sourced by bench/run: what the plugin's auto argument
# (allocations charged to the line that asked: C++ new, containers,
# allocation wrappers, the C library) costs.  Three workloads, each built
#   plain      gcc -O2 / g++ -O2
#   alloctag   alloctag-cc / alloctag-c++ (auto, the wrappers list of a
#              first build: --alloctag-wrappers)
#   noauto     the same without the auto argument (what alloctag-cc did
#              before it)
# bench/wrappers.c with bench/wrappers-lib.c (gnulib's xalloc in a unit of
# its own: every call to a wrapper gets a tag), bench/containers.cc
# (std::map, std::unordered_map, std::list, strings, make_unique) and
# bench/stdio.c (small fputs, fwrite, fprintf and fgets calls, qsort: the C
# library's functions that allocate inside, each call with an implied tag).
# Instructions (callgrind) and wall time (interleaved rounds) against plain;
# the auto argument's own cost is alloctag against noauto.

CALLERS_VARIANTS="plain alloctag noauto"
CALLERS_WORKLOADS="wrappers containers stdio"

# callers_cc VARIANT LANG: the compiler command of a variant.
callers_cc() {
	local driver=$ACC plain=$CC
	if [ "$2" = c++ ]; then
		driver=${ACC%/*}/alloctag-c++
		plain=$(echo "$CC" | sed 's/gcc/g++/')
	fi
	case $1 in
	plain) echo "$plain" ;;
	alloctag) echo "$driver --alloctag-wrappers=wrappers.list" ;;
	noauto) echo "env ALLOCTAG_CC=$W/bin/noauto-$2 ALLOCTAG_CXX=$W/bin/noauto-$2 $driver" ;;
	esac
}

# The compiler without the auto argument, for the noauto variant.
callers_tools() {
	local lang gcc
	for lang in c c++; do
		gcc=$CC
		[ $lang = c++ ] && gcc=$(echo "$CC" | sed 's/gcc/g++/')
		cat >"$W/bin/noauto-$lang" <<-EOF
		#!/bin/sh
		# $gcc without -fplugin-arg-alloctag-auto
		for a; do shift; [ "\$a" = -fplugin-arg-alloctag-auto ] || set -- "\$@" "\$a"; done
		exec $gcc "\$@"
		EOF
		chmod 755 "$W/bin/noauto-$lang"
	done
}

# callers_build NAME VARIANT: the workload NAME built by VARIANT in
# $W/NAME/VARIANT; alloctag's twice, the first to write its wrappers list.
callers_build() {
	local name=$1 v=$2 d=$W/$1/$2 cc srcs lang=c
	case $name in
	wrappers) srcs="$TOP/bench/wrappers.c $TOP/bench/wrappers-lib.c" ;;
	containers) lang=c++ srcs=$TOP/bench/containers.cc ;;
	*) srcs=$TOP/bench/$name.c ;;
	esac
	cc=$(callers_cc "$v" $lang)
	rm -rf "$d"
	mkdir -p "$d"
	(cd "$d" && $cc -O2 -Wall -o "$name" $srcs && if [ "$v" = alloctag ]; then
		$cc -O2 -Wall -o "$name" $srcs; fi) >"$d/build.log" 2>&1
}

callers_once() { (cd "$1/$2" && env ALLOCTAG_REPORT=report.txt "$TIMEIT" wall "./${1##*/}"); }

bench_callers() {
	local name v
	callers_tools
	for name in $CALLERS_WORKLOADS; do
		say "$name: 3 builds, callgrind, $ROUNDS interleaved rounds"
		for v in $CALLERS_VARIANTS; do
			callers_build "$name" "$v" || die "$name $v build failed: see $W/$name/$v/build.log"
		done
		for v in $CALLERS_VARIANTS; do
			callgrind_run "$W/$name" "$v" "./$name" &
		done
		wait
		for v in $CALLERS_VARIANTS; do
			[ -s "$W/$name/$v/cg.total" ] || die "$name $v: callgrind failed, see $W/$name/$v/cg.log"
			cmp -s "$W/$name/plain/cg.stdout" "$W/$name/$v/cg.stdout" ||
				die "$name $v: output differs from the plain build's"
		done
		wall_rounds "$ROUNDS" "$W/$name" callers_once $CALLERS_VARIANTS
	done
}

# callers_sites DIR VARIANT: the sites of the variant's report at exit (its callgrind run's).
callers_sites() {
	grep -c ' func:' "$1/cg.$(printf '%-8.8s' "$2" | tr ' ' _)/report.txt" 2>/dev/null || echo -
}

callers_table() {
	local name d
	for name in $CALLERS_WORKLOADS; do
		d=$W/$name
		table "$d" "bench/$name: the auto argument (C++ new, containers, allocation wrappers, the C library)" \
			"" $CALLERS_VARIANTS --
		emit "" "The auto argument's own cost (alloctag against noauto):" \
		     "$(ratio "$(cat "$d/alloctag/cg.total")" "$(cat "$d/noauto/cg.total")") instructions," \
		     "$(ratio "$(median 1 "$d/alloctag/wall")" "$(median 1 "$d/noauto/wall")") wall;" \
		     "sites in the report at exit $(callers_sites "$d" alloctag) with auto (the program's lines)," \
		     "$(callers_sites "$d" noauto) without (the wrappers' and libstdc++'s lines, or untagged)."
	done
}
