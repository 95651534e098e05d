# Loaded into g++: C++ compiles as without the plugin, calls to extern "C"
# tagged functions are tagged (templates: one tag per instantiation, as a
# static in a template would be), exceptions pass through tagged calls (the
# tag is not restored on that path, as with the kernel macro: the test resets it).
# The g++ of the compiler under test (gcc-14: g++-14): the plugin loads
# into its own GCC only.
gxx=$(echo "$TESTCC" | sed 's/gcc/g++/')
if [ "$gxx" = "$TESTCC" ] || ! command -v "$gxx" >/dev/null; then
	skip cxx/all "no $gxx, the g++ of $TESTCC"
else
cat > "$WORK/plain.cc" <<'CC'
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>
template <class T> struct box { T v; virtual ~box() {} };
int f(int n) {
	std::map<std::string, std::vector<int>> m;
	auto p = std::make_unique<box<int>>();
	try { if (n) throw std::runtime_error("x"); } catch (const std::exception &e) { n += e.what()[0]; }
	m["a"].push_back(n);
	return m.size() + p->v + [n](int k) { return n * k; }(2);
}
CC
	same=1
	for opt in -O0 -O2; do
		"$gxx" $opt -c -o "$WORK/plain$opt.o" "$WORK/plain.cc" &&
		"$gxx" $opt -fplugin="$PLUGIN" -c -o "$WORK/plugin$opt.o" "$WORK/plain.cc" &&
		cmp -s "$WORK/plain$opt.o" "$WORK/plugin$opt.o" || same=0
	done
	[ $same = 1 ] && pass cxx/unchanged || fail cxx/unchanged "g++ output differs with the plugin loaded"

cat > "$WORK/tagged.cc" <<'CC'
#include <alloctag.h>
#include <cstdio>
#include <stdexcept>
__thread alloc_tag *alloctag_current;
extern "C" int c_count(int n) __alloc_tagged;
static int hits;
extern "C" int c_count_noprof(int n) {
	if (alloctag_current) hits++;
	if (n < 0) throw std::runtime_error("negative");
	return n;
}
template <class T> int twice(T x) { return c_count(int(x)) * 2; }
extern struct alloc_tag __start_alloc_tags[], __stop_alloc_tags[];
int main() {
	int n = c_count(1);
	try { c_count(-1); } catch (const std::exception &) { alloctag_current = 0; n++; }
	n += twice(1) + twice(2L) + [] { return c_count(3); }();
	for (alloc_tag *t = __start_alloc_tags; t < __stop_alloc_tags; t++)
		printf("%u %s\n", t->ct.lineno, t->ct.function);
	printf("hits=%d n=%d\n", hits, n);
}
CC
	out=$(cd "$WORK" && "$gxx" -O2 -fplugin="$PLUGIN" -I"$TOP/runtime" -o tagged tagged.cc 2>&1 && ./tagged | sort)
	want=$(printf '%s\n' "12 twice" "12 twice" "15 main" "16 main" "17 operator()" "hits=5 n=11" | sort)
	[ "$out" = "$want" ] && pass cxx/tagged || fail cxx/tagged "$out"

	out=$(printf '%s\n' '#include <alloctag.h>' 'void *g(int) __alloc_tagged;' 'void *h() { return g(1); }' |
		"$gxx" -fplugin="$PLUGIN" -I"$TOP/runtime" -fdiagnostics-plain-output -x c++ -c -o /dev/null - 2>&1)
	echo "$out" | grep -q "error: declare the untagged variant 'g_noprof' of 'void\* g(int)': it cannot be derived for a function without C linkage" &&
		pass cxx/mangled-needs-variant || fail cxx/mangled-needs-variant "$out"
fi
