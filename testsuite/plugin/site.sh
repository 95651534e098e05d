# Tags say what __FILE__, __LINE__ and __func__ say at the call: in macros
# (the line of the use), headers, nested functions, #line, and with file
# names remapped by -fmacro-prefix-map / -ffile-prefix-map or given absolute.
site_check() {
	local out
	out=$(cd "$WORK" && pcc "$@" -o site "$TOP/testsuite/plugin/site/site.c" && ./site) || { echo "$out"; return 1; }
	[ "$out" = "11 checks, 0 failures" ] || { echo "$out"; return 1; }
}
for opt in -O0 -O2; do
	check "site/absolute$opt" site_check $opt
	check "site/macro-prefix-map$opt" site_check $opt -fmacro-prefix-map="$TOP/testsuite/"=t/
	check "site/file-prefix-map$opt" site_check $opt -ffile-prefix-map="$TOP"=.
	check "site/no-macro-tracking$opt" site_check $opt -ftrack-macro-expansion=0
done
