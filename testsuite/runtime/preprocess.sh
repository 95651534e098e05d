# alloctag-cc -E and alloctag-c++ -E print what gcc and g++ print, with and
# without -P, for any -x language, lines that begin with '#' aside: the
# drivers add options to the command line, no text to the unit (the plugin
# declares the runtime).  Compared over the sources of this repository
# that plain gcc preprocesses (those that include alloctag.h or name
# __alloc_tagged are alloctag's own: they differ, as they should), as C and
# as C++; through gnulib's gl_CC_GNULIB_WARNINGS probe, which takes every
# word -E prints as an option; for a linker version script made with
# -E -P -x c, and for assembler-with-cpp.  What -E writes still compiles
# tagged: a program built from the .i (.ii) reports the source's lines.
CXX=${TESTCC/gcc/g++}
ATCXX=${ATCC%/*}/alloctag-c++
d=$WORK/preprocess
rm -rf "$d" && mkdir -p "$d"

# text_of COMPILER ARGS...: what -E prints, '#' lines aside, and its status.
text_of() {
	"$@" 2>/dev/null | grep -v '^#'
	echo "status ${PIPESTATUS[0]}"
}

# same_text PLAIN DRIVER ARGS...: PLAIN and DRIVER print the same, in the
# folder of the last argument (a source's own includes are found from it).
same_text() {
	local plain=$1 driver=$2 dir
	shift 2
	dir=$(dirname "${@: -1}")
	diff <(cd "$dir" && text_of "$plain" "$@") <(cd "$dir" && text_of "$driver" "$@") > "$d/diff" &&
		return 0
	echo "$driver $* prints another text than $plain:"
	head -n 20 "$d/diff"
	return 1
}

# The sources plain gcc preprocesses that are not alloctag's own: no
# __alloc_tagged written, and alloctag.h not included (it defines the
# macro; plain gcc finds it beside runtime/'s sources).
ordinary_sources() {
	local f
	for f in $(find "$TOP/testsuite" "$TOP/runtime" "$TOP/tool" "$TOP/examples" \
			-path "$TOP/testsuite/work" -prune -o -name '*.c' -print | sort); do
		grep -q '__alloc_tagged' "$f" && continue
		(cd "$(dirname "$f")" && "$TESTCC" -E -dD "$f" 2>/dev/null) |
			grep -q '^#define __alloc_tagged' && continue
		(cd "$(dirname "$f")" && "$TESTCC" -E "$f" >/dev/null 2>&1) && echo "$f"
	done
}
ordinary_sources > "$d/sources"

# sources_check PLAIN DRIVER [-x LANG]: every source, with and without -P,
# and with -O2 (which glibc's headers test); at least 20 of them.
sources_check() {
	local plain=$1 driver=$2 f n=0 o
	shift 2
	while read -r f; do
		for o in "" -P "-O2 -P"; do
			same_text "$plain" "$driver" -E $o "$@" "$f" || return 1
		done
		n=$((n + 1))
	done < "$d/sources"
	[ $n -ge 20 ] || { echo "only $n sources compared"; return 1; }
}
check preprocess/c-sources sources_check "$TESTCC" "$ATCC"

cxx_sources_check() {
	local o
	for o in "" -P; do
		same_text "$CXX" "$ATCXX" -E $o "$TOP/testsuite/plugin/warnings/cases.cc" || return 1
	done
	sources_check "$CXX" "$ATCXX" -x c++
}
if command -v "$CXX" >/dev/null; then
	check preprocess/c++-sources cxx_sources_check
else
	skip preprocess/c++-sources "no $CXX, the g++ of $TESTCC"
fi

# gnulib-common.m4's gl_CC_GNULIB_WARNINGS: CC's -E output, lines with a '#'
# dropped, each word an option for every later compilation.
gnulib_words() {
	local CC=$1 CFLAGS="-O2 -g" CPPFLAGS= gl_command gl_options word words=
	cat > conftest.c <<'EOF'
      #if __GNUC__ >= 3 || (__clang_major__ + (__clang_minor__ >= 9) > 3)
      -Wno-cast-qual
      -Wno-conversion
      -Wno-float-equal
      -Wno-sign-compare
      -Wno-undef
      -Wno-unused-function
      -Wno-unused-parameter
      #endif
      #if __GNUC__ + (__GNUC_MINOR__ >= 9) > 4 || (__clang_major__ + (__clang_minor__ >= 9) > 3)
      -Wno-float-conversion
      #endif
      #if __GNUC__ >= 7 || (__clang_major__ + (__clang_minor__ >= 9) > 3)
      -Wimplicit-fallthrough
      #endif
      #if __GNUC__ + (__GNUC_MINOR__ >= 8) > 4 || (__clang_major__ + (__clang_minor__ >= 9) > 3)
      -Wno-pedantic
      #endif
      #if __GNUC__ + (__GNUC_MINOR__ >= 3) > 4 || (__clang_major__ + (__clang_minor__ >= 9) > 3)
      -Wno-sign-conversion
      -Wno-type-limits
      #endif
      #if __GNUC__ + (__GNUC_MINOR__ >= 5) > 4
      -Wno-unsuffixed-float-constants
      #endif
EOF
	gl_command="$CC $CFLAGS $CPPFLAGS -E conftest.c > conftest.out"
	if eval "$gl_command"; then
		gl_options=$(grep -v '#' conftest.out)
		for word in $gl_options; do
			words="$words $word"
		done
	fi
	rm -f conftest.c conftest.out
	echo "$words"
}

# The same words, every one an option the build then compiles with.
gnulib_check() {
	local plain tagged
	plain=$(cd "$d" && gnulib_words "$TESTCC") && tagged=$(cd "$d" && gnulib_words "$ATCC") || return 1
	[ "$plain" = "$tagged" ] || { echo "gcc: $plain"; echo "alloctag-cc: $tagged"; return 1; }
	case " $tagged " in *" -Wno-cast-qual "*) ;; *) echo "no -Wno-cast-qual in: $tagged"; return 1 ;; esac
	printf '#include <stdlib.h>\nint main(void) { free(malloc(1)); return 0; }\n' > "$d/gl.c"
	(cd "$d" && "$ATCC" $tagged -c gl.c -o gl.o)
}
check preprocess/gnulib-warnings gnulib_check

# A linker version script, preprocessed as C (libtool projects do it):
# the same script, which ld takes.
version_script_check() {
	cat > "$d/foo.sym" <<'EOF'
/* The exported symbols: alloctag-cc -E -P -x c foo.sym > foo.map */
#define VERSION LIBFOO_1.0
VERSION {
  global:
    foo;
#ifdef WITH_BAR
    bar;
#endif
  local: *;
};
EOF
	printf 'int foo(void) { return 1; }\nint bar(void) { return 2; }\nint baz(void) { return 3; }\n' > "$d/foo.c"
	same_text "$TESTCC" "$ATCC" -E -P -x c -DWITH_BAR "$d/foo.sym" || return 1
	(cd "$d" && "$ATCC" -E -P -x c -DWITH_BAR foo.sym > foo.map &&
		"$ATCC" -fPIC -shared -Wl,--version-script=foo.map -o libfoo.so foo.c) || return 1
	readelf --dyn-syms -W "$d/libfoo.so" | grep -q ' bar@@LIBFOO_1.0' &&
		! readelf --dyn-syms -W "$d/libfoo.so" | grep -q ' baz' ||
		{ readelf --dyn-syms -W "$d/libfoo.so"; return 1; }
}
check preprocess/version-script version_script_check

