# The examples build and report what their comments say.
examples_check() {
	make -C "$TOP" --no-print-directory -s CC="$TESTCC" examples >/dev/null || return 1
	local ex=$TOP/build/$TESTCC/examples
	(cd "$TOP" && ALLOCTAG_REPORT=stdout "$ex/names") | grep -qx \
		'          53        8 examples/shared/names.c:25 \[libnames.so\] func:names_add ' || {
		echo "names: the leak in libnames.so is not reported"; return 1; }
	(cd "$TOP" && ALLOCTAG_REPORT=stdout "$ex/demo") | grep -qx \
		'          18        1 examples/demo/demo.c:82 func:main ' || {
		echo "demo: the leaked title is not reported"; return 1; }
}
check examples/report examples_check
