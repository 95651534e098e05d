# alloctag-cc as a drop-in CC: compile, dependency, assembler, shared-library
# and version invocations pass through correctly (preprocessing and the
# compiler command: cc-command.sh).
d=$WORK/cc
mkdir -p "$d"
printf '#include <stdlib.h>\nint main(void) { free(malloc(3)); return 0; }\n' > "$d/m.c"
printf '\t.text\n\t.globl f\nf:\n#ifdef X\n\tret\n#endif\n' > "$d/a.S"

cc_check() {
	local what=$1
	shift
	(cd "$d" && "$@") > "$d/out" 2>&1 || { echo "$what failed:"; cat "$d/out"; return 1; }
}
check cc/compile-link cc_check link sh -c "'$ATCC' -c m.c -o m.o && '$ATCC' m.o -o m && ALLOCTAG_REPORT=stderr ./m 2>&1 | grep -q 'm.c:2 func:main'"
check cc/deps-MM sh -c "cd '$d' && '$ATCC' -MM m.c | grep -q alloctag && exit 1; '$ATCC' -MM m.c | grep -q '^m.o: m.c'"
check cc/deps-MD sh -c "cd '$d' && '$ATCC' -MMD -MF m.d -c m.c -o m2.o && grep -q '^m2.o: m.c' m.d && ! grep -q alloctag m.d"
check cc/assembler sh -c "cd '$d' && '$ATCC' -DX -c a.S -o a.o && nm a.o | grep -q ' T f'"
check cc/shared sh -c "cd '$d' && '$ATCC' -fPIC -shared -o libm.so m.c && readelf -d libm.so | grep -q 'NEEDED.*liballoctag.so'"
# A shared library that calls nothing of the runtime does not need it (as
# dpkg-shlibdeps says: "a useless dependency"); a program always does.
printf 'int add(int a, int b) { return a + b; }\n' > "$d/add.c"
for flag in -shared --shared; do
	check "cc/$flag, no tagged call: no dependency on liballoctag" sh -c "cd '$d' && '$ATCC' -fPIC $flag -o libadd.so add.c && readelf -d libadd.so | grep -q RUNPATH && ! readelf -d libadd.so | grep -q 'NEEDED.*liballoctag'"
done
# A program that names its own libraries (-nostdlib: no C library, its
# own _start) gets the runtime only if a tagged call needs it; a static one
# is the very program gcc makes (it failed to link, taking libc.a's malloc).
printf 'void _start(void) { __asm__ volatile("mov $60, %%eax; xor %%edi, %%edi; syscall"); }\n' > "$d/fs.c"
freestanding_check() {
	(cd "$d" && "$TESTCC" "$@" -O2 fs.c -o fs-plain && "$ATCC" "$@" -O2 fs.c -o fs && ./fs) || return 1
	case " $* " in
	*static*) cmp "$d/fs-plain" "$d/fs" ;;
	*) ! readelf -d "$d/fs" | grep -q 'NEEDED.*liballoctag' || { echo "needs liballoctag"; return 1; } ;;
	esac
}
for flags in "-nostdlib" "-static -nostdlib" "-static-pie -nostdlib" "-static -nodefaultlibs -nostartfiles"; do
	check "cc/$flags, no tagged call: as gcc makes it" freestanding_check $flags
done
check "cc/program, no tagged call: liballoctag before the C library" sh -c "cd '$d' && printf 'int main(void) { return 0; }\\n' > p.c && '$ATCC' p.c -o p && readelf -d p | sed -n 's/.*NEEDED.*\\[\\(.*\\)\\]/\\1/p' | tr '\\n' ' ' | grep -q '^liballoctag.so libc.so.6 '"
# Another ABI (-m32: a package's 32-bit build beside its 64-bit one): no
# liballoctag of that ABI to link, so made as the compiler makes it,
# untagged, and it runs; gcc's long spellings of -m32 alike.
m32_check() {
	local flag=$1
	(cd "$d" && "$ATCC" "$flag" -O2 m.c -o m32 && ./m32 && "$ATCC" "$flag" -c m.c -o m32.o) || return 1
	! readelf -S "$d/m32" "$d/m32.o" | grep -q alloc_tags || { echo "tagged"; return 1; }
	! readelf -d "$d/m32" | grep -q liballoctag || { echo "linked with liballoctag"; return 1; }
}
m32_links=0
(cd "$d" && "$TESTCC" -m32 m.c -o m32-plain && ./m32-plain) >/dev/null 2>&1 && m32_links=1
for flag in -m32 --machine-32 --machine=32; do
	if [ $m32_links = 1 ]; then
		check "cc/$flag: made as the compiler makes it, untagged" m32_check "$flag"
	else
		skip "cc/$flag: made as the compiler makes it, untagged" "$TESTCC -m32 cannot link here (gcc-multilib)"
	fi
