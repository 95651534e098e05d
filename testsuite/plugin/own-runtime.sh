# -fplugin-arg-alloctag-runtime=outermost|innermost (what alloctag-cc
# passes) makes liballoctag's tag type, current tag and hooks for a unit that
# declares no hooks (plugin/alloctag_runtime.c): the unit must compile as it
# does with runtime/alloctag.h forced in.  Sources without alloctag.h are
# compiled both ways and their assembly compared (tags' data, hence the tag
# type's layout, included; local label numbers and the tags' uid suffixes
# aside, which count declarations), and GCC's diagnostics with them; a unit
# that includes alloctag.h and is given runtime= (a program that includes it,
# built by alloctag-cc) uses alloctag.h's, without a conflict.
libc="-fplugin-arg-alloctag-tag=$(sed -n 's/^libc_functions=//p' "$ATCC")"
R=$TOP/testsuite/runtime
W=$TOP/testsuite/plugin/warnings

# code_of NAME COMPILER ARGS...: NAME.n, the assembly with what counts
# declarations numbered N, and NAME.err, the warnings and errors, each once
# (GCC 13 and later repeat the front end's -Wnonnull of strdup(NULL) from a
# late pass, or not, depending on the statements around the call: g++-13
# -O2 says it once, as plain g++-13 does, with the plugin's hooks, twice
# with alloctag.h's; warnings.sh compares with plain gcc the same way).
# Local labels named by the function's number (.LFB3, .LLSDA3: its exception
# table) are numbered N too: alloctag.h's hooks are functions of the unit.
code_of() {
	local name=$1 cc=$2
	shift 2
	"$cc" -fplugin="$PLUGIN" "$libc" "$@" -Wall -Wextra -fdiagnostics-plain-output -S \
		-o "$WORK/$name.s" 2> "$WORK/$name.out" || { cat "$WORK/$name.out"; return 1; }
	grep -E ': (warning|error): ' "$WORK/$name.out" | sort -u > "$WORK/$name.err"
	sed -E 's/\.L(FB|FE|FSB|FSE|VL|BB|BE|LST|ASF|ASANPC|LSDA[A-Z]*)[0-9]+/.L\1N/g; s/(_alloc_tag(_cntr)?)\.[0-9]+/\1.N/g' \
		"$WORK/$name.s" > "$WORK/$name.n"
}

# same_as_header COMPILER NESTING SOURCE FLAGS...: the three builds agree,
# in code and diagnostics.  With -fanalyzer in FLAGS, in diagnostics only:
# the plugin's save hook then picks the tag with a select, not a branch
# (alloctag_runtime.c's outer_or()), where alloctag.h's, which cannot know
# of -fanalyzer, keeps the branch.
same_as_header() {
	local cc=$1 nesting=$2 src=$3 def= n same_code
	shift 3
	[ "$nesting" = innermost ] && def=-DALLOCTAG_INNERMOST
	code_of header "$cc" -I"$TOP/runtime" $def -include alloctag.h "$@" "$src" &&
		code_of own "$cc" "-fplugin-arg-alloctag-runtime=$nesting" "$@" "$src" &&
		code_of both "$cc" -I"$TOP/runtime" $def -include alloctag.h \
			"-fplugin-arg-alloctag-runtime=$nesting" "$@" "$src" || return 1
	grep -q '_noprof\|alloc_tags' "$WORK/own.s" || { echo "${src##*/} $*: nothing tagged"; return 1; }
	for n in own both; do
		same_code=1
		[ $n = own ] && case " $* " in *" -fanalyzer "*) same_code=0 ;; esac
		{ [ $same_code = 0 ] || cmp -s "$WORK/header.n" "$WORK/$n.n"; } &&
			cmp -s "$WORK/header.err" "$WORK/$n.err" && continue
		echo "${src##*/} $nesting $*: $n differs from alloctag.h's:"
		diff "$WORK/header.n" "$WORK/$n.n" | head -n 20
		diff "$WORK/header.err" "$WORK/$n.err" | head -n 20
		return 1
	done
}

# Every level, PIC and exceptions; the innermost rule and -fanalyzer where
# they change something.
c_check() {
	local src o
	for src in "$R/allocators.c" "$R/hooks-table.c" "$R/threads.c" "$W/cases.c"; do
		for o in $OPT_LEVELS "-O2 -fPIC" "-O2 -fexceptions"; do
			same_as_header "$TESTCC" outermost "$src" $o -I"$R" || return 1
		done
		same_as_header "$TESTCC" innermost "$src" -O2 -I"$R" || return 1
	done
	for o in -O0 -O2; do
		same_as_header "$TESTCC" outermost "$W/cases.c" $o -fanalyzer || return 1
	done
}
check own-runtime/c c_check

cxx_check() {
	local o
	for o in -O0 -O2 "-O2 -fanalyzer"; do
		same_as_header "$1" outermost "$W/cases.cc" $o || return 1
	done
	same_as_header "$1" innermost "$W/cases.cc" -O1
}
gxx=$(echo "$TESTCC" | sed 's/gcc/g++/')
if [ "$gxx" = "$TESTCC" ] || ! command -v "$gxx" >/dev/null; then
	skip own-runtime/c++ "no $gxx, the g++ of $TESTCC"
else
	check own-runtime/c++ cxx_check "$gxx"
fi

# With link-time optimization, the hooks are inlined before the unit is
# written (always_inline): the program reports its site.
lto_check() {
	printf '#include <stdlib.h>\nchar *volatile keep;\nint main(void) { keep = malloc(7); return !keep; }\n' \
		> "$WORK/lto.c"
	(cd "$WORK" && "$ATCC" -O2 -flto -o lto lto.c && ALLOCTAG_REPORT=report ./lto) || return 1
	grep -q '^ *7 *1 lto.c:3 func:main' "$WORK/report" || { cat "$WORK/report"; return 1; }
}
check own-runtime/lto lto_check
