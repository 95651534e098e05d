# Blocks of the runtime and glibc's are one heap: a library built with
# alloctag-cc -shared works in a process whose malloc is glibc's (a plain
# program linked to it, a plain host that dlopens it, python3 through
# ctypes), and a program built with alloctag-cc frees and reallocates
# blocks glibc made.  In a process whose free() is glibc's, the report says
# so: its totals are exact, its live counts are not (blocks freed through
# glibc stay counted, until glibc gives their memory to a block the runtime
# sees again).
d=$WORK/glibc-blocks
mkdir -p "$d"
cat > "$d/lib.c" <<'C'
#include <stdlib.h>
#include <string.h>
char *lib_make(int i) { char *s = malloc(32 + i); strcpy(s, "x"); return s; }
char *lib_grow(char *s, int n) { return realloc(s, n); }
void lib_free(char *s) { free(s); }
C
cat > "$d/prog.c" <<'C'
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(int argc, char **argv)
{
	char *(*make)(int) = 0, *(*grow)(char *, int) = 0;
	void (*lib_free)(char *) = 0;
	void *lib = dlopen(argv[1], RTLD_NOW);

	if (!lib) { fprintf(stderr, "%s\n", dlerror()); return 2; }
	make = (char *(*)(int))dlsym(lib, "lib_make");
	grow = (char *(*)(char *, int))dlsym(lib, "lib_grow");
	lib_free = (void (*)(char *))dlsym(lib, "lib_free");
	for (int round = 0; round < 3; round++) {
		char *k[8], *g, *m;
		for (int i = 0; i < 8; i++)
			k[i] = make(i * 200);
		for (int i = 0; i < 8; i++)
			free(k[i]);			/* glibc frees the library's blocks */
		g = malloc(50);				/* glibc's block ... */
		strcpy(g, "glibc");
		g = grow(g, 5000);			/* ... reallocated by the runtime */
		if (strcmp(g, "glibc")) return 3;
		lib_free(g);
		m = make(3);
		m = realloc(m, 100000);			/* the library's block, glibc's realloc */
		free(m);
	}
	puts("ok");
	return 0;
}
C
cat > "$d/own.c" <<'C'
/* Built with alloctag-cc: blocks glibc made (through __libc_malloc, as code
 * that bypasses malloc would), freed and reallocated by the runtime. */
#include <malloc.h>
#include <stdio.h>
#include <string.h>
extern void *__libc_malloc(size_t);
int main(void)
{
	for (int i = 0; i < 1000; i++) {
		char *p = __libc_malloc(24 + i % 700);
		strcpy(p, "glibc");
		if (i % 3 == 0) {
			p = realloc(p, 3000);
			if (strcmp(p, "glibc")) return 1;
		}
		if (malloc_usable_size(p) < 24)
			return 2;
		free(p);
	}
	puts("ok");
	return 0;
}
C
# The report of a run in a process whose free() is glibc's: its note, and
# lib.c's lines with their totals (total bytes, total calls, tag info).
plain_host_report() {
	grep -c "^# alloctag: free() in this process is not alloctag's (libc.so.6): " "$1" &&
	grep 'lib.c:' "$1" | tr -s ' ' | sed 's/^ //; s/ $//' | cut -d' ' -f3,4,6-
}
glibc_blocks_check() {
	local want
	cd "$d" && "$ATCC" -O2 -fPIC -shared -o libx.so lib.c &&
		"$TESTCC" -O2 -o prog prog.c -ldl &&
		"$TESTCC" -O2 -o linked prog.c -ldl -L. -lx -Wl,-rpath,'$ORIGIN' &&
		"$ATCC" -O2 -o own own.c || return 1
	# 24 + 3 lib_make calls; 3 lib_grow; none uncharged: glibc freed them.
	want='1
17673 27 lib.c:3:35 [libx.so] func:lib_make callee:malloc
15000 3 lib.c:4:41 [libx.so] func:lib_grow callee:realloc'
	for how in "./prog ./libx.so" "./linked ./libx.so"; do
		out=$(ALLOCTAG_REPORT=report ALLOCTAG_FORMAT=full $how 2>&1) &&
			[ "$out" = ok ] || { echo "$how: $out"; return 1; }
		[ "$(plain_host_report report)" = "$want" ] ||
			{ echo "$how:"; cat report; return 1; }
	done
	out=$(ALLOCTAG_REPORT=off ./own 2>&1) && [ "$out" = ok ] || { echo "own: $out"; return 1; }
}
check glibc-blocks/plain-host glibc_blocks_check

python_check() {
	cd "$d" && "$ATCC" -O2 -fPIC -shared -o libx.so lib.c || return 1
	ALLOCTAG_REPORT=off python3 - <<'PY'
import ctypes
lib = ctypes.CDLL("./libx.so")
libc = ctypes.CDLL(None)
lib.lib_make.restype = ctypes.c_void_p
lib.lib_grow.restype = ctypes.c_void_p
lib.lib_grow.argtypes = [ctypes.c_void_p, ctypes.c_int]
libc.free.argtypes = [ctypes.c_void_p]
libc.malloc.restype = ctypes.c_void_p
for i in range(2000):
    libc.free(lib.lib_make(i % 1500))
    libc.free(lib.lib_grow(libc.malloc(40), 100 + i))
print("ok")
PY
}
if command -v python3 >/dev/null; then
	check glibc-blocks/python3 sh -c "$(declare -f python_check); d='$d' ATCC='$ATCC'; python_check | grep -qx ok"
else
	skip glibc-blocks/python3 "no python3"
fi
