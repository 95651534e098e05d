# The manual pages and the bash completion: made from the table --help
# prints (tool/cli_table.c), so they say what --help says; installed by make
# install; the options and variables they list are the ones the programs take.
. "$TOP/testsuite/tool/lib.sh"

DOC=$TOP/build/$TESTCC/doc
M=$TWORK/manual
mkdir -p "$M"

# groff reads the pages, col strips its overstrikes (-P-c: overstrikes, not
# the SGR escapes a newer grotty writes by default, which col keeps).
if ! ensure_deps groff-base bsdextrautils || ! command -v groff >/dev/null || ! command -v col >/dev/null; then
	skip "tool/manual: the pages read by groff" "groff-base or bsdextrautils could not be installed: $DEPS_OUT"
	exit 0
fi

# A page as a person reads it, on one long line per paragraph, blanks collapsed.
rendered() {
	groff -man -Tascii -P-c -rLL=2000n "$1" 2>&1 | col -bx | tr -s ' \n' '  '
}
# alloctag COMMAND --help's options, one per line, blanks collapsed:
# "-d, --delay=SECONDS Refresh every SECONDS ...".
help_options() {
	"$AT" "$1" --help | sed -n '/^options:$/,/^$/p' | sed '1d;$d' |
		awk '/^  -|^      --/ { if (o != "") print o; o = $0; next } { o = o " " $0 } END { print o }' |
		tr -s ' ' ' ' | sed 's/^ //'
}

for page in alloctag.1 alloctag-cc.1 alloctag.7; do
	if [ ! -s "$DOC/$page" ]; then
		fail "tool/manual: $page is made" "no $DOC/$page"
		continue
	fi
	warnings=$(groff -man -ww -z "$DOC/$page" 2>&1)
	[ -z "$warnings" ] && pass "tool/manual: $page has no groff warning" ||
		fail "tool/manual: $page has no groff warning" "$warnings"
done

# Each page's title, as man shows it on its first line: NAME(SECTION) twice.
for page in alloctag.1 alloctag-cc.1 alloctag.7; do
	title=$(echo "$page" | tr a-z A-Z | sed 's/\.\(.\)$/(\1)/')
	at_out "tool/manual: $page's title" "$title $title" \
		sh -c "groff -man -Tascii -P-c '$DOC/$page' 2>&1 | col -bx | head -n 1 | awk '{ print \$1, \$NF }'"
done

man1=$(rendered "$DOC/alloctag.1")
for cmd in $("$AT" --help | sed -n 's/^  alloctag \([a-z]*\) .*/\1/p'); do
	missing=
	synopsis=$("$AT" "$cmd" --help | head -n 1 | sed 's/^usage: //')
	case $man1 in *" $synopsis "*) ;; *) missing="synopsis: $synopsis" ;; esac
	while IFS= read -r option; do
		case $man1 in *" $option "*) ;; *) missing="$missing
$option" ;; esac
	done < <(help_options "$cmd")
	n=$(help_options "$cmd" | wc -l)
	[ -z "$missing" ] && [ "$n" -ge 3 ] && pass "tool/manual: alloctag.1 says what $cmd --help says ($n options)" ||
		fail "tool/manual: alloctag.1 says what $cmd --help says" "$n options; not in the page:" "$missing"
done

# alloctag-cc(1): the driver's own options (runtime/alloctag-cc.in), no more, no fewer.
driver=$(grep -o -- '--alloctag-[a-z]*[a-z]' "$TOP/runtime/alloctag-cc.in" | sort -u)
paged=$(rendered "$DOC/alloctag-cc.1" | grep -o -- '--alloctag-[a-z-]*[a-z]' | sort -u)
at_out "tool/manual: alloctag-cc.1 lists the driver's options" "$driver" echo "$paged"
# ... and so does its own help, made from the same table.
helped=$("$ATCC" --alloctag-help | grep -o -- '--alloctag-[a-z-]*[a-z]' | sort -u)
at_out "tool/manual: alloctag-cc --alloctag-help lists the driver's options" "$driver" echo "$helped"
at_out "tool/manual: alloctag-cc --alloctag-help is the table's" "$("$AT" --manual=alloctag-cc.help)" "$ATCC" --alloctag-help
# alloctag(7): every variable of the runtime's own, and the XDG one it obeys.
runtime=$(grep -ho 'getenv("\(ALLOCTAG\|XDG\)_[A-Z_]*")' "$TOP"/runtime/*.c | sed 's/.*("\(.*\)")/\1/' | sort -u)
paged=$(sed -n '/^\.SH ENVIRONMENT/,/^\.SH [^E]/p' "$DOC/alloctag.7" | grep -A1 '^\.TP' |
	sed -n 's/^\\fB\(.*\)\\fR$/\1/p' | sed 's/\\-/-/g' | sort -u)
at_out "tool/manual: alloctag.7 lists the runtime's variables" "$runtime" echo "$paged"

# make install puts them where man and bash-completion look.
root=$M/root
if make -C "$TOP" --no-print-directory -s CC="$TESTCC" install DESTDIR="$root" PREFIX=/usr \
	PLUGINDIR=/usr/lib/alloctag-plugin > "$M/install.log" 2>&1; then
	missing=
	for f in share/man/man1/alloctag.1 share/man/man1/alloctag-cc.1 share/man/man1/alloctag-c++.1 \
		 share/man/man7/alloctag.7 share/bash-completion/completions/alloctag; do
		[ -s "$root/usr/$f" ] || missing="$missing $f"
	done
	[ -z "$missing" ] && cmp -s "$root/usr/share/man/man1/alloctag.1" "$DOC/alloctag.1" &&
		pass "tool/manual: make install installs the pages and the completion" ||
		fail "tool/manual: make install installs the pages and the completion" "missing:$missing"
	at_out "tool/manual: man finds the installed pages" \
		"$root/usr/share/man/man1/alloctag-cc.1 $root/usr/share/man/man7/alloctag.7" \
		sh -c "echo \$(man -M '$root/usr/share/man' -w alloctag-c++) \$(man -M '$root/usr/share/man' -w 7 alloctag)"
else
	fail "tool/manual: make install" "$(tail -n 20 "$M/install.log")"
fi

# The completion, as bash runs it: complete WORDS... -> what it offers.
completes() {
	bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _alloctag; printf "%s\n" "${COMPREPLY[@]}"' \
		complete "$DOC/alloctag.bash" "$@" | sort | tr '\n' ' '
}
at_out "tool/completion: the commands" "plot pprof ps " completes alloctag p
at_out "tool/completion: a command's options" "--sort " completes alloctag top --so
at_out "tool/completion: an option's values" "allocinfo full json table " completes alloctag snapshot --format ""
at_out "tool/completion: after record --, a command" "alloctag-cc" \
	env PATH="$(dirname "$AT"):$PATH" bash -c ". '$DOC/alloctag.bash'; COMP_WORDS=(alloctag record -- alloctag-c); COMP_CWORD=3; _alloctag; printf '%s\n' \"\${COMPREPLY[@]}\" | grep -x alloctag-cc"