done
# The value of a long option (--output FILE) is not an input: an old .i
# named by --output is not read as a preprocessed input without the tags.
printf 'void *my_alloc(unsigned long) __attribute__((alloc_tagged));\n' > "$d/tags.h"
check "cc/--output FILE is not an input" sh -c "cd '$d' && '$TESTCC' -E m.c -o old.i && ALLOCTAG_TAGS='$d/tags.h' '$ATCC' -E m.c --output old.i && grep -q tags.h old.i"
check cc/version sh -c "'$ATCC' --version | grep -q 'Free Software Foundation'"
check cc/no-input-link-flags sh -c "'$ATCC' -v 2>&1 | grep -q '^gcc version'"
check cc/stdin sh -c "cd '$d' && printf 'int main(void){return 0;}' | '$ATCC' -x c - -o s && ./s"
check cc/static-link sh -c "cd '$d' && ALLOCTAG_LINK=static '$ATCC' m.c -o ms && ! readelf -d ms | grep -q liballoctag && ALLOCTAG_REPORT=stderr ./ms 2>&1 | grep -q 'func:main'"
check cc/unknown-option sh -c "'$ATCC' --alloctag-bogus m.c 2>&1 | grep -q 'alloctag-cc: unknown option --alloctag-bogus'"
# -static (libtool's -all-static), and gcc's other spellings of a static
# link (--static, -static-pie, --static-pie): a static program, its counts
# exact; the link says nothing, as gcc's, so that libtool's probe of the
# flag (any output is a "no") answers as with gcc; nothing left in TMPDIR.
static_check() {
	local flag=$1 out
	mkdir -p "$d/tmp"
	out=$(cd "$d" && TMPDIR="$d/tmp" "$ATCC" "$flag" -O0 m.c -o mstatic 2>&1) && [ -z "$out" ] ||
		{ echo "alloctag-cc $flag: $out"; return 1; }
	[ -z "$(ls -A "$d/tmp")" ] || { echo "left in TMPDIR: $(ls "$d/tmp")"; return 1; }
	readelf -l "$d/mstatic" | grep -q INTERP && { echo "not a static program"; return 1; }
	out=$(cd "$d" && ALLOCTAG_REPORT=stderr ALLOCTAG_FORMAT=full ./mstatic 2>&1)
	echo "$out" | grep -q '^ *0 *0 *3 *1 *3 m.c:2:[0-9]* func:main callee:malloc $' ||
		{ echo "report:"; echo "$out"; return 1; }
}
check cc/static static_check -static
for flag in --static -static-pie --static-pie; do
	check "cc/static as $flag" static_check "$flag"
done
# A partial link (-r, the object of several) takes nothing of the runtime:
# it is the final link's.  Linked in, the program had two and crashed.
partial_check() {
	local out
	(cd "$d" && "$ATCC" -O0 -c m.c -o mr.o && "$ATCC" "$@" mr.o -o partial.o &&
		"$ATCC" partial.o -o mpartial) || return 1
	! nm "$d/partial.o" | grep -q ' T malloc$' || { echo "the runtime is in the object"; return 1; }
	out=$(cd "$d" && ALLOCTAG_REPORT=stderr ALLOCTAG_FORMAT=full ./mpartial 2>&1)
	echo "$out" | grep -q '^ *0 *0 *3 *1 *3 m.c:2:[0-9]* func:main callee:malloc $' ||
		{ echo "report:"; echo "$out"; return 1; }
}
check "cc/-r: a partial link takes nothing of the runtime" partial_check -r
check "cc/-r -static: a partial link takes nothing of the runtime" partial_check -r -static
check cc/missing-tags-header sh -c "cd '$d' && ! ALLOCTAG_TAGS=/nonexistent.h '$ATCC' -c m.c 2> err && grep -q 'cannot read tags header /nonexistent.h' err"

