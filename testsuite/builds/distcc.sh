#!/usr/bin/env bash
# distcc: jansson built through a distccd listening on 127.0.0.1 only
# (started and stopped here, in a network namespace of its own where the
# machine allows), with ALLOCTAG_CC=distcc: every compilation is accepted by
# the build host and its object is the local build's, byte for byte, with
# the same tags; the test programs write the same reports.  A job that
# would come back untagged fails.  Run by testsuite/builds/run (its
# variables), as root: distccd runs as its own user (distccd), which reads
# alloctag's installation in $STAGE.
set -u
. "$TOP/testsuite/lib.sh"
. "$TOP/testsuite/real/lib.sh"
. "$TOP/testsuite/builds/lib.sh"
trap stop_daemons EXIT
trap 'exit 1' INT TERM HUP PIPE

W=$BUILDS/distcc
PORT=${DISTCC_TEST_PORT:-3632}
rm -rf "$W" "$STAGE/distcc" && mkdir -p "$W" "$STAGE/distcc"

# The build host's side, as docs/guide.md says: alloctag installed, its alloctag-cc
# whitelisted.  DISTCC_CMDLIST (instead of a link in /usr/lib/distcc, which
# would change this machine) names the installed alloctag-cc by its path.
echo "$STAGE/prefix/bin/alloctag-cc" >"$STAGE/distcc/commands"
: >"$STAGE/distcc/distccd.log"
chown distccd "$STAGE/distcc/distccd.log"
chmod -R a+rX "$STAGE"
start_daemon "$W/distccd.out" env DISTCC_CMDLIST="$STAGE/distcc/commands" DISTCC_CMDLIST_NUMWORDS=1 \
	distccd --daemon --no-detach --listen 127.0.0.1 --port "$PORT" --allow 127.0.0.1 \
	--user distccd --jobs 2 --log-file "$STAGE/distcc/distccd.log" --log-level info
DLOG=$STAGE/distcc/distccd.log

# The client: only that host, no fallback to compiling here, no retry here
# after a failure there (each would hide a job the host did not compile).
export DISTCC_HOSTS="127.0.0.1:$PORT/2" DISTCC_FALLBACK=0 DISTCC_SKIP_LOCAL_RETRY=1
export DISTCC_DIR=$W/distcc-dir
mkdir -p "$DISTCC_DIR"

# compiled_remotely DIR: every object of DIR's build has a COMPILE_OK line
# of its source in distccd's log.
compiled_remotely() {
	local missing
	missing=$(not_in_log "$1" "$DLOG" "COMPILE_OK ")
	[ -z "$missing" ] || { echo "not compiled by distccd:" $missing; return 1; }
}

distcc_jansson() {
	local name="builds/distcc: jansson, ALLOCTAG_CC=distcc" b=$JANSSON/bld-distcc
	if ! jansson_build "$b" ALLOCTAG_CC=distcc; then
		fail "$name: build" "$(logtail "$b/build.log")" "$(logtail "$DLOG")"
		return
	fi
	if ! out=$(compiled_remotely "$b"); then
		fail "$name: build" "$out" "$(logtail "$DLOG")"
		return
	fi
	pass "$name: build"
	note "$(grep -c COMPILE_OK "$DLOG") compilations by distccd (CMake's checks included), each of the $(objects "$b" | wc -l) objects among them"
	same_build "$name: objects and tags = local build" "$b" columns
	same_reports "$name: reports = local build" "$b"
}

# compiled_since N: how many compilations distccd logged beyond N.  It logs
# one after it has sent the object back, so the client may be done first:
# waited for, up to 10 s, until there is one.
compiled_since() {
	local n tries=50
	while n=$(grep -c COMPILE_OK "$DLOG"; true) && [ "$n" -le "$1" ] && [ $((tries -= 1)) -gt 0 ]; do
		sleep 0.2
	done
	echo $((n - $1))
}

