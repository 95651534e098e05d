# Allocation wrappers across units: --alloctag-wrappers=FILE (ALLOCTAG_WRAPPERS)
# is a list each compilation reads and adds its own public wrappers to, with
# the external functions they are wrappers through and the pointer arguments
# they keep no copy of.  A first build writes it; the next charges every
# wrapper's callers, whatever the order of the units; without the list, a
# unit knows only its own wrappers.  A block handed to another unit's
# function is kept unless the list says that argument is not (grown() hands
# its block to xrealloc(), and is a wrapper; attached() to attach(), which
# keeps it, and is none).
d=$WORK/list
mkdir -p "$d"
cat > "$d/lib.c" <<'C'
#include <stdlib.h>
#include <string.h>
void *xmalloc(size_t n) { void *p = malloc(n); if (!p) abort(); return p; }
char *xstrdup(const char *s) { return strcpy(xmalloc(strlen(s) + 1), s); }
static void *last;
void *keeper(size_t n) { return last = malloc(n); }
void *xrealloc(void *p, size_t n) { void *r = realloc(p, n); if (!r) abort(); return r; }
void *attach(void *h) { void **node = xmalloc(sizeof(*node)); *node = h; return node; }
C
cat > "$d/str.c" <<'C'
#include <stdlib.h>
char *xstrdup(const char *s);
void *xmalloc(size_t n);
void *xrealloc(void *p, size_t n);
void *attach(void *h);
char *copy(const char *s) { return xstrdup(s); }
char *grown(size_t n) { char *p = xmalloc(n); p = xrealloc(p, 2 * n); return p; }
void *attached(size_t n)
{
	void *p = xmalloc(n);
	free(attach(p));
	return p;
}
C
cat > "$d/main.c" <<'C'
#include <stdlib.h>
void *xmalloc(size_t n);
char *copy(const char *s);
void *keeper(size_t n);
char *grown(size_t n);
void *attached(size_t n);
int main(void)
{
	char *a = xmalloc(10);
	char *b = copy("twelve chars");
	void *c = keeper(20);
	char *d = grown(5);
	void *e = attached(7);
	return !a || !b || !c || !d || !e;
}
C

# wl_build [ALLOCTAG-CC OPTION...]: main.c, str.c, lib.c compiled in that
# order (callers before the wrappers they call), linked, run; its sites.
wl_build() {
	local f
	for f in main str lib; do
		(cd "$d" && "$ATCC" -O2 "$@" -c $f.c -o $f.o) || return 1
	done
	(cd "$d" && "$ATCC" -o prog main.o str.o lib.o &&
	 ALLOCTAG_REPORT=report ALLOCTAG_FORMAT=full ./prog) || return 1
	report_by_line "$d/report"
}

inside="lib.c:3 30/3 43/5 38
lib.c:6 20/1 20/1 20
lib.c:7 10/1 10/1 10"
callers="lib.c:6 20/1 20/1 20
main.c:10 13/1 13/1 13
main.c:12 10/1 15/2 10
main.c:9 10/1 10/1 10
str.c:10 7/1 7/1 7
str.c:11 0/0 8/1 8"

got=$(wl_build)
[ "$got" = "$inside" ] && pass wrappers-list/none || fail wrappers-list/none "$got"

got=$(wl_build --alloctag-wrappers=w.list)
[ "$got" = "$inside" ] && pass wrappers-list/first-build-as-without ||
	fail wrappers-list/first-build-as-without "$got"
want="# alloctag: allocation wrappers by unit (UNIT<TAB>NAME [THROUGH...] [@ARG...: kept nowhere])
$d/str.c	copy xstrdup
$d/str.c	grown xmalloc xrealloc
$d/str.c	attached xmalloc
$d/lib.c	xmalloc
$d/lib.c	xstrdup @0
$d/lib.c	xrealloc @0
$d/lib.c	attach"
got=$(cat "$d/w.list")
[ "$got" = "$want" ] && pass wrappers-list/written || fail wrappers-list/written "$got"

got=$(cd "$d" && ALLOCTAG_WRAPPERS="$d/w.list" wl_build)
[ "$got" = "$callers" ] && pass wrappers-list/second-build-callers ||
	fail wrappers-list/second-build-callers "$got"
[ "$(cat "$d/w.list")" = "$want" ] && pass wrappers-list/same-list-again ||
	fail wrappers-list/same-list-again "$(cat "$d/w.list")"

# A unit compiled again replaces what it wrote: xmalloc keeps a copy now,
# and xstrdup and attach, wrappers through it, are none either.
sed -i 's/if (!p) abort(); return p;/last2 = p; return p;/; 1i static void *last2;' "$d/lib.c"
(cd "$d" && "$ATCC" -O2 --alloctag-wrappers=w.list -c lib.c -o lib.o)
want="# alloctag: allocation wrappers by unit (UNIT<TAB>NAME [THROUGH...] [@ARG...: kept nowhere])
$d/str.c	copy xstrdup
$d/str.c	grown xmalloc xrealloc
$d/str.c	attached xmalloc
$d/lib.c	xrealloc @0"
got=$(cat "$d/w.list")
[ "$got" = "$want" ] && pass wrappers-list/unit-replaced || fail wrappers-list/unit-replaced "$got"

# Units compiled at once each add theirs, none lost.
mkdir -p "$d/many"
for i in 0 1 2 3 4 5 6 7; do
	printf '#include <stdlib.h>\nvoid *w%s(size_t n) { return malloc(n); }\n' $i > "$d/many/w$i.c"
done
(cd "$d/many" && for i in 0 1 2 3 4 5 6 7; do
	"$ATCC" -O2 --alloctag-wrappers=w.list -c w$i.c -o w$i.o &
done; wait)
got=$(grep -c '	w[0-7]$' "$d/many/w.list")
[ "$got" = 8 ] && pass wrappers-list/at-once || fail wrappers-list/at-once "$(cat "$d/many/w.list")"

# A list that cannot be read is an error, said once (then GCC's "failed to
# initialize plugin").
mkdir -p "$d/a-folder"
out=$(cd "$d" && LC_ALL=C "$ATCC" -O2 --alloctag-wrappers=a-folder -c main.c -o m.o 2>&1)
[ $? != 0 ] && [ "$(echo "$out" | grep -v 'failed to initialize plugin')" = \
	"cc1: error: '-fplugin-arg-alloctag-wrappers-file=$d/a-folder': cannot read it: Is a directory" ] &&
	pass wrappers-list/unreadable || fail wrappers-list/unreadable "$out"
