#!/usr/bin/env bash
# A CMake project and a Meson project built with alloctag in the ways
# docs/guide.md gives: the alloctag.pc that make install wrote (pkg_check_modules,
# dependency('alloctag')), and Meson with CC=alloctag-cc.  Each program's
# report names its own lines, the project's allocator tagged by its header.
# Run by testsuite/builds/run (its variables).
set -u
. "$TOP/testsuite/lib.sh"
. "$TOP/testsuite/real/lib.sh"
. "$TOP/testsuite/builds/lib.sh"

W=$BUILDS/projects
rm -rf "$W" && mkdir -p "$W/src"
export PKG_CONFIG_PATH=$STAGE/prefix/lib/pkgconfig

# The project: an allocator of its own, tagged in its header with
# alloctag.h's __alloc_tagged (nothing without the plugin); the project's
# own -include and -isystem beside alloctag's.
cat >"$W/src/pool.h" <<'C'
#include <stddef.h>
#if __has_include(<alloctag.h>)
#include <alloctag.h>
#endif
#ifndef __alloc_tagged
#define __alloc_tagged
#endif
void *pool_get(size_t n) __alloc_tagged;
C
cat >"$W/src/pool.c" <<'C'
#include <stdlib.h>
#include "pool.h"
void *pool_get(size_t n) { return calloc(1, n); }
C
cat >"$W/src/main.c" <<'C'
#include <string.h>
#include "pool.h"
int main(void)
{
	char *name = strdup("project");
	void *a = pool_get(100);
	void *b = pool_get(20);
	return !name || !a || !b;
}
C
printf '#define PROJECT_FORCED 1\n' >"$W/src/forced.h"
# What each report must say: the two pool_get() lines and strdup's.
want_sites="         100        1 main.c:6 func:main 
          20        1 main.c:7 func:main 
           8        1 main.c:5 func:main "

cat >"$W/src/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.13)
project(pooltest C)
find_package(PkgConfig REQUIRED)
pkg_check_modules(ALLOCTAG REQUIRED IMPORTED_TARGET alloctag)
add_executable(pooltest main.c pool.c)
target_compile_options(pooltest PRIVATE -include ${CMAKE_SOURCE_DIR}/forced.h)
target_link_libraries(pooltest PRIVATE PkgConfig::ALLOCTAG)
CMAKE

cat >"$W/src/meson.build" <<'MESON'
project('pooltest', 'c')
alloctag = dependency('alloctag', required : get_option('alloctag'))
executable('pooltest', 'main.c', 'pool.c', dependencies : alloctag,
	   c_args : ['-include', meson.current_source_dir() / 'forced.h'])
MESON
printf "option('alloctag', type : 'feature', value : 'enabled')\n" >"$W/src/meson_options.txt"

# project_report NAME DIR: run DIR/pooltest, its report's sites against
# want_sites; a result line.
project_report() {
	local name=$1 b=$2 got
	if ! (cd "$W/src" && ALLOCTAG_REPORT="$b/report" "$b/pooltest"); then
		fail "$name" "pooltest failed"
		return
	fi
	# (the file as the build system named it: CMake by its path, Meson relative)
	got=$(sed -n '3,$p' "$b/report" | grep -v 'func:untagged' | sed 's| [^ ]*/main\.c:| main.c:|')
	if [ "$got" = "$want_sites" ]; then
		pass "$name"
	else
		fail "$name" "report:" "$(cat "$b/report")" "expected the sites:" "$want_sites"
	fi
}

# project_build NAME DIR COMMAND...: COMMAND (configure and build, in $W/src),
# then project_report.
project_build() {
	local name=$1 b=$2
	shift 2
	rm -rf "$b"
	if ! (cd "$W/src" && "$@") >"$W/$(basename "$b").log" 2>&1; then
		fail "$name" "$(logtail "$W/$(basename "$b").log")"
		return
	fi
	project_report "$name" "$b"
}

project_build "builds/projects: CMake, pkg_check_modules(... alloctag)" "$W/cmake" \
	sh -c "cmake -S . -B '$W/cmake' -DCMAKE_C_COMPILER=$TESTCC && cmake --build '$W/cmake'"
project_build "builds/projects: Meson, dependency('alloctag')" "$W/meson" \
	sh -c "CC=$TESTCC meson setup '$W/meson' && meson compile -C '$W/meson'"
project_build "builds/projects: Meson, CC=alloctag-cc" "$W/meson-cc" \
	sh -c "CC='$ATCC' meson setup -Dalloctag=disabled '$W/meson-cc' && meson compile -C '$W/meson-cc'"