# distcc in front: CC="distcc alloctag-cc", alloctag-cc found in PATH.
distcc_in_front() {
	local name='builds/distcc: CC="distcc alloctag-cc"' before compiled
	mkdir -p "$W/front"
	printf '#include <string.h>\nchar *f(const char *s) { return strdup(s); }\n' >"$W/front/f.c"
	before=$(grep -c COMPILE_OK "$DLOG")
	(cd "$W/front" && "$ATCC" -O2 -c f.c -o ref.o)
	if ! (cd "$W/front" && PATH="${ATCC%/*}:$PATH" distcc alloctag-cc -O2 -c f.c -o f.o) \
			>"$W/front/out" 2>&1; then
		fail "$name" "$(cat "$W/front/out")"
		return
	fi
	compiled=$(compiled_since "$before")
	if [ "$compiled" != 1 ] || ! cmp -s "$W/front/f.o" "$W/front/ref.o"; then
		fail "$name" "distccd compiled $compiled (1 expected), or not the local object"
	else
		pass "$name"
	fi
}

# A client whose "alloctag-cc" is plain gcc (an -E that knows nothing of
# alloctag): the host's plugin declares the runtime, so its .i compiles
# tagged there, into the object the local alloctag-cc makes.
distcc_plain_client() {
	local name="builds/distcc: a .i from plain gcc -E compiles tagged" before compiled
	mkdir -p "$W/old/bin"
	printf '#!/bin/sh\nexec %s "$@"\n' "$TESTCC" >"$W/old/bin/alloctag-cc"
	chmod 755 "$W/old/bin/alloctag-cc"
	printf '#include <stdlib.h>\nint main(void) { return !malloc(1); }\n' >"$W/old/m.c"
	(cd "$W/old" && "$ATCC" -c m.c -o ref.o)
	before=$(grep -c COMPILE_OK "$DLOG")
	if ! (cd "$W/old" && PATH="$W/old/bin:$PATH" distcc alloctag-cc -c m.c -o m.o) >"$W/old/out" 2>&1; then
		fail "$name" "$(cat "$W/old/out")"
		return
	fi
	compiled=$(compiled_since "$before")
	if [ "$compiled" != 1 ] || ! cmp -s "$W/old/m.o" "$W/old/ref.o"; then
		fail "$name" "distccd compiled $compiled (1 expected), or not the local object" \
			"$(nm "$W/old/m.o" | grep -i 'alloc')"
	else
		pass "$name"
	fi
}

# ccache around alloctag-cc, distcc inside: the first compilation goes to
# the host, the second is ccache's.
distcc_under_ccache() {
	local name="builds/distcc: ccache alloctag-cc, ALLOCTAG_CC=distcc" before compiled
	mkdir -p "$W/ccache"
	printf '#include <string.h>\nchar *f(const char *s) { return strdup(s); }\n' >"$W/ccache/f.c"
	export CCACHE_DIR=$W/ccache/cache CCACHE_CONFIGPATH=$W/ccache/ccache.conf
	: >"$CCACHE_CONFIGPATH"
	before=$(grep -c COMPILE_OK "$DLOG")
	if ! (cd "$W/ccache" && ALLOCTAG_CC=distcc ccache "$ATCC" -O2 -c f.c -o f1.o &&
	      ALLOCTAG_CC=distcc ccache "$ATCC" -O2 -c f.c -o f2.o) >"$W/ccache/out" 2>&1; then
		fail "$name" "$(cat "$W/ccache/out")"
		return
	fi
	compiled=$(compiled_since "$before")
	(cd "$W/ccache" && "$ATCC" -O2 -c f.c -o ref.o)
	if [ "$compiled" != 1 ] || ! cmp -s "$W/ccache/f1.o" "$W/ccache/ref.o" ||
	   ! cmp -s "$W/ccache/f2.o" "$W/ccache/ref.o"; then
		fail "$name" "distccd compiled $compiled (1 expected); objects:" \
			"$(cmp "$W/ccache/f1.o" "$W/ccache/ref.o"; cmp "$W/ccache/f2.o" "$W/ccache/ref.o")"
		return
	fi
	pass "$name"
	note "first compilation on the host, second a ccache hit: $(ccache --print-stats | awk '$1 ~ /_cache_hit$/ { h += $2 } END { print h + 0 }') hit"
	unset CCACHE_DIR CCACHE_CONFIGPATH
}

if ! wait_for "$DLOG" "listening on 127.0.0.1:$PORT"; then
	fail "builds/distcc: distccd on 127.0.0.1:$PORT" "$(cat "$W/distccd.out")" "$(logtail "$DLOG")"
	exit 0
fi
distcc_jansson
distcc_in_front
distcc_plain_client
distcc_under_ccache
