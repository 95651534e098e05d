# libtasn1 4.19.0 (Debian's libtasn1-6), configured once with plain $TESTCC,
# its library's sources compiled with -fanalyzer by $TESTCC and by
# alloctag-cc: at -O2 (the package's level) the analyzer's warnings must be
# the same, file, line, column and text; at -O0 none may be lost (there the
# parser is at the analyzer's budget, and the tagged build, whose tag code
# shifts where the budget ends, finds two more).  The bison parser lib/ASN1.c is the case of issue 24: a branch
# per tagged call in the tag's save made the analyzer give up on yyparse (83
# warnings plain, none tagged); the save is a select under -fanalyzer.

# tasn1_warnings CC FILE OPT: the analyzer's warnings of FILE, sorted.
tasn1_warnings() {
	(cd "$SRC/lib" && "$1" -DHAVE_CONFIG_H -I. -I.. -Igl -Iincludes -fanalyzer \
		-fdiagnostics-plain-output -g "$3" -c "$2" -o /dev/null 2>&1) |
		grep -E ': warning: ' | sort -u
}

real_libtasn1() {
	local name=real/libtasn1 SRC=$REAL/libtasn1/src f o plain tagged lost n=0 differ=
	sources "$name" libtasn1-6 "$SRC" || return
	if ! (cd "$SRC" && CC=$TESTCC ./configure --disable-doc >"$SRC/configure.log" 2>&1 &&
	      make -C lib/gl >"$SRC/gl.log" 2>&1); then
		fail "$name: configure" "$(logtail "$SRC/configure.log")"
		return
	fi
	for o in -O0 -O2; do
		for f in ASN1.c coding.c decoding.c element.c parser_aux.c structure.c; do
			plain=$(tasn1_warnings "$TESTCC" "$f" $o)
			tagged=$(tasn1_warnings "$REAL_CC" "$f" $o)
			n=$((n + $(printf '%s' "$plain" | grep -c .)))
			if [ $o = -O0 ]; then
				lost=$(comm -23 <(echo "$plain") <(echo "$tagged"))
				[ -z "$lost" ] || differ="$differ$f $o: lost: $lost
"
			else
				[ "$plain" = "$tagged" ] ||
					differ="$differ$f $o: $(diff <(echo "$plain") <(echo "$tagged") | head -n 6)
"
			fi
		done
	done
	if [ -n "$differ" ]; then
		fail "$name: -fanalyzer warnings as with $TESTCC" "$differ"
	elif [ "$n" = 0 ]; then
		fail "$name: -fanalyzer warnings as with $TESTCC" "no warning at all: nothing compared"
	else
		pass "$name: -fanalyzer warnings as with $TESTCC"
		note "$n warnings at -O0 and -O2 over six files: the same with alloctag-cc at -O2, none lost at -O0"
	fi
}
