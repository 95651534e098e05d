# alloctag-cc's project functions tagged by name: --alloctag-functions=LIST
# and ALLOCTAG_FUNCTIONS (names, patterns, @FILE), added to the C library's;
# nothing is declared, so -Wredundant-decls -Werror builds; patterns reach
# the plugin as written.  Links get RUNPATH, not RPATH.
d=$WORK/functions
mkdir -p "$d"
cat > "$d/lib.c" <<'C'
#include <stdlib.h>
#include <string.h>
char *my_dup(const char *s) { return strdup(s); }
void *my_alloc__alias(size_t n) { return malloc(n); }
void *my_other(size_t n) { return malloc(n); }
C
cat > "$d/main.c" <<'C'
#include <stdlib.h>
#include <string.h>
char *my_dup(const char *s);
void *my_alloc__alias(size_t n);
void *my_other(size_t n);
static void *keep[4];
int main(void)
{
	keep[0] = my_dup("abc");
	keep[1] = my_alloc__alias(10);
	keep[2] = my_other(20);
	keep[3] = strdup("x");
	return !keep[0] || !keep[1] || !keep[2] || !keep[3];
}
C
printf '# my functions\nmy_other\n' > "$d/list"
: > "$d/my_alloc__pattern_would_match_this_file"	# not for the shell to expand
functions_check() {
	local out
	(cd "$d" && "$@" -O2 -Wall -Wredundant-decls -Werror -o main main.c lib.c) || return 1
	(cd "$d" && ALLOCTAG_REPORT=report ALLOCTAG_FORMAT=full ./main) || return 1
	out=$(grep 'main.c' "$d/report" | awk '{ print $1, $6, $NF }' | sort)
	[ "$out" = "$(printf '%s\n' '10 main.c:10:19 callee:my_alloc__alias' '2 main.c:12:19 callee:strdup' \
		'20 main.c:11:19 callee:my_other' '4 main.c:9:19 callee:my_dup')" ] ||
		{ cat "$d/report"; return 1; }
}
check functions/option functions_check "$ATCC" "--alloctag-functions=my_dup,my_alloc_*" "--alloctag-functions=@$d/list"
environment_check() {
	ALLOCTAG_FUNCTIONS="my_dup my_alloc_* @$d/list" functions_check "$ATCC"
}
check functions/environment environment_check
check functions/unreadable-file sh -c "! '$ATCC' --alloctag-functions=@/nonexistent -c '$d/main.c' -o /dev/null 2> '$d/err' &&
	grep -qx 'alloctag-cc: cannot read functions file /nonexistent' '$d/err'"
# A linker whose default is DT_RPATH (simulated) still gets RUNPATH, so that
# LD_LIBRARY_PATH (libtool's wrapper scripts) keeps precedence.
printf '#!/bin/sh\nexec %s -Wl,--disable-new-dtags "$@"\n' "$TESTCC" > "$d/rpath-cc"
chmod +x "$d/rpath-cc"
check functions/runpath sh -c "cd '$d' && ALLOCTAG_CC='$d/rpath-cc' '$ATCC' -o rp main.c lib.c &&
	readelf -d rp | grep -q '(RUNPATH)' && ! readelf -d rp | grep -q '(RPATH)'"
