# Plugin arguments: unknown keys, missing values, values given to flags and
# values outside an option's choices are errors that name the argument; good
# ones are accepted.
test_option_error() {
	local name=$1 arg=$2 want=$3 out
	out=$(echo 'int x;' | pcc "-fplugin-arg-alloctag-$arg" -x c -c -o /dev/null - 2>&1)
	if [ $? -ne 0 ] && printf '%s\n' "$out" | grep -qF -- "$want"; then
		pass "options/$name"
	else
		fail "options/$name" "wanted: $want" "got:" "$out"
	fi
}
test_option_error unknown bogus=1 \
	"cc1: error: unknown option '-fplugin-arg-alloctag-bogus'; alloctag knows: disable, verbose, tag-type="
test_option_error flag-value verbose=yes "error: option '-fplugin-arg-alloctag-verbose' takes no value"
test_option_error no-value section "error: option '-fplugin-arg-alloctag-section' needs a value"
test_option_error not-identifier suffix=-x "error: option '-fplugin-arg-alloctag-suffix': '-x' is not an identifier"
test_option_error not-a-choice runtime=middle "error: option '-fplugin-arg-alloctag-runtime': 'middle' is not one of 'outermost|innermost'"
test_option_error not-a-choice-prefix runtime=outer "error: option '-fplugin-arg-alloctag-runtime': 'outer' is not one of 'outermost|innermost'"

check options/accepted sh -c "echo 'int x;' | $TESTCC -fplugin=$PLUGIN -fplugin-arg-alloctag-section=my_tags \
	-fplugin-arg-alloctag-suffix=_raw -fplugin-arg-alloctag-verbose \
	-fplugin-arg-alloctag-runtime=innermost -x c -c -o /dev/null - 2>&1 | grep . && exit 1 || exit 0"

# disable: the attribute is still understood (no -Wattributes), nothing is tagged.
out=$(cd "$TOP/testsuite/plugin/tags" && pcc -O2 -fplugin-arg-alloctag-disable -Werror -I.. -S -o - shapes.c 2>&1)
if [ $? -eq 0 ] && ! printf '%s\n' "$out" | grep -q 'alloc_tags\|_noprof'; then
	pass options/disable
else
	fail options/disable "$out"
fi

# -v lists the loaded plugin with its version.
if $TESTCC -fplugin="$PLUGIN" -v -x c -c -o /dev/null /dev/null 2>&1 | grep -q '^ alloctag: [0-9]'; then
	pass options/version
else
	fail options/version "gcc -v does not list alloctag and its version"
fi

# indirect-type names typedefs: one that is not a function type is an error,
# one that is not in the unit is not (the option is for a whole project).
out=$(printf '%s\n' '#include <alloctag.h>' 'typedef int number;' 'int f(int (*g)(int)) { return g(1); }' |
	pcc -fplugin-arg-alloctag-indirect-type=missing_t,number -x c -c -o /dev/null - 2>&1)
if [ "$(printf '%s\n' "$out" | grep -c error)" = 1 ] &&
   printf '%s\n' "$out" | grep -q "error: '-fplugin-arg-\*-indirect-type=missing_t,number': 'number' is not a function or function pointer type"; then
	pass options/indirect-type-errors
else
	fail options/indirect-type-errors "$out"
fi
