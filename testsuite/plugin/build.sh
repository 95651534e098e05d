# The plugin builds without a warning with this compiler (a fresh build, in
# a scratch folder, with the Makefile's flags: -Wall -Wextra).
build_out=$(make -C "$TOP" --no-print-directory -s CC="$TESTCC" B="$WORK/plugin-build" \
	"$WORK/plugin-build/alloctag.so" 2>&1)
if [ $? != 0 ]; then
	fail plugin/builds-without-warning "$build_out"
elif printf '%s\n' "$build_out" | grep -q "warning:"; then
	fail plugin/builds-without-warning "$build_out"
else
	pass plugin/builds-without-warning
fi
rm -rf "$WORK/plugin-build"
