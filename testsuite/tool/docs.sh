# README.md and docs/*.md: every shell command they show is run, in a
# scratch copy of the repository, and its output compared with the output
# they show, so that the documents cannot drift from what the programs do.
# The convention (docs/development.md, "Commands in the documents"): a
# ```sh block holds "$ COMMAND" lines, each followed by its output; a marker
# <!-- doc-test: ... --> before a block says "not run: REASON", "needs:
# PROGRAM", "on a terminal" or what varies ("vary: numbers 2724 15:42:14").
# A document that breaks the convention, a link to a file or heading that is
# not there, a command that fails or prints something else: FAIL.
. "$TOP/testsuite/tool/lib.sh"

D=$TWORK/docs
rm -rf "$D" && mkdir -p "$D"
DOCS=$(cd "$TOP" && printf '%s\n' README.md docs/*.md)

# docs_parse DOC: its commands, outputs and links into $D/ID/ (docs-parse.awk).
docs_parse() {
	local p=$D/$2
	mkdir -p "$p"
	awk -v OUT="$p" -v DOC="$1" -f "$TOP/testsuite/tool/docs-parse.awk" "$TOP/$1"
}

# docs_links DOC ID: the relative links of DOC whose file, or heading in it,
# is not there.
docs_links() {
	local doc=$1 dir line target file frag hid
	dir=$(dirname "$doc")
	while IFS=$'\t' read -r line target; do
		file=${target%%#*}
		frag=
		[ "$file" != "$target" ] && frag=${target#*#}
		if [ -z "$file" ]; then
			file=$doc
		else
			file=$dir/$file
		fi
		if [ ! -e "$TOP/$file" ]; then
			echo "$doc:$line: $target: no file $file"
		elif [ -n "$frag" ]; then
			case $file in
			*.md)
				hid=$(echo "$file" | tr / _)
				[ -d "$D/$hid" ] || docs_parse "$file" "$hid" 2>/dev/null
				grep -qxF -- "$frag" "$D/$hid/headings" ||
					echo "$doc:$line: $target: no heading #$frag in $file"
				;;
			esac
		fi
	done < "$D/$2/links"
}

# docs_runner ID: the script that runs the document's commands, in order, in
# one shell (what one command does, cd, a variable, a background job, the
# next sees), each's output and status into $2/N.out and N.rc.
docs_runner() {
	local p=$D/$1 n line mode terminal arg
	cat <<-'EOS'
		# $1: the scratch copy of the repository, $2: where the results go
		cd "$1" || exit 1
	EOS
	while IFS=$'\t' read -r n line mode terminal arg; do
		case $mode in
		notrun) continue ;;
		needs) printf 'if command -v %q >/dev/null; then\n' "$arg" ;;
		esac
		if [ "$terminal" = 1 ]; then
			# a terminal of 100 columns, as a person's: script(1)
			printf 'script -qec "stty cols 100 rows 40; bash %q" /dev/null' "$p/$n.cmd"
		else
			printf '{\n%s\n}' "$(cat "$p/$n.cmd")"
		fi
		printf ' >"$2/%s.out" 2>&1 </dev/null\necho $? >"$2/%s.rc"\n' "$n" "$n"
		[ "$mode" = needs ] && printf 'else\n\techo needs >"$2/%s.rc"\nfi\n' "$n"
	done < "$p/commands"
	echo 'kill $(jobs -p) 2>/dev/null; wait'
}

# docs_farm DIR: a scratch copy of the repository, as a clone after make:
# links to its files, build/gcc (and build/$TESTCC) its build for $TESTCC.
docs_farm() {
	local f=$1 e
	mkdir -p "$f/build"
	for e in "$TOP"/* "$TOP"/.[!.]*; do
		case ${e##*/} in build | .git | .cache) continue ;; esac
		ln -s "$e" "$f/${e##*/}"
	done
	ln -s "$TOP/build/$TESTCC" "$f/build/gcc"
	[ "$TESTCC" = gcc ] || ln -s "$TOP/build/$TESTCC" "$f/build/$TESTCC"
}

