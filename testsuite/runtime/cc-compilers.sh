# alloctag-cc with ALLOCTAG_CC naming another compiler: a GCC gets the
# plugin built for it (in build/NAME/ beside this build, or installed in its
# plugin directory), or one line saying none is and how to build one; it is
# never run with the plugin of another GCC.  Stand-in GCCs have a plugin
# directory of their own and compile with $TESTCC.
d=$WORK/cc-compilers
rm -rf "$d"
mkdir -p "$d"
printf '#include <stdlib.h>\nint main(void) { free(malloc(3)); return 0; }\n' > "$d/m.c"

# stand_in NAME VERSION-LINE: $d/NAME, whose plugin directory is $d/NAME.plugin;
# it records in $d/NAME.loaded the plugin it is asked to load.
stand_in() {
	mkdir -p "$d/$1.plugin"
	cat > "$d/$1" <<-EOF
	#!/bin/sh
	[ "\$*" = -print-file-name=plugin ] && { echo "$d/$1.plugin"; exit 0; }
	[ "\$*" = -v ] && { echo "$2" >&2; exit 0; }
	for a; do case \$a in -fplugin=*) echo "\${a#-fplugin=}" >> "$d/$1.loaded" ;; esac; done
	exec "$TESTCC" "\$@"
	EOF
	chmod +x "$d/$1"
}

# compiles_with CC PLUGIN: alloctag-cc with ALLOCTAG_CC=CC loads PLUGIN, and the program is tagged.
compiles_with() {
	(cd "$d" && ALLOCTAG_CC=$1 "$ATCC" m.c -o m && ALLOCTAG_REPORT=stderr ./m 2>&1 |
		grep -q 'm.c:2 func:main') ||
		{ echo "ALLOCTAG_CC=$1 did not build a tagged program"; return 1; }
	[ "$(cat "$1.loaded" 2>/dev/null)" = "$2" ] || { echo "loaded: $(cat "$1.loaded" 2>/dev/null)"; return 1; }
}

# refused CC MESSAGE: alloctag-cc exits 2 saying MESSAGE, and CC loads no plugin.
refused() {
	local err
	err=$(cd "$d" && ALLOCTAG_CC=$1 "$ATCC" -c m.c -o m.o 2>&1)
	[ $? = 2 ] && [ "$err" = "$2" ] && [ ! -e "$1.loaded" ] || { echo "said: $err"; return 1; }
}

stand_in gcc-77 "gcc version 77.1.0 (stand-in)"
check cc-compilers/none-built refused "$d/gcc-77" \
	"alloctag-cc: no alloctag plugin is built for ALLOCTAG_CC=$d/gcc-77 (this alloctag-cc's is for $TESTCC); build one: make CC=$d/gcc-77"

cp "$PLUGIN" "$d/gcc-77.plugin/alloctag.so"		# make install CC=gcc-77
check cc-compilers/installed compiles_with "$d/gcc-77" "$d/gcc-77.plugin/alloctag.so"

stand_in gcc-78 "gcc version 78.1.0 (stand-in)"
sibling=$TOP/build/cc-compilers-test-$TESTCC		# make CC=gcc-78
rm -rf "$sibling"
mkdir -p "$sibling"
cp "$PLUGIN" "$sibling/alloctag.so"
echo "$d/gcc-78.plugin" > "$sibling/gcc-plugin-dir"
check cc-compilers/built-beside compiles_with "$d/gcc-78" "$sibling/alloctag.so"
rm -rf "$sibling"

stand_in clang-77 "clang version 77.0.0 (stand-in)"
check cc-compilers/not-gcc refused "$d/clang-77" \
	"alloctag-cc: ALLOCTAG_CC=$d/clang-77 is not GCC: the alloctag plugin is a GCC plugin"
check cc-compilers/missing refused "$d/gcc-79" "alloctag-cc: ALLOCTAG_CC: $d/gcc-79: command not found"

# The same GCC by another name uses this build's plugin.
check cc-compilers/same-gcc sh -c "cd '$d' && ALLOCTAG_CC='$(command -v "$TESTCC")' ALLOCTAG_CC_VERBOSE=1 \
	'$ATCC' m.c -o m 2>&1 | grep -qF -- '-fplugin=$PLUGIN ' && ALLOCTAG_REPORT=stderr ./m 2>&1 | grep -q 'm.c:2 func:main'"

# A real other GCC whose build is here (make check builds gcc, then gcc-11;
# make check-compilers gcc-13, then gcc-14 in one root).
other=
for stamp in "$TOP"/build/*/gcc-plugin-dir; do
	name=$(basename "$(dirname "$stamp")")
	if [ "$name" != "$TESTCC" ] && command -v "$name" >/dev/null &&
	   [ "$("$name" -print-file-name=plugin)" = "$(cat "$stamp")" ] &&
	   [ "$(cat "$stamp")" != "$("$TESTCC" -print-file-name=plugin)" ]; then
		other=$name
		break
	fi
done
if [ -n "$other" ]; then
	check "cc-compilers/other-gcc-$other" sh -c "cd '$d' && ALLOCTAG_CC=$other ALLOCTAG_CC_VERBOSE=1 \
		'$ATCC' m.c -o m 2>&1 | grep -qF -- '-fplugin=$TOP/build/$other/alloctag.so ' &&
		ALLOCTAG_REPORT=stderr ./m 2>&1 | grep -q 'm.c:2 func:main'"
else
	skip cc-compilers/other-gcc "no other GCC built here yet"
fi
