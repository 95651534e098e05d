#!/usr/bin/env bash
# ccache on a real project: jansson built twice in new folders, with ccache
# around alloctag-cc (CMake's compiler launcher; the tags header as an
# option, which ccache sees) and inside it (ALLOCTAG_CC="ccache gcc"): the
# second build is all hits, and both give the local build's objects.  (The
# changes that must miss: make check's testsuite/runtime/ccache.sh.)  Run by
# testsuite/builds/run (its variables).
set -u
. "$TOP/testsuite/lib.sh"
. "$TOP/testsuite/real/lib.sh"
. "$TOP/testsuite/builds/lib.sh"

W=$BUILDS/ccache
rm -rf "$W" && mkdir -p "$W"
export CCACHE_CONFIGPATH=$W/ccache.conf
: >"$CCACHE_CONFIGPATH"

# ccache_jansson WAY LABEL ENV...: two builds in one folder (jansson
# generates a header there, which its sources include), the second all
# hits; its compilations counted apart from CMake's checks (whose sources
# are in new folders each time).
ccache_jansson() {
	local way=$1 name="builds/ccache: jansson, $2" b=$JANSSON/bld-ccache-$1 before counts n
	shift 2
	export CCACHE_DIR=$W/cache-$way
	jansson_build "$b" "$@" ||
		{ fail "$name: first build" "$(logtail "$b/build.log")"; return; }
	jansson_configure "$b" "$@" || { fail "$name: second build" "$(logtail "$b/build.log")"; return; }
	before=$(ccache_counts)
	jansson_make "$b" "$@" || { fail "$name: second build" "$(logtail "$b/build.log")"; return; }
	counts=$(ccache_since "$before")
	n=$(objects "$b" | wc -l)
	if [ "$counts" != "$n 0" ]; then
		fail "$name: rebuild all hits" "hits, misses: $counts, for $n objects"
	else
		pass "$name: rebuild all hits"
		note "$n objects, $n hits"
	fi
	same_build "$name: objects and tags = local build" "$b"
}

JANSSON_CFLAGS=--alloctag-tags=$TOP/testsuite/real/tags/jansson.h \
	ccache_jansson around "ccache alloctag-cc (CMAKE_C_COMPILER_LAUNCHER)" \
	ALLOCTAG_TAGS= CMAKE_C_COMPILER_LAUNCHER=ccache
ccache_jansson inside "ALLOCTAG_CC=\"ccache $TESTCC\"" ALLOCTAG_CC="ccache $TESTCC"