# Only alloctag.h is visible to the programs alloctag-cc builds, installed
# or not: the runtime's own headers (heap.h, format.h, ...) do not shadow a
# program's headers of those names that are found after alloctag-cc's
# -isystem (in the project's own -isystem directory, or the system's).
headers_check() {
	local h n=0 dir
	rm -rf "$d/hdr" && mkdir -p "$d/hdr/sys"
	for h in "$TOP"/runtime/*.h; do
		h=${h##*/}
		[ "$h" = alloctag.h ] && continue
		echo "#define MINE_$n 1" > "$d/hdr/sys/$h"
		printf '#include <%s>\n#ifndef MINE_%d\n#error "%s: not the program'"'"'s"\n#endif\n' \
			"$h" $n "$h" >> "$d/hdr/main.c"
		n=$((n + 1))
	done
	[ $n -gt 4 ] || { echo "only $n private headers in runtime/"; return 1; }
	printf '#include <alloctag.h>\nint main(void) { alloctag_report(); return 0; }\n' >> "$d/hdr/main.c"
	(cd "$d/hdr" && "$ATCC" -Wall -Werror -isystem sys main.c -o main) || return 1
	dir=$(sed -n 's/^includedir=//p' "$ATCC")
	[ "$(ls "$dir")" = alloctag.h ] || { echo "$dir holds:" $(ls "$dir"); return 1; }
}
check cc/only-alloctag-h-visible headers_check

# Installed with INCLUDEDIR=/usr/include (PREFIX=/usr), alloctag-c++ does not
# put /usr/include on -isystem, ahead of libstdc++'s headers: <cstdlib>'s
# #include_next <stdlib.h> would find nothing.
usr_include_check() {
	mkdir -p "$d/usr" && sed 's|^includedir=.*|includedir=/usr/include|' \
		"$(dirname "$ATCC")/alloctag-c++" >"$d/usr/c++" && chmod +x "$d/usr/c++" &&
	printf '#include <cstdlib>\nint main() { return std::abs(0); }\n' >"$d/usr/t.cc" &&
	(cd "$d/usr" && ./c++ -c t.cc -o t.o)
}
check cc/usr-include-not-isystem usr_include_check

# A CMake project with CC=alloctag-cc.
if command -v cmake >/dev/null; then
	mkdir -p "$d/cm"
	printf 'cmake_minimum_required(VERSION 3.13)\nproject(t C)\nadd_executable(t ../m.c)\n' > "$d/cm/CMakeLists.txt"
	check cc/cmake sh -c "cd '$d/cm' && CC='$ATCC' cmake -S . -B b >/dev/null && cmake --build b >/dev/null && ALLOCTAG_REPORT=stderr b/t 2>&1 | grep -q 'm.c:2 func:main'"
else
	skip cc/cmake "no cmake"
fi

# Overhead: at most 16 bytes per live block, measured as glibc's in-use bytes.
cat > "$d/overhead.c" <<'C'
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#define N 100000
static void *b[N];
int main(void)
{
	static const size_t sizes[] = { 1, 8, 24, 40, 100, 1000 };
	for (size_t k = 0; k < sizeof(sizes) / sizeof(*sizes); k++) {
		size_t before = mallinfo2().uordblks;
		for (int i = 0; i < N; i++)
			b[i] = malloc(sizes[k]);
		printf("%zu %zu\n", sizes[k], mallinfo2().uordblks - before);
		for (int i = 0; i < N; i++)
			free(b[i]);
	}
	return 0;
}
C
overhead_check() {
	(cd "$d" && "$TESTCC" -O2 -o plain overhead.c && "$ATCC" -O2 -o tagged overhead.c) || return 1
	ALLOCTAG_REPORT=off "$d/tagged" > "$d/tagged.txt" && "$d/plain" > "$d/plain.txt" || return 1
	join "$d/plain.txt" "$d/tagged.txt" | while read -r size plain tagged; do
		echo "size $size: $((plain / 100000)) bytes a block plain, $((tagged / 100000)) with alloctag"
		# (slack: the rest of the last 16 KiB chunk the cache carved for
		# the class, cached, counts as in use; and a page of the heap's own)
		[ $((tagged - plain)) -le $((16 * 100000 + 16384 + 4096)) ] || { echo "more than 16 bytes a block"; return 1; }
	done
}
check cc/overhead-16-bytes overhead_check
