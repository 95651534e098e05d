# alloctag-cc's compiler command and preprocessing (runtime/alloctag-driver.sh):
# ALLOCTAG_CC is a command with arguments, split at blanks; no word of it may
# be the driver; with distcc first, a compilation goes to distcc as
# "alloctag-cc ARGS"; -E writes what the compiler reads, and a .i compiles
# as its source, with the tags headers it must hold; settings an outer ccache
# cannot see are refused.
d=$WORK/cc-command
rm -rf "$d" && mkdir -p "$d/bin"
# (strdup's block escapes: GCC 15 deletes one that is only freed.)
printf '#include <stdlib.h>\n#include <string.h>\nchar *volatile keep;\nint main(void) { free(keep = strdup("x")); return 0; }\n' > "$d/m.c"

# bin/wrap: a wrapper like ccache: writes its arguments (one a line) and
# ALLOCTAG_CC to wrap.log, then runs the command its arguments are, less
# the leading --flag and * words.
cat > "$d/bin/wrap" <<'SH'
#!/bin/sh
log=${0%/bin/*}/wrap.log
printf '%s\n' "$@" > "$log"
echo "ALLOCTAG_CC=${ALLOCTAG_CC-(unset)}" >> "$log"
while [ "$1" = --flag ] || [ "$1" = '*' ]; do shift; done
exec "$@"
SH
# bin/distcc: does what distcc does with "distcc alloctag-cc -c m.c -o m.o"
# when no build host takes the job: runs it here.  Logs like wrap.
sed 's|wrap.log|distcc.log|' "$d/bin/wrap" > "$d/bin/distcc"
chmod 755 "$d/bin/wrap" "$d/bin/distcc"

# in_d COMMAND...: COMMAND in $d, its output in $d/out.
in_d() {
	(cd "$d" && "$@") > "$d/out" 2>&1
}

# expect_refusal MESSAGE COMMAND...: COMMAND exits with 2 and says MESSAGE.
expect_refusal() {
	local want=$1 rc
	shift
	in_d "$@"
	rc=$?
	[ $rc = 2 ] && [ "$(cat "$d/out")" = "$want" ] && return 0
	echo "exit $rc, said:"
	cat "$d/out"
	echo "instead of:"
	echo "$want"
	return 1
}

# The words of ALLOCTAG_CC are the command, options of the wrapper included;
# a word like * is not a pattern.  The object is the one gcc makes.
split_check() {
	local want
	in_d "$ATCC" -c m.c -o plain.o || { cat "$d/out"; return 1; }
	in_d env ALLOCTAG_CC="$d/bin/wrap --flag * $TESTCC" "$ATCC" -O1 -c m.c -o m.o ||
		{ cat "$d/out"; return 1; }
	want="--flag
*
$TESTCC
-fplugin=$PLUGIN
-fplugin-arg-alloctag-tag=$(sed -n 's/^libc_functions=//p' "$ATCC")
-fplugin-arg-alloctag-runtime=outermost
-fplugin-arg-alloctag-auto
-isystem
$(sed -n 's/^includedir=//p' "$ATCC")
-D__alloc_tagged=__attribute__((__alloc_tagged__))
-D__alloc_tagged_as(variant)=__attribute__((__alloc_tagged__(variant)))
-O1
-c
m.c
-o
m.o
ALLOCTAG_CC=$d/bin/wrap --flag * $TESTCC"
	[ "$(cat "$d/wrap.log")" = "$want" ] ||
		{ diff <(echo "$want") "$d/wrap.log"; return 1; }
	in_d "$ATCC" -O1 -c m.c -o direct.o && cmp -s "$d/m.o" "$d/direct.o" ||
		{ echo "not the object alloctag-cc makes without the wrapper"; return 1; }
	nm "$d/m.o" | grep -q ' U strdup_noprof$' || { echo "strdup not tagged"; return 1; }
}
check cc-command/split split_check

# A tab between the words, or blanks around them, split as well.
check cc-command/split-blanks in_d env ALLOCTAG_CC="	$d/bin/wrap   $TESTCC " "$ATCC" -c m.c -o m.o

refusal_checks() {
	local msg="alloctag-cc: ALLOCTAG_CC must name a compiler, not alloctag-cc"
	msg="$msg (\"ccache $ATCC\"); to put a wrapper around alloctag-cc, write it first: CC=\"ccache alloctag-cc\""
	expect_refusal "$msg" env ALLOCTAG_CC="ccache $ATCC" "$ATCC" -c m.c || return 1
	msg="alloctag-cc: ALLOCTAG_CC must name a compiler, not alloctag-cc (\"alloctag-cc\");"
	msg="$msg to put a wrapper around alloctag-cc, write it first: CC=\"ccache alloctag-cc\""
	expect_refusal "$msg" env ALLOCTAG_CC=alloctag-cc "$ATCC" -c m.c || return 1
	expect_refusal 'alloctag-cc: ALLOCTAG_CC is blank: name a compiler (gcc, "ccache gcc")' \
		env ALLOCTAG_CC="   " "$ATCC" -c m.c || return 1
	expect_refusal 'alloctag-cc: ALLOCTAG_CC: no-such-cc: command not found' \
		env ALLOCTAG_CC="no-such-cc -O2" "$ATCC" -c m.c
}
check cc-command/recursion-blank-missing-refused refusal_checks

# alloctag-cc first in PATH under its compiler's name (as ccache
# masquerades; a build that runs "gcc", or its CC without ALLOCTAG_CC) finds
# itself when it runs the compiler: that one passes the outer one's command
# on, unchanged, to the next of the name in PATH, as ccache skips itself;
# twice in PATH, twice; through a wrapper that runs it as a child, too.
# The object is the one alloctag-cc makes.  A setting of an outer driver
# left in the environment by a process this one does not run under is not
# a nesting: the driver compiles tagged.  A
# compiler named by its path, or a name with nothing after it in PATH, that
# leads back to the driver stops in one line.  A compiler with options after
# it ("gcc -std=gnu99", as configure's CC) is the compiler run.
in_path_check() {
	local real msg dir
	real=$(command -v "$TESTCC")
	for dir in first second; do
		mkdir -p "$d/$dir"
		printf '#!/bin/sh\nexec %s "$@"\n' "$ATCC" > "$d/$dir/$TESTCC"
		cp "$d/$dir/$TESTCC" "$d/$dir/at-no-cc"
		chmod 755 "$d/$dir/$TESTCC" "$d/$dir/at-no-cc"
	done
	in_d "$ATCC" -c m.c -o plain.o || { cat "$d/out"; return 1; }
	in_d env PATH="$d/first:$PATH" ALLOCTAG_CC_VERBOSE=1 timeout 60 "$TESTCC" -c m.c -o m.o &&
		cmp -s "$d/m.o" "$d/plain.o" && grep -c -e '-fplugin=' "$d/out" | grep -qx 2 &&
		grep -qx "alloctag-cc: $TESTCC is alloctag-cc again, passed on: $real -fplugin=.* -c m.c -o m.o" "$d/out" ||
		{ echo "first in PATH:"; cat "$d/out"; return 1; }
	in_d env PATH="$d/first:$d/second:$PATH" ALLOCTAG_CC_VERBOSE=1 timeout 60 "$TESTCC" -c m.c -o m.o &&
		cmp -s "$d/m.o" "$d/plain.o" && grep -c ' again, passed on: ' "$d/out" | grep -qx 2 ||
		{ echo "twice in PATH:"; cat "$d/out"; return 1; }
	in_d env PATH="$d/first:$PATH" ALLOCTAG_CC="$TESTCC" ALLOCTAG_CC_VERBOSE=1 timeout 60 "$ATCC" \
		-c m.c -o m.o && cmp -s "$d/m.o" "$d/plain.o" ||
		{ echo "ALLOCTAG_CC=$TESTCC:"; cat "$d/out"; return 1; }
	mkdir -p "$d/child"
	printf '#!/bin/sh\n%s "$@"\nexit $?\n' "$ATCC" > "$d/child/$TESTCC"
	chmod 755 "$d/child/$TESTCC"
	in_d env PATH="$d/child:$PATH" timeout 60 "$TESTCC" -c m.c -o m.o &&
		cmp -s "$d/m.o" "$d/plain.o" || { echo "run as a child:"; cat "$d/out"; return 1; }
	in_d env ALLOCTAG_DRIVER="$(sh -c 'echo $$')":1:ALLOCTAG_CC=gcc timeout 60 "$ATCC" -c m.c -o m.o &&
		cmp -s "$d/m.o" "$d/plain.o" || { echo "a setting left by a process gone:"; cat "$d/out"; return 1; }
	msg="alloctag-cc: ALLOCTAG_CC=\"$d/first/$TESTCC\" runs alloctag-cc again:"
	msg="$msg name a compiler, not a program that runs alloctag-cc"
	expect_refusal "$msg" env ALLOCTAG_CC="$d/first/$TESTCC" timeout 60 "$ATCC" -c m.c || return 1
	msg="alloctag-cc: ALLOCTAG_CC=\"at-no-cc\" runs alloctag-cc again, and no other at-no-cc"
	msg="$msg is in PATH: name the compiler by its path"
	expect_refusal "$msg" env PATH="$d/first:$PATH" ALLOCTAG_CC=at-no-cc timeout 60 "$ATCC" -c m.c || return 1
	in_d env ALLOCTAG_CC="$TESTCC -std=gnu99" "$ATCC" -c m.c -o m.o &&
		nm "$d/m.o" | grep -q ' U strdup_noprof$' || { echo "with -std=gnu99:"; cat "$d/out"; return 1; }
}
check "cc-command/in PATH as its compiler: passes on to the next" in_path_check

# With distcc first, the compilation is handed to distcc as "alloctag-cc
# ARGS" (a name, which distccd takes, not a path), found first in PATH; the
# words after distcc are the compiler for that run.  Linking and
# preprocessing run through distcc as any compiler would.
distcc_check() {
	local want
	in_d env PATH="$d/bin:$PATH" ALLOCTAG_CC="distcc $TESTCC" "$ATCC" -O1 -c m.c -o m.o ||
		{ cat "$d/out"; return 1; }
	want="alloctag-cc
-O1
-c
m.c
-o
m.o
ALLOCTAG_CC=$TESTCC"
	[ "$(cat "$d/distcc.log")" = "$want" ] || { diff <(echo "$want") "$d/distcc.log"; return 1; }
	cmp -s "$d/m.o" "$d/direct.o" || { echo "not the object alloctag-cc makes"; return 1; }
	# "distcc" alone: the compiler alloctag was built for.
	in_d env PATH="$d/bin:$PATH" ALLOCTAG_CC=distcc "$ATCC" -O1 -c m.c -o m.o &&
		grep -qx 'ALLOCTAG_CC=(unset)' "$d/distcc.log" && cmp -s "$d/m.o" "$d/direct.o" ||
		{ echo "ALLOCTAG_CC=distcc:"; cat "$d/out" "$d/distcc.log"; return 1; }
	# A link goes to distcc as the command: "distcc [-Wl,--enable-new-dtags]
	# -fplugin=... m.o ..." (cc).
	in_d env PATH="$d/bin:$PATH" ALLOCTAG_CC="distcc" "$ATCC" m.o -o m
	sed '/^-Wl,--enable-new-dtags$/d' "$d/distcc.log" | head -n 1 | grep -q '^-fplugin=' ||
		{ echo "link:"; cat "$d/distcc.log"; return 1; }
}
check cc-command/distcc-gets-alloctag-cc distcc_check

# -E writes what the compiler reads: the tags header's declarations with
# the plugin's attribute, nothing of alloctag's or of the C library's
# (ccache hashes this, distcc compiles it on a build host); compiled, it is
# the object the source makes.  -M lists the tags headers, which the object
# depends on.
preprocess_check() {
	printf 'void *xalloc(unsigned long) __attribute__((alloc_tagged));\n' > "$d/tags.h"
	in_d "$ATCC" --alloctag-tags=tags.h -O1 -E m.c -o m.i &&
		! grep -q 'alloctag\|alloc_tag_\|struct alloc_tag' "$d/m.i" &&
		grep -q '^void \*xalloc(unsigned long) __attribute__((alloc_tagged));' "$d/m.i" ||
		{ echo "-E output:"; head -n 20 "$d/m.i"; return 1; }
	in_d "$ATCC" --alloctag-tags=tags.h -O1 -c m.c -o direct-tags.o &&
		in_d "$ATCC" -O1 -c m.i -o from-i.o && cmp -s "$d/from-i.o" "$d/direct-tags.o" ||
		{ echo "the .i compiles to another object"; cat "$d/out"; return 1; }
	in_d "$ATCC" --alloctag-tags=tags.h -MM m.c && grep -q 'tags\.h' "$d/out" ||
		{ echo "-MM without tags.h:"; cat "$d/out"; return 1; }
}
check cc-command/preprocess-as-compiled preprocess_check

# A .i that plain gcc made compiles tagged, as its source does: the plugin
# declares the runtime.  One without the tags header the compilation names
# is refused, not compiled with those functions untagged; on a distcc build
# host, the tags headers named for the client need not exist: the .i holds
# them.
preprocessed_checks() {
	in_d "$TESTCC" -O1 -E m.c -o plain.i || { cat "$d/out"; return 1; }
	in_d "$ATCC" -O1 -c plain.i -o plain-i.o && cmp -s "$d/plain-i.o" "$d/direct.o" ||
		{ echo "plain.i compiles to another object than m.c:"; cat "$d/out"; return 1; }
	expect_refusal 'alloctag-cc: plain.i does not hold the tags header tags.h: the functions it declares would not be tagged; make it with "alloctag-cc --alloctag-tags=tags.h -E"' \
		"$ATCC" --alloctag-tags=tags.h -c plain.i -o plain-i.o || return 1
	in_d "$ATCC" --alloctag-tags=/nonexistent/tags.h -O1 -c m.i -o m2.o ||
		{ cat "$d/out"; return 1; }
}
check cc-command/preprocessed-elsewhere preprocessed_checks

# Where distccd runs alloctag-cc, a source (distcc's pump mode) is refused:
# the client's settings would not be applied; its preprocessed output is
# compiled.  (A stand-in for distccd: bash by that name.)
build_host_check() {
	ln -sf "$(command -v bash)" "$d/bin/distccd"
	expect_refusal "alloctag-cc: distccd sent a source, not alloctag-cc's preprocessed output (distcc's pump mode?): the settings of the client would be lost; use plain distcc" \
		"$d/bin/distccd" -c '"$0" -c m.c -o h.o; exit $?' "$ATCC" || return 1
	in_d "$d/bin/distccd" -c '"$0" -O1 -c m.i -o h.o; exit $?' "$ATCC" ||
		{ cat "$d/out"; return 1; }
}
check cc-command/build-host-source-refused build_host_check

# Run by ccache (UNCACHED_ERR_FD set), ALLOCTAG_TAGS and ALLOCTAG_NESTING
# are refused when compiling (ccache would not see them change); the same
# settings as options, and linking (which ccache does not cache), are not.
under_ccache_checks() {
	local fix='give --alloctag-tags=FILE on the command line (CC="ccache alloctag-cc --alloctag-tags=FILE"), or let alloctag-cc run ccache: ALLOCTAG_CC="ccache '"$TESTCC"'"'
	expect_refusal "alloctag-cc: run by ccache, which does not see ALLOCTAG_TAGS: $fix" \
		env UNCACHED_ERR_FD=2 ALLOCTAG_TAGS=tags.h "$ATCC" -c m.c || return 1
	fix='give --alloctag-innermost on the command line (CC="ccache alloctag-cc --alloctag-innermost"), or let alloctag-cc run ccache: ALLOCTAG_CC="ccache '"$TESTCC"'"'
	expect_refusal "alloctag-cc: run by ccache, which does not see ALLOCTAG_NESTING: $fix" \
		env UNCACHED_ERR_FD=2 ALLOCTAG_NESTING=innermost "$ATCC" -E m.c || return 1
	in_d env UNCACHED_ERR_FD=2 "$ATCC" --alloctag-tags=tags.h --alloctag-innermost -c m.c -o u.o &&
		in_d env UNCACHED_ERR_FD=2 ALLOCTAG_TAGS=tags.h "$ATCC" u.o -o u ||
		{ cat "$d/out"; return 1; }
}
check cc-command/under-ccache-env-refused under_ccache_checks
