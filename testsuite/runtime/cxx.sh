# alloctag-c++: CXX=alloctag-c++ compiles C++ with the plugin (the C
# library's calls tagged), and links the runtime: objects of alloctag-cc and
# alloctag-c++ link together with it, as a mixed C/C++ project does.
CXX=${TESTCC/gcc/g++}
ATCXX=${ATCC%/*}/alloctag-c++
d=$WORK/cxx-driver
mkdir -p "$d"
if ! command -v "$CXX" >/dev/null; then
	skip cxx-driver/all "no $CXX, the g++ of $TESTCC"
else
cat > "$d/lib.c" <<'C'
#include <string.h>
char *c_dup(const char *s) { return strdup(s); }
C
cat > "$d/main.cc" <<'CC'
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>
extern "C" char *c_dup(const char *s);
static char *volatile keep[2];	/* GCC 15 deletes an unread strdup */
int main()
{
	std::vector<std::string> v(10, "a string too long for the small buffer");
	keep[0] = c_dup("c");
	keep[1] = strdup("cc");
	return v.size() != 10 || !keep[0] || !keep[1];
}
CC
mixed_check() {
	(cd "$d" && "$ATCC" -O2 -c lib.c && "$ATCXX" -O2 -c main.cc && "$ATCXX" -O2 -o mixed main.o lib.o) || return 1
	(cd "$d" && ALLOCTAG_REPORT=report ALLOCTAG_FORMAT=full ./mixed) || return 1
	grep -q ' 2 *1 .* lib.c:2:37 func:c_dup callee:strdup' "$d/report" &&
		grep -q ' 3 *1 .* main.cc:11:25 func:main callee:strdup' "$d/report" ||
		{ cat "$d/report"; return 1; }
}
check cxx-driver/mixed-c-and-c++ mixed_check
check cxx-driver/version sh -c "'$ATCXX' --version | grep -q '^$CXX\\|g++'"
# What -E writes compiles to the object the source does.
preprocess_check() {
	(cd "$d" && "$ATCXX" -O2 -E main.cc -o main.ii && "$ATCXX" -O2 -c main.ii -o from-ii.o &&
		"$ATCXX" -O2 -c main.cc -o direct.o) || return 1
	cmp "$d/from-ii.o" "$d/direct.o"
}
check cxx-driver/preprocess-as-compiled preprocess_check
check cxx-driver/not-itself sh -c "! ALLOCTAG_CXX='$ATCXX' '$ATCXX' -c '$d/main.cc' -o /dev/null 2> '$d/err' &&
	grep -q 'alloctag-c++: ALLOCTAG_CXX must name a compiler, not alloctag-c++' '$d/err'"

# A wrapper whose block declares one of each kind: C++ has declarations of no
# type (using std::swap;), which crashed the compiler (a segmentation fault
# in the wrapper scan, found by re2's dfa.cc).  It compiles without a word
# and is still a wrapper: its strdup is charged to main's line.
cat > "$d/decls.cc" <<'CC'
#include <cstdlib>
#include <cstring>
#include <utility>
namespace lib { const int ONE_OF_LIB = 1; }
static char *volatile keep;
/* A wrapper of strdup, with a declaration of each kind in its block. */
static char *dup_swapped(const char *a, const char *b)
{
	using std::swap;
	using namespace lib;
	namespace L = lib;
	typedef const char *str;
	using str2 = const char *;
	struct local { int n; };
	enum { ONE = 1 };
	static_assert(sizeof(local) == sizeof(int), "");
	extern int later(int);
	str x = a;
	str2 y = b;
	swap(x, y);
	auto [p, n] = std::pair<str, int>(x, ONE);
	char *r = strdup(p + n - 1);
	(void)L::ONE_OF_LIB;
	return r;
}
int main()
{
	keep = dup_swapped("one", "three");
	return strcmp(keep, "three") != 0;
}
CC
decls_check() {
	local o
	for o in -O0 -O2; do
		(cd "$d" && "$ATCXX" -std=c++17 -Wall $o -o decls decls.cc 2>decls.err &&
			[ ! -s decls.err ] && ALLOCTAG_REPORT=report ALLOCTAG_FORMAT=full ./decls) ||
			{ cat "$d/decls.err"; return 1; }
		grep -q ' 6 *1 .* decls.cc:28:27 func:main callee:dup_swapped' "$d/report" ||
			{ echo "$o:"; cat "$d/report"; return 1; }
	done
}
check cxx-driver/block-scope-declarations-in-a-wrapper decls_check
fi
