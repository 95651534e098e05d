# The difference from the kernel's alloc_hooks() macro that docs/guide.md
# shows: the macro makes its tag current before the call's arguments are
# evaluated, the plugin only around the call.  One program, built with
# alloctag-cc and with the macro (bench/macro/, the benchmark's reference),
# with each nesting rule; the reports must be exactly these.
d=$WORK/argument-order
rm -rf "$d" && mkdir -p "$d"

# A library built without the plugin: its allocations are charged to the
# tag current when they happen.
cat > "$d/measure.c" <<'C'
#include <stdlib.h>
#include <string.h>
char *measure_last;
size_t measure(const char *s) { measure_last = malloc(1000); return strlen(s); }
C
# docs/guide.md's example, line for line.
cat > "$d/main.c" <<'C'
#include <stdlib.h>
#include <string.h>
size_t measure(const char *s);	/* in a library built without the plugin */
static const char *names[] = { "abcdefg" };
static char *last; static char *name_of(int id) { return last = strdup(names[id]); }
int main(void)
{
	char *p = malloc(measure("0123456789") + 1);
	char *q = malloc(strlen(name_of(0)) + 1);
	return !p || !q;	/* all left live, to be seen at exit */
}
C

# argument_order_build NAME NESTING: build/NAME, with alloctag-cc (NAME
# plugin) or the macro (NAME macro), NESTING outermost or innermost.
argument_order_build() {
	local flags=
	[ "$2" = innermost ] && flags=-DALLOCTAG_INNERMOST
	(cd "$d" && "$TESTCC" -O2 -fPIC -shared -o libmeasure.so measure.c) || return 1
	case $1 in
	plugin) (cd "$d" && "$ATCC" -O2 $flags -o "$1-$2" main.c -L. -lmeasure -Wl,-rpath,'$ORIGIN') ;;
	macro) (cd "$d" && "$TESTCC" -O2 $flags -I"$TOP/bench/macro" -isystem "$TOP/runtime" \
		-o "$1-$2" main.c -L. -lmeasure -Wl,-rpath,'$ORIGIN' \
		-L"$TOP/build/$TESTCC" -lalloctag -Wl,-rpath,"$TOP/build/$TESTCC") ;;
	esac
}

# argument_order_report NAME NESTING: its report's sites, "bytes calls site",
# the untagged line as "untagged".
argument_order_report() {
	(cd "$d" && ALLOCTAG_REPORT="$d/$1-$2.report" ALLOCTAG_FORMAT=allocinfo "./$1-$2") || return 1
	awk 'NR > 2 { s = $3; for (i = 4; i <= NF; i++) s = s " " $i
		      if (s ~ /func:untagged$/) s = "untagged"; print $1, $2, s }' "$d/$1-$2.report"
}

# argument_order_check NESTING PLUGIN-SITES MACRO-SITES: the sites of main.c
# in each build's report, and the 1000 bytes measure() allocates uncharged
# to them with the plugin: on the untagged line, 1000 bytes and one block
# more than with the macro.
argument_order_check() {
	local nesting=$1 want_plugin=$2 want_macro=$3 b got plugin_untagged macro_untagged
	for b in plugin macro; do
		argument_order_build $b "$nesting" >"$d/build.log" 2>&1 || { cat "$d/build.log"; return 1; }
		argument_order_report $b "$nesting" >"$d/$b-$nesting.sites" || return 1
	done
	got=$(grep 'main\.c' "$d/plugin-$nesting.sites" | sort)
	[ "$got" = "$want_plugin" ] ||
		{ echo "plugin:"; diff <(echo "$want_plugin") <(echo "$got"); return 1; }
	got=$(grep 'main\.c' "$d/macro-$nesting.sites" | sort)
	[ "$got" = "$want_macro" ] ||
		{ echo "macro:"; diff <(echo "$want_macro") <(echo "$got"); return 1; }
	plugin_untagged=$(awk '$3 == "untagged" { b = $1; c = $2 } END { print b + 0, c + 0 }' "$d/plugin-$nesting.sites")
	macro_untagged=$(awk '$3 == "untagged" { b = $1; c = $2 } END { print b + 0, c + 0 }' "$d/macro-$nesting.sites")
	[ "$(echo "$plugin_untagged $macro_untagged" | awk '{ print $1 - $3, $2 - $4 }')" = "1000 1" ] ||
		{ echo "untagged: plugin $plugin_untagged, macro $macro_untagged"; return 1; }
}

# Outermost (the default): the macro charges the strdup of name_of() to
# main.c:9, whose tag is current while its argument runs; the plugin
# charges it to its own line.  measure()'s 1000 bytes: main.c:8 with the
# macro, untagged with the plugin.
check runtime/argument-order-outermost argument_order_check outermost \
"11 1 main.c:8 func:main
8 1 main.c:5 func:name_of
8 1 main.c:9 func:main" \
"1011 2 main.c:8 func:main
16 2 main.c:9 func:main"

# Innermost (the kernel's rule): strdup is charged to its own line by both;
# measure()'s 1000 bytes still differ.
check runtime/argument-order-innermost argument_order_check innermost \
"11 1 main.c:8 func:main
8 1 main.c:5 func:name_of
8 1 main.c:9 func:main" \
"1011 2 main.c:8 func:main
8 1 main.c:5 func:name_of
8 1 main.c:9 func:main"
