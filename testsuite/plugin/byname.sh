# Functions tagged by name (-fplugin-arg-alloctag-tag=, -tag-file=): a bad
# entry is an error that says which and where, once (then GCC's own "failed
# to initialize plugin"); the good ones add up.
byname_error() {
	local name=$1 want=$2 out
	shift 2
	out=$(echo 'int x;' | pcc "$@" -x c -c -o /dev/null - 2>&1)
	if [ $? -ne 0 ] && printf '%s\n' "$out" | grep -qF -- "$want" &&
	   [ "$(printf '%s\n' "$out" | grep -v 'failed to initialize plugin' | grep -c 'error:')" = 1 ]; then
		pass "byname/$name"
	else
		fail "byname/$name" "wanted once: $want" "got:" "$out"
	fi
}
byname_error bad-name "cc1: error: '-fplugin-arg-alloctag-tag': 'x-y' is not a function name or a pattern of names" \
	-fplugin-arg-alloctag-tag=malloc,x-y
byname_error bad-variant "error: '-fplugin-arg-alloctag-tag': 'f:1x' names an untagged variant that is not a function name" \
	-fplugin-arg-alloctag-tag=f:1x
byname_error pattern-variant "error: '-fplugin-arg-alloctag-tag': 'x*:y' is a pattern, which cannot name one untagged variant; list the functions it should cover" \
	"-fplugin-arg-alloctag-tag=x*:y"
byname_error empty "error: '-fplugin-arg-alloctag-tag=,' names no function" -fplugin-arg-alloctag-tag=,
byname_error no-file "error: '-fplugin-arg-alloctag-tag-file=/nonexistent': cannot read it: No such file or directory" \
	-fplugin-arg-alloctag-tag-file=/nonexistent
printf 'malloc  # fine\n\nfree:free_noprof, x/y\n' > "$WORK/bad.tags"
byname_error file-line "error: $WORK/bad.tags:3: 'x/y' is not a function name or a pattern of names ('-fplugin-arg-alloctag-tag-file=$WORK/bad.tags')" \
	-fplugin-arg-alloctag-tag-file="$WORK/bad.tags"

# Reported once however often the name is declared or the hooks are used.
once_check() {
	local file=$1 kind=$2 want=$3 out
	out=$(cd "$TOP/testsuite/plugin/diag" && pcc $(directive args "$file") -c -o /dev/null "$file" 2>&1)
	[ "$(printf '%s\n' "$out" | grep -c ": $kind: ")" = "$want" ] || { echo "$out"; return 1; }
}
check byname/warned-once once_check by-name.c warning 1
check byname/hooks-error-once once_check builtin-hooks.c error 1

# The lists add up: two tag= and a tag-file=, all tagged.
out=$(printf '%s\n' '#include <alloctag.h>' 'void *a(int), *b(int), *n_listed(int);' \
	'void *f(void) { return a(1) ?: b(2) ?: n_listed(3); }' |
	pcc -fplugin-arg-alloctag-tag=a -fplugin-arg-alloctag-tag=b \
		-fplugin-arg-alloctag-tag-file="$TOP/testsuite/plugin/tags/lib/by-name.tags" \
		-fplugin-arg-alloctag-verbose -x c -c -o /dev/null - 2>&1)
[ "$(printf '%s\n' "$out" | grep -c 'note: call to .* tagged')" = 3 ] &&
	pass byname/lists-add-up || fail byname/lists-add-up "$out"

# lto1 loads the plugin from the link line but rewrites nothing: a -flto link
# in another folder than the compile, where a relative tag-file is not, links.
lto_check() {
	local d=$WORK/byname-lto
	mkdir -p "$d/src" "$d/link"
	printf 'n_x\n' > "$d/src/l.tags"
	printf '#include <stdlib.h>\nvoid *n_x(size_t n) { return malloc(n); }\nint main(void) { return !n_x(3); }\n' > "$d/src/m.c"
	(cd "$d/src" && pcc -O2 -flto -include alloctag.h -fplugin-arg-alloctag-tag-file=l.tags -c m.c) &&
	(cd "$d/link" && pcc -O2 -flto -fplugin-arg-alloctag-tag-file=l.tags -o m ../src/m.o \
		-Wl,--unresolved-symbols=ignore-all)
}
check byname/lto-link-elsewhere lto_check