assembler_check() {
	printf '#define RET ret\n\t.text\n\t.globl f\nf:\n#ifdef X\n\tRET\n#endif\n' > "$d/a.asm"
	same_text "$TESTCC" "$ATCC" -E -x assembler-with-cpp -DX "$d/a.asm" &&
		same_text "$TESTCC" "$ATCC" -E -P -x assembler-with-cpp -DX "$d/a.asm" &&
		(cd "$d" && "$ATCC" -x assembler-with-cpp -DX -c a.asm -o a.o) &&
		nm "$d/a.o" | grep -q ' T f'
}
check preprocess/assembler-with-cpp assembler_check

# preprocessed_tagged DRIVER SOURCE LINE: SOURCE preprocessed by DRIVER -E,
# the output compiled and linked by DRIVER: its tag section is there and
# the report names SOURCE:LINE.
preprocessed_tagged() {
	local driver=$1 src=$2 line=$3 out=${2%.*}
	(cd "$d" && "$driver" -O2 -E "$src" -o "$out.pp" &&
		"$driver" -O2 -x "$([ "$driver" = "$ATCC" ] && echo cpp-output || echo c++-cpp-output)" \
			-c "$out.pp" -o "$out.o" && "$driver" -o "$out" "$out.o") || return 1
	objdump -h "$d/$out.o" | grep -q ' alloc_tags ' || { echo "no alloc_tags in $out.o"; return 1; }
	(cd "$d" && ALLOCTAG_REPORT=report ./"$out") || return 1
	grep -q " $src:$line func:main" "$d/report" || { cat "$d/report"; return 1; }
}
printf '#include <stdlib.h>\n#include <string.h>\nchar *volatile keep;\nint main(void) { keep = strdup("x"); return !keep; }\n' > "$d/m.c"
check preprocess/i-compiles-tagged preprocessed_tagged "$ATCC" m.c 4
if command -v "$CXX" >/dev/null; then
	printf '#include <cstring>\n#include <string>\nchar *volatile keep;\nint main() { std::string s(40, 0);\n\tkeep = strdup("x"); return !keep; }\n' > "$d/mm.cc"
	check preprocess/ii-compiles-tagged preprocessed_tagged "$ATCXX" mm.cc 5
else
	skip preprocess/ii-compiles-tagged "no $CXX, the g++ of $TESTCC"
fi