# docs_run ID: the document's commands run, in a mount namespace of their
# own with an empty /tmp and /dev/shm, so that the live directories hold
# only the processes they start (alloctag ps lists every one of yours).
docs_run() {
	local s=$D/$1/run env gxx
	mkdir -p "$s/results" "$s/home" "$s/bin" && mkdir -m 700 "$s/xdg"
	docs_farm "$s/alloctag"
	docs_runner "$1" > "$s/runner.sh"
	# gcc and g++ are the compiler under test, as build/gcc is its build
	gxx=g++
	case $TESTCC in gcc-*) gxx=g++-${TESTCC#gcc-} ;; esac
	ln -s "$(command -v "$TESTCC")" "$s/bin/gcc"
	command -v "$gxx" >/dev/null && ln -s "$(command -v "$gxx")" "$s/bin/g++"
	env="unset MAKEFLAGS MAKELEVEL MFLAGS COLUMNS LC_ALL; export LANG=C.UTF-8 CC=$TESTCC"
	env="$env HOME='$s/home' XDG_RUNTIME_DIR='$s/xdg' PATH='$s/alloctag/build/gcc:$s/bin':\$PATH"
	timeout 1800 $UNSHARE bash -c "mount -t tmpfs tmpfs /dev/shm && mount -t tmpfs tmpfs /tmp &&
		$env && exec bash \"\$0\" \"\$@\"" "$s/runner.sh" "$s/alloctag" "$s/results" > "$s/runner.log" 2>&1
}

# docs_compare ID DOC: each command's status and output against the document's.
docs_compare() {
	local p=$D/$1 doc=$2 r=$D/$1/run/results n line mode arg terminal name want rc
	while IFS=$'\t' read -r n line mode terminal arg; do
		[ "$mode" = notrun ] && continue
		name="docs: $doc:$line: \$ $(head -n 1 "$p/$n.cmd" | cut -c 1-70)"
		want=0
		if tail -n 1 "$p/$n.exp" | grep -q '^(exit status [0-9]*)$'; then
			want=$(tail -n 1 "$p/$n.exp" | tr -dc 0-9)
			sed -i '$d' "$p/$n.exp"
		fi
		if [ ! -f "$r/$n.rc" ]; then
			fail "$name" "not run: the commands before it did not end (timeout?)" \
				"$(tail -n 20 "$D/$1/run/runner.log")"
			continue
		fi
		rc=$(cat "$r/$n.rc")
		if [ "$rc" = needs ]; then
			skip "$name" "no $arg"
		elif [ "$rc" != "$want" ]; then
			fail "$name" "exit status $rc, not $want; its output:" "$(cat "$r/$n.out")"
		elif ! awk -v EXP="$p/$n.exp" -v VARY="$p/$n.vary" -v GOT="$r/$n.out" \
				-f "$TOP/testsuite/tool/docs-match.awk"; then
			fail "$name" "its output is not the one shown ($doc:$line); shown:" "$(cat "$p/$n.exp")" \
				"got:" "$(cat "$r/$n.out")"
		else
			pass "$name"
		fi
	done < "$p/commands"
}

if [ "$(id -u)" = 0 ]; then UNSHARE="unshare -m"; else UNSHARE="unshare -rm"; fi
if ! $UNSHARE true 2>/dev/null; then
	skip "docs: the commands" "no mount namespace of their own ($UNSHARE) to run in"
	UNSHARE=
fi
case $TOP/ in /tmp/* | /dev/shm/*)
	skip "docs: the commands" "the repository is under /tmp or /dev/shm, which they run without"
	UNSHARE= ;;
esac

for doc in $DOCS; do
	id=$(echo "$doc" | tr / _)
	[ -d "$D/$id" ] || docs_parse "$doc" "$id"
	errors=$(cat "$D/$id/errors")
	if [ -n "$errors" ]; then
		fail "docs: $doc: every shell command is in a \`\`\`sh block, as \"\$ COMMAND\"" "$errors"
		continue
	fi
	pass "docs: $doc: every shell command is in a \`\`\`sh block, as \"\$ COMMAND\""
	broken=$(docs_links "$doc" "$id")
	if [ -n "$broken" ]; then
		fail "docs: $doc: its links lead to files and headings that are there" "$broken"
	else
		pass "docs: $doc: its links lead to files and headings that are there"
	fi
	[ -n "$UNSHARE" ] && [ -s "$D/$id/commands" ] || continue
	docs_run "$id"
	docs_compare "$id" "$doc"
done
