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
fi
