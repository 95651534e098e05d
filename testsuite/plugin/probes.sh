# configure's and CMake's probes give the same answers with alloctag-cc as
# with the compiler itself, for every function the runtime tags (autoconf's
# AC_CHECK_FUNCS compiles "char strdup ();", CMake's check_function_exists
# "char strdup(void);": a redeclaration of either kind once made them fail),
# and for headers, declarations and types.  Needs autoconf and cmake
# (installed with apt-get where missing, or skipped).
d=$WORK/probes
rm -rf "$d" && mkdir -p "$d"
funcs=$(sed 's/#.*//; s/:.*//' "$TOP/runtime/alloctag-libc.tags" | tr -s ' \n' ' ')
funcs="$funcs free malloc_usable_size strlcpy"	# and one glibc 2.36 lacks

cat > "$d/configure.ac" <<EOF
AC_INIT([probes], [1])
AC_PROG_CC
AC_CONFIG_HEADERS([config.h])
AC_CHECK_FUNCS([$funcs])
AC_CHECK_HEADERS([malloc.h stdlib.h alloca.h])
AC_CHECK_DECLS([strdup, getline, reallocarray], [], [], [[#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <stdio.h>]])
AC_CHECK_TYPES([ssize_t, max_align_t])
AC_FUNC_MALLOC
AC_FUNC_REALLOC
AC_OUTPUT
EOF

cat > "$d/CMakeLists.txt" <<EOF
cmake_minimum_required(VERSION 3.13)
project(probes C)
include(CheckFunctionExists)
include(CheckSymbolExists)
include(CheckIncludeFile)
include(CheckTypeSize)
foreach(f $funcs)
	string(TOUPPER "HAVE_\${f}" var)
	check_function_exists(\${f} \${var})
	string(APPEND defs "#cmakedefine \${var}\n")
endforeach()
check_symbol_exists(strdup "string.h" HAVE_DECL_STRDUP)
check_include_file(malloc.h HAVE_MALLOC_H)
check_type_size(ssize_t SSIZE_T)
string(APPEND defs "#cmakedefine HAVE_DECL_STRDUP\n#cmakedefine HAVE_MALLOC_H\n#define SSIZE_T @SSIZE_T@\n")
file(WRITE \${CMAKE_BINARY_DIR}/config.h.in "\${defs}")
configure_file(\${CMAKE_BINARY_DIR}/config.h.in \${CMAKE_BINARY_DIR}/config.h)
EOF

# probe_both NAME COMMAND: COMMAND (in a folder of its own, CC set) with the
# compiler and with alloctag-cc; their config.h must be the same, and
# define HAVE_STRDUP and HAVE_GETLINE (or the comparison proves nothing).
probe_both() {
	local name=$1 build cc out
	shift
	for build in plain tagged; do
		cc=$TESTCC
		[ $build = tagged ] && cc=$ATCC
		rm -rf "$d/$name-$build" && mkdir "$d/$name-$build"
		if ! out=$(cd "$d/$name-$build" && CC=$cc "$@" 2>&1); then
			fail "probes/$name" "with $cc:" "$out"
			return
		fi
	done
	local plain=$d/$name-plain/config.h tagged=$d/$name-tagged/config.h
	if ! grep -Eq '^#define HAVE_STRDUP( 1)?$' "$plain" || ! grep -Eq '^#define HAVE_GETLINE( 1)?$' "$plain"; then
		fail "probes/$name" "the compiler itself found no strdup or getline:" "$(cat "$plain")"
	elif ! cmp -s "$plain" "$tagged"; then
		fail "probes/$name" "config.h differs:" "$(diff "$plain" "$tagged")"
	else
		pass "probes/$name"
	fi
}

if ! ensure_deps autoconf cmake; then
	skip probes/all "no autoconf or cmake: $DEPS_OUT"
else
	# AC_FUNC_MALLOC wants the host type: autoconf's own config.guess.
	if (cd "$d" && cp /usr/share/autoconf/build-aux/config.guess \
			/usr/share/autoconf/build-aux/config.sub . && autoheader && autoconf) >"$d/autoconf.log" 2>&1; then
		probe_both autoconf sh -c "'$d/configure' >configure.log"
	else
		fail probes/autoconf "$(cat "$d/autoconf.log")"
	fi
	probe_both cmake sh -c "cmake '$d' >cmake.log"
fi
