# The auto argument (alloctag-cc's default): a unit in which it finds no call
# to imply a tag for (no allocation wrapper called, no system-header code
# that allocates, no C library function that allocates inside: printf, qsort)
# and no new expression compiles to the object it compiles
# to without it, in C and in C++; one in which it does, to another.  Over the testsuite's own C and
# C++ programs and the demo, as alloctag-cc compiles them.
auto_flags="-O2 -fplugin-arg-alloctag-runtime=outermost
	-fplugin-arg-alloctag-tag-file=$TOP/runtime/alloctag-libc.tags -w"
same=0 implied=0 bad=
for src in "$TOP"/testsuite/runtime/*.c "$TOP"/testsuite/runtime/*.cc "$TOP"/examples/demo/*.c; do
	base=$(basename "$src")
	cc=$TESTCC
	case $src in *.cc) cc=$(echo "$TESTCC" | sed 's/gcc/g++/') ;; esac
	command -v "$cc" >/dev/null || continue
	notes=$(TESTCC=$cc pcc $auto_flags -fplugin-arg-alloctag-auto -fplugin-arg-alloctag-verbose \
		-I"$(dirname "$src")" -c "$src" -o "$WORK/$base.auto.o" 2>&1) || { bad="$bad $base(compile)"; continue; }
	TESTCC=$cc pcc $auto_flags -I"$(dirname "$src")" -c "$src" -o "$WORK/$base.o" 2>/dev/null ||
		{ bad="$bad $base(compile)"; continue; }
	if echo "$notes" | grep -q "it leads to an allocation\|call to 'void\* operator new"; then
		implied=$((implied + 1))
		cmp -s "$WORK/$base.o" "$WORK/$base.auto.o" && bad="$bad $base(implied-but-same)"
	else
		same=$((same + 1))
		cmp -s "$WORK/$base.o" "$WORK/$base.auto.o" || bad="$bad $base(differs)"
	fi
done
[ -z "$bad" ] && [ $same -ge 5 ] && [ $implied -ge 4 ] && pass auto/unchanged-without-implied-tags ||
	fail auto/unchanged-without-implied-tags "same $same, implied $implied, wrong:$bad"

# A system header's function that never returns (it prints and aborts, as
# libstdc++'s __replacement_assert does under _GLIBCXX_ASSERTIONS) makes
# nothing that calls it allocating: an accessor that may call it gets no
# implied tag, and the unit compiles as without auto.
mkdir -p "$WORK/noreturn"
cat > "$WORK/noreturn/checked.h" <<'C'
#pragma GCC system_header
#include <stdio.h>
#include <stdlib.h>
__attribute__((noreturn)) static inline void checked_fail(const char *what)
{
	printf("%s: out of range\n", what);
	abort();
}
static inline int checked_get(const int *v, int n, int i)
{
	if (i < 0 || i >= n)
		checked_fail("checked_get");
	return v[i];
}
C
cat > "$WORK/noreturn/use.c" <<'C'
#include "checked.h"
int third(const int *v, int n) { return checked_get(v, n, 3); }
C
notes=$(pcc $auto_flags -fplugin-arg-alloctag-auto -fplugin-arg-alloctag-verbose -I"$WORK/noreturn" \
	-c "$WORK/noreturn/use.c" -o "$WORK/noreturn/auto.o" 2>&1) &&
	pcc $auto_flags -I"$WORK/noreturn" -c "$WORK/noreturn/use.c" -o "$WORK/noreturn/plain.o" &&
	! echo "$notes" | grep -q "leads to an allocation" && cmp -s "$WORK/noreturn/auto.o" "$WORK/noreturn/plain.o" &&
	pass auto/noreturn-allocates-nothing || fail auto/noreturn-allocates-nothing "$notes"

# A wrapper that returns twice gets no implied tag, and no warning says so:
# nothing asked for a tag there (a tagged function that returns twice is
# warned of, diag/returns-twice.c).
cat > "$WORK/twice.c" <<'C'
#include <stdlib.h>
__attribute__((returns_twice)) void *grab(size_t n) { return malloc(n); }
int main(void) { return !grab(5); }
C
out=$(pcc $auto_flags -fplugin-arg-alloctag-auto -fplugin-arg-alloctag-verbose -Wall -Werror \
	-c "$WORK/twice.c" -o "$WORK/twice.o" 2>&1)
[ $? = 0 ] && ! echo "$out" | grep -q "twice.c:3.*tagged\|warning" && pass auto/returns-twice-untagged ||
	fail auto/returns-twice-untagged "$out"
