# Helpers of testsuite/builds/run, sourced by it and by its parts (ccache.sh,
# distcc.sh, icecream.sh, projects.sh) after testsuite/lib.sh and
# testsuite/real/lib.sh (pass, fail, skip, note, logtail, unpack).
#
# Set by testsuite/builds/run: TOP, TESTCC, CACHE (downloads, kept between
# runs), BUILDS (scratch folder of this run), STAGE (a folder the daemons'
# users can read: alloctag installed in $STAGE/prefix, as on a build host),
# ATCC (that installation's alloctag-cc), JANSSON (jansson's sources),
# REF (jansson built with $ATCC, no wrapper: the reference).

# install_stage: alloctag installed in $STAGE/prefix (make install), the
# plugin in $STAGE/prefix/lib/gcc-plugin.
install_stage() {
	make -C "$TOP" --no-print-directory -s CC="$TESTCC" install DESTDIR= PREFIX="$STAGE/prefix" \
		PLUGINDIR="$STAGE/prefix/lib/gcc-plugin" >"$BUILDS/install.log" 2>&1
}

# jansson_build DIR [ENV...]: jansson configured with CMake in DIR (below its
# sources) and built, its compiler $ATCC, with ENV (and the compiler
# options in JANSSON_CFLAGS, if set).  No -g: an object then
# does not name the folder it was compiled in, and a build host's object
# can be compared with a local one byte for byte.  The plugin's verbose
# notes (one a tagged call: its file:line and function) go to the log.
jansson_build() {
	jansson_configure "$@" && jansson_make "$@"
}
jansson_configure() {	# DIR [ENV...]: a new DIR, configured
	local b=$1
	shift
	rm -rf "$b" && mkdir -p "$b"
	(cd "$b" && env ALLOCTAG_REPORT=off ALLOCTAG_TAGS="$TOP/testsuite/real/tags/jansson.h" "$@" \
		cmake -DCMAKE_C_COMPILER="$ATCC" -DCMAKE_BUILD_TYPE=None \
		-DCMAKE_C_FLAGS="-O2 -fdiagnostics-plain-output -fplugin-arg-alloctag-verbose ${JANSSON_CFLAGS-}" \
		-DJANSSON_BUILD_DOCS=OFF ..) >"$b/build.log" 2>&1
}
jansson_make() {	# DIR [ENV...]: make in the configured DIR
	local b=$1
	shift
	(cd "$b" && env ALLOCTAG_REPORT=off ALLOCTAG_TAGS="$TOP/testsuite/real/tags/jansson.h" "$@" \
		make -j2) >>"$b/build.log" 2>&1
}

# objects DIR: the compiled objects of a build, relative to DIR, sorted.
objects() {
	(cd "$1" && find . -name '*.c.o' | sort)
}

# not_in_log DIR LOG PATTERN: the sources of DIR's objects for which LOG has
# no line matching PATTERN followed by "/SOURCE" at its end (a daemon's
# line for each compilation it did).
not_in_log() {
	local o src
	for o in $(objects "$1"); do
		src=$(basename "${o%.o}")
		grep -q "$3.*/$src\$" "$2" || echo "$src"
	done
}

# tag_notes DIR [columns]: the tags the plugin reported while DIR was built,
# one line a tagged call, direct or indirect ("file:line:col: note: call to
# 'f' tagged file:line:col 'function', calls 'f_noprof"), sorted; with
# "columns", what was tagged where without the columns (see
# same_but_columns), each once: compiled from source, a note on a call
# written in a macro is placed in the macro's definition, and a macro's
# calls share their place.
tag_notes() {
	grep -E ': note: (indirect )?call .* tagged ' "$1/build.log" |
		if [ "${2:-}" = columns ]; then
			sed -E 's/^.*: note: //; s/:([0-9]+):[0-9]+/:\1/g' | sort -u
		else
			sort
		fi
}

# same_but_columns A B: objects A and B are the same, byte for byte, but for
# the column of their tags (struct alloc_tag's last field: 56-byte tags in
# the section alloc_tags), which a build from preprocessed sources (distcc)
# cannot know for a call written in a macro: the .i has it expanded.
same_but_columns() {
	python3 - "$1" "$2" <<'PY'
import subprocess, sys
TAG, COLUMN = 56, 48
def masked(path):
    data = bytearray(open(path, "rb").read())
    for line in subprocess.run(["readelf", "-S", "-W", path], capture_output=True,
                               text=True).stdout.splitlines():
        f = line.replace("[ ", "[").split()
        if len(f) > 5 and f[1] == "alloc_tags":
            off, size = int(f[4], 16), int(f[5], 16)
            for t in range(off, off + size - TAG + 1, TAG):
                data[t + COLUMN:t + COLUMN + 4] = bytes(4)
    return data
sys.exit(masked(sys.argv[1]) != masked(sys.argv[2]))
PY
}

# same_build NAME DIR [columns]: DIR's build is the reference's: the same
# objects, byte for byte (with "columns", but for the tags' columns:
# same_but_columns), and the same tags; a result line.
same_build() {
	local name=$1 b=$2 columns=${3:-} o differ= n
	if [ "$(objects "$b")" != "$(objects "$REF")" ]; then
		fail "$name" "other objects than the local build:" \
			"$(diff <(objects "$REF") <(objects "$b") | grep '^[<>]')"
		return 1
	fi
	for o in $(objects "$b"); do
		cmp -s "$b/$o" "$REF/$o" || { [ -n "$columns" ] && same_but_columns "$b/$o" "$REF/$o"; } ||
			differ="$differ $o"
	done
	n=$(tag_notes "$REF" | wc -l)
	if [ -n "$differ" ]; then
		fail "$name" "objects that differ from the local build's:$differ"
	elif [ "$n" = 0 ]; then
		fail "$name" "no tagged call in the local build"
	elif [ "$(tag_notes "$b" $columns)" != "$(tag_notes "$REF" $columns)" ]; then
		fail "$name" "other tags than the local build:" \
			"$(diff <(tag_notes "$REF" $columns) <(tag_notes "$b" $columns) | grep '^[<>]' | head -n 20)"
	else
		pass "$name"
		note "$(objects "$b" | wc -l) objects identical to the local build's, $n tags (file:line function) the same"
		return 0
	fi
	return 1
}

# jansson_reports DIR: jansson's API test programs of DIR's build run, each
# report in DIR/reports/PROGRAM (the full format), with address
# randomization off (jansson sizes some keys by printing pointers); a line
# for each program that failed.
jansson_reports() {
	local b=$1 prog
	rm -rf "$b/reports" && mkdir -p "$b/reports"
	for prog in "$b"/bin/test_*; do
		(cd "$b" && ALLOCTAG_REPORT="$b/reports/${prog##*/}" ALLOCTAG_FORMAT=full \
			setarch -R "$prog" >/dev/null 2>&1) || echo "${prog##*/} failed"
	done
}

# same_reports NAME DIR: DIR's test programs write the reference's reports,
# byte for byte; a result line.
same_reports() {
	local name=$1 b=$2 out= differ= r
	[ -d "$REF/reports" ] || out=$(jansson_reports "$REF")
	[ -z "$out" ] || { fail "$name" "the local build's programs: $out"; return 1; }
	out=$(jansson_reports "$b")
	for r in "$REF"/reports/*; do
		cmp -s "$r" "$b/reports/${r##*/}" || differ="$differ ${r##*/}"
	done
	if [ -n "$out" ] || [ -n "$differ" ]; then
		fail "$name" "$out" ${differ:+"reports that differ:$differ"}
		return 1
	fi
	pass "$name"
	note "$(ls "$REF/reports" | wc -l) test programs, the same reports ($(cat "$REF"/reports/* | grep -vc '^[a#]') site lines)"
}

# Daemons: started in the background with their pids kept, all stopped at
# exit (stop_daemons is the scripts' EXIT trap) and never left running.
DAEMONS=
start_daemon() {	# LOG COMMAND...
	local log=$1
	shift
	"$@" >"$log" 2>&1 &
	DAEMONS="$DAEMONS $!"
}
stop_daemons() {
	local pid
	for pid in $DAEMONS; do
		kill "$pid" 2>/dev/null
	done
	for pid in $DAEMONS; do
		wait "$pid" 2>/dev/null
	done
	DAEMONS=
}

# wait_for FILE PATTERN: until FILE has a line matching PATTERN (20 s).
wait_for() {
	local i
	for i in $(seq 100); do
		grep -q -- "$2" "$1" 2>/dev/null && return 0
		sleep 0.2
	done
	return 1
}

# private_net: can this machine give a process a network of its own, with
# only a loopback interface (unshare --net, as root)?
private_net() {
	command -v unshare >/dev/null && command -v ip >/dev/null &&
		unshare --net -- ip link set lo up 2>/dev/null
}

# in_private_net SCRIPT: SCRIPT in a network namespace of its own, loopback
# up: its daemons listen where nothing else can reach them.
in_private_net() {
	unshare --net -- bash -c 'ip link set lo up && exec bash "$0"' "$1"
}
