# Helpers of testsuite/real/run, sourced by it and by the project scripts
# (sqlite.sh, jansson.sh, lua.sh) after testsuite/lib.sh (pass, fail, skip,
# report_rows).
#
# Set by testsuite/real/run: TOP, TESTCC, REAL_CC (the drop-in compiler),
# CACHE (downloads, kept between runs), REAL (scratch folder of this run),
# TAGS (folder of the project-allocator tag headers).  Set by each project:
# P and T, the folders of its plain build and of its alloctag-cc build.

# build_both NAME BUILDER TAGS [ENV...]: "BUILDER $P $TESTCC" and "BUILDER $T
# $REAL_CC ALLOCTAG_TAGS=TAGS ENV..." at once; a result line for the plain
# build, and one if the alloctag-cc build failed (the caller checks more
# before its PASS).  BUILDER DIR CC [ENV...] logs to DIR/build.log.  Fails if
# either build did.
build_both() {
	local name=$1 builder=$2 tags=$3 pid prc trc
	shift 3
	"$builder" "$P" "$TESTCC" & pid=$!
	"$builder" "$T" "$REAL_CC" ALLOCTAG_TAGS="$tags" "$@"
	trc=$?
	wait $pid
	prc=$?
	if [ $prc -ne 0 ]; then
		fail "$name: build with $TESTCC" "$(logtail "$P/build.log")"
		return 1
	fi
	pass "$name: build with $TESTCC"
	if [ $trc -ne 0 ]; then
		fail "$name: build with alloctag-cc" "$(logtail "$T/build.log")"
		return 1
	fi
}

# in_both NAME COMMAND...: COMMAND (a program or a function) in $P and in $T
# at once, its output and a last line "exit STATUS" in DIR/NAME.out; the
# alloctag-cc build's report in $T/NAME.report.
in_both() {
	local name=$1 pid
	shift
	(cd "$P" && "$@" >"$name.out" 2>&1; echo "exit $?" >>"$name.out") & pid=$!
	(cd "$T" && export $(report_env "$T/$name.report") && "$@" >"$name.out" 2>&1
	 echo "exit $?" >>"$name.out")
	wait $pid
}

# dhat_and_report NAME COMMAND...: COMMAND of the plain build under DHAT (in
# $P, output $P/NAME.dhat.log and .json: see dhat) and, at the same time, of
# the alloctag-cc build (in $T, report $T/NAME.report).
dhat_and_report() {
	local name=$1 pid
	shift
	(cd "$P" && dhat "$P/$name.dhat" "$@") & pid=$!
	(cd "$T" && export $(report_env "$T/$name.report") && "$@" >/dev/null 2>&1)
	wait $pid
}

# unpack PKG/SUITE DEST: the upstream sources of a Debian source package
# (fetched into CACHE once), without Debian's patches, in DEST.
unpack() {
	local dsc
	dsc=$("$TOP/testsuite/real/fetch" "$CACHE" "$1") || return 1
	rm -rf "$2"
	dpkg-source --skip-patches -x "$dsc" "$2" >"$2.unpack.log" 2>&1 ||
		{ cat "$2.unpack.log"; return 1; }
}

# sources NAME PKG DIR: the upstream sources of Debian's source package PKG
# (of bookworm) in DIR, and a result line.
sources() {
	local name=$1 pkg=$2 dir=$3 out
	mkdir -p "$(dirname "$dir")"
	if ! out=$(unpack "$pkg/bookworm" "$dir" 2>&1); then
		fail "$name: sources (apt-get source $pkg)" "$out"
		return 1
	fi
	pass "$name: sources"
	note "Debian $pkg $(sed -n 's/^Version: //p' "$CACHE/src/$pkg"/*.dsc), upstream sources (Debian's patches not applied)"
}

# note LINE...: details below a result line.
note() {
	printf '%s\n' "$@" | sed 's/^/    /'
}

# logtail FILE: the end of a log, for a FAIL's details.
logtail() {
	echo "--- $1:"
	tail -n 25 "$1"
}

# The report of a run: every site's counters in the full format, to a file.
# report_env FILE: the environment for that, as arguments of env or export.
report_env() {
	echo "ALLOCTAG_REPORT=$1 ALLOCTAG_FORMAT=full"
}

# Sums are printed with %.0f: mawk's %d stops at 2^31 - 1.
# report_totals FILE: "calls bytes" summed over all sites (untagged included);
# report_live FILE: the same of the calls and bytes live at exit.
report_totals() {
	report_rows "$1" | awk '{ c += $3; b += $4 } END { printf "%.0f %.0f\n", c, b }'
}
report_live() {
	report_rows "$1" | awk '{ c += $2; b += $1 } END { printf "%.0f %.0f\n", c, b }'
}

# dhat_totals LOG [LINE]: "blocks bytes" of DHAT's "Total:" line, or of
# another line of its summary ("At t-end").
dhat_totals() {
	sed -n "s/^==[0-9]*== ${2:-Total}: *\([0-9,]*\) bytes in \([0-9,]*\) blocks.*/\2 \1/p" "$1" |
		tr -d , | head -n 1
}

# check_no_negative NAME REPORT...: no site of any of the reports is charged
# negative bytes or calls.
check_no_negative() {
	local name=$1 r bad= n=0
	shift
	for r in "$@"; do
		[ -s "$r" ] || continue
		n=$((n + 1))
		report_rows "$r" | awk '$1 < 0 || $2 < 0 || $3 < 0 || $4 < 0 || $5 < 0' |
			grep -q . && bad="$bad $r"
	done
	if [ $n -eq 0 ]; then
		fail "$name" "no report: $*"
	elif [ -n "$bad" ]; then
		fail "$name" "sites charged negative amounts in:$bad"
	else
		pass "$name"
		[ $n -gt 1 ] && note "$n reports"
	fi
	return 0
}

# check_dhat NAME REPORT DHAT [SRCDIR TAGS [ADDRESS_SITE...]]: dhat_compare,
# as a result line.
check_dhat() {
	local name=$1 out
	shift
	out=$(dhat_compare "$@")
	if echo "$out" | grep -q '^BAD'; then
		fail "$name" "$(echo "$out" | grep -v '^BAD')"
	else
		pass "$name"
		note "$out"
	fi
}

# dhat_compare REPORT DHAT [SRCDIR TAGS [ADDRESS_SITE...]]: the report of a
# run against Valgrind DHAT's count of the same run of the plain build
# (DHAT.log and DHAT.json: see dhat).  The sums over all sites (the untagged
# line included) of total calls and bytes must be the blocks and bytes of
# DHAT's "Total:" line, those of live calls and bytes its "At t-end" (DHAT
# frees nothing at exit: --run-libc-freeres=no).  DHAT counts a realloc as a
# new block of the new size, as alloctag charges it; but it counts a
# zero-size request (malloc(0), calloc(1, 0)) as 1 byte, alloctag as the 0
# bytes asked for.
# With SRCDIR, also site by site (dhat_sites, for the functions that the libc
# header and TAGS declare tagged, and the wrappers the report's sites call):
# the same calls and bytes but for two
# explained differences: a site may have up to a byte a call more in DHAT
# (zero-size requests), and an ADDRESS_SITE ("file.c:function") whose sizes
# depend on heap addresses, which differ under valgrind (a key printed with
# %p), must have the same calls but may not have the same bytes.  DHAT
# counts the blocks of a realloc at the allocation point of the block it
# reallocates, alloctag at the realloc's call site: site by site is for
# programs without realloc.
# Prints what it found, then, if it does not agree, a line "BAD" and why.
dhat_compare() {
	local report=$1 dhat=$2 src=${3:-} tags=${4:-}
	shift $(($# < 4 ? $# : 4))
	local r d rl dl
	r=$(report_totals "$report")
	rl=$(report_live "$report")
	d=$(dhat_totals "$dhat.log")
	dl=$(dhat_totals "$dhat.log" "At t-end")
	if [ -z "$d" ] || [ -z "$dl" ]; then
		echo "BAD"
		echo "no DHAT summary"
		logtail "$dhat.log"
		return
	fi
	echo "report: ${r% *} calls, ${r#* } bytes; DHAT Total: ${d% *} blocks, ${d#* } bytes"
	echo "live at exit: ${rl% *} calls, ${rl#* } bytes; DHAT At t-end: ${dl% *} blocks, ${dl#* } bytes"
	if [ -z "$src" ]; then
		[ "$r" = "$d" ] && [ "$rl" = "$dl" ] || echo "BAD"
		return
	fi
	[ "$rl" = "$dl" ] || printf 'BAD\nlive at exit differs\n'
	join -a1 -a2 -e 0 -o 0,1.2,1.3,2.2,2.3 \
		<(report_by_function "$report") \
		<(dhat_sites "$dhat.json" "$src" $(tagged_functions "$TOP/runtime/alloctag-libc.tags" "$tags") \
			$(report_callees "$report")) |
	awk -v addr=" $* " -v r="$r" -v d="$d" '
		# site report_calls report_bytes dhat_calls dhat_bytes
		{
			rc += $2; rb += $3; dc += $4; db += $5
			if ($2 == $4 && $3 == $5) { same++; next }
			if ($2 == $4 && index(addr, " " $1 " ")) {
				note = note sprintf("\n%s: %.0f calls; %.0f bytes, DHAT %.0f: sizes from heap addresses (%%p)", $1, $2, $3, $5)
				next
			}
			if ($2 == $4 && $5 > $3 && $5 - $3 <= $2) {
				note = note sprintf("\n%s: %.0f calls; %.0f bytes, DHAT %.0f: %.0f zero-size requests, 1 byte each in DHAT", $1, $2, $3, $5, $5 - $3)
				next
			}
			bad = bad sprintf("\n%s: report %.0f calls, %.0f bytes; DHAT %.0f blocks, %.0f bytes", $1, $2, $3, $4, $5)
		}
		END {
			split(r, rt); split(d, dt)
			if (rc != rt[1] || rb != rt[2] || dc != dt[1] || db != dt[2])
				bad = bad sprintf("\nthe sites do not add up to the totals (report %.0f, %.0f; DHAT %.0f, %.0f)", rc, rb, dc, db)
			if (rt[1] != dt[1]) bad = bad "\ncalls differ"
			printf "%d sites agree exactly%s\n", same, note
			if (bad != "") printf "BAD%s\n", bad
		}'
}

# dhat OUT COMMAND...: run COMMAND under DHAT, its output in OUT.log and
# OUT.json; with DHAT_SITES=1, with the deep stacks and inlined calls that
# dhat_sites needs.
dhat() {
	local out=$1 opts=
	shift
	[ -n "${DHAT_SITES:-}" ] && opts="--read-inline-info=yes --num-callers=64"
	valgrind --tool=dhat --run-libc-freeres=no $opts --dhat-out-file="$out.json" "$@" \
		>/dev/null 2>"$out.log"
}

# top_sites REPORT N KEY: the N sites that allocated the most bytes in total
# (KEY total) or held the most at their peak (KEY peak).
top_sites() {
	local col=4
	[ "$3" = peak ] && col=5
	printf '%14s %10s %14s  %s\n' "total bytes" "calls" "peak bytes" "site"
	report_rows "$1" | sort -k$col,${col}nr | head -n "$2" |
		awk '{ s = $6; for (i = 7; i <= NF; i++) s = s " " $i
		       printf "%14.0f %10.0f %14.0f  %s\n", $4, $3, $5, s }'
}

# check_top_sites NAME REPORT N SRCDIR KEY SINK...: the N top sites (see
# top_sites) are lines of files found in SRCDIR (the untagged line may be
# among them), and no SINK function (where all of a project's allocations go
# when its allocation API is not tagged) holds more than 1% of all sites'
# bytes (by KEY).  The top sites are printed below the result.
check_top_sites() {
	local name=$1 report=$2 n=$3 src=$4 key=$5 bad= site file func s nsites=0
	local total bytes col=4 topcol=1
	shift 5
	[ "$key" = peak ] && col=5 topcol=3
	total=$(report_rows "$report" | awk -v c=$col '{ t += $c } END { printf "%.0f", t }')
	while read -r bytes site; do
		[ "$site" = untagged ] && continue
		nsites=$((nsites + 1))
		file=${site%%:*}
		func=$(echo "$site" | sed -n 's/.*func:\([^ ]*\).*/\1/p')
		if [ -z "$(find "$src" -name "$(basename "$file")" -print -quit)" ]; then
			bad="$bad
$site: not a file of the project"
		fi
		for s in "$@"; do
			[ "$func" = "$s" ] && [ $((bytes * 100)) -gt "$total" ] && bad="$bad
$site: in $s, where all allocations go, with more than 1% of the bytes"
		done
	done < <(top_sites "$report" "$n" "$key" | sed 1d |
		awk -v c=$topcol '{ s = $4; for (i = 5; i <= NF; i++) s = s " " $i; print $c, s }')
	[ $nsites -eq 0 ] && bad="
no site in $report"
	if [ -n "$bad" ]; then
		fail "$name" "${bad#?}" "$(top_sites "$report" "$n" "$key")"
	else
		pass "$name"
		note "$(top_sites "$report" "$n" "$key" | sed "s|$REAL/||")"
	fi
}

# same_output NAME PLAIN TAGGED: the two files are the same.
same_output() {
	if cmp -s "$2" "$3"; then
		return 0
	fi
	fail "$1" "output differs from the plain build's:" "$(diff "$2" "$3" | head -n 20)"
	return 1
}

# merge_reports REPORT...: the sites of many reports (of a test suite's
# processes) as one full-format report: counters summed per site, the peak
# the largest of the processes' peaks.
merge_reports() {
	local r
	echo "#     <size>  <calls>   <total size> <total calls>  <peak size> <tag info>"
	for r in "$@"; do
		[ -e "$r" ] && report_rows "$r"
	done | awk '
		{
			site = $6
			for (i = 7; i <= NF; i++) site = site " " $i
			if (!(site in tc)) order[n++] = site
			lb[site] += $1; lc[site] += $2; tc[site] += $3; tb[site] += $4
			if ($5 > pk[site]) pk[site] = $5
		}
		END {
			for (i = 0; i < n; i++) {
				s = order[i]
				printf "%.0f %.0f %.0f %.0f %.0f %s\n", lb[s], lc[s], tb[s], tc[s], pk[s], s
			}
		}'
}

# dhat_sites JSON SRCDIR FUNC...: DHAT's blocks and bytes (its output file,
# --dhat-out-file) per call site as the runtime attributes them: a block
# belongs to the outermost call of a tagged function FUNC made from a file
# found in SRCDIR; the site is the calling function.  One line per site,
# "file:function calls bytes" (file without folders), or "untagged ...".
# The program needs -g (DHAT then lists inlined calls as frames too).
dhat_sites() {
	local json=$1 src=$2
	shift 2
	{
		echo "FUNCS $*"
		find "$src" -name '*.c' -printf 'FILE %f\n'
		cat "$json"
	} | awk '
		$1 == "FUNCS" { for (i = 2; i <= NF; i++) tagged[$i] = 1; next }
		$1 == "FILE" { project[$2] = 1; next }
		/^,"ftbl":/ { inftbl = 1; next }
		inftbl && /^ *[[,]"/ {
			# "0x10DBD2: init_pair (hashtable.c:210)"
			f = $0
			sub(/^ *[[,]"/, "", f)
			fn[nf] = ""; file[nf] = ""
			if (match(f, /^0x[0-9A-Fa-f]+: [^ ]+/)) {
				fn[nf] = substr(f, RSTART, RLENGTH)
				sub(/^0x[0-9A-Fa-f]+: /, "", fn[nf])
				sub(/[.].*/, "", fn[nf])		# GCC clones: f.part.0, f.isra.0
				if (!(fn[nf] in tagged)) {	# __strdup, _IO_fwrite, __fopen_internal
					sub(/^(__|_IO_new_|_IO_)/, "", fn[nf])
					sub(/_internal$/, "", fn[nf])
				}
			}
			if (match(f, /[(][^ ():]+:[0-9]+[)]/))
				file[nf] = substr(f, RSTART + 1, RLENGTH - 2)
			sub(/:[0-9]+$/, "", file[nf])
			nf++
			next
		}
		match($0, /"tb":[0-9]+,"tbk":[0-9]+/) {
			split(substr($0, RSTART, RLENGTH), kv, /[:,]/)
			tb = kv[2]; tbk = kv[4]
			next
		}
		match($0, /"fs":\[[0-9,]*\]/) {
			pp++; ptb[pp] = tb; ptbk[pp] = tbk
			pfs[pp] = substr($0, RSTART + 6, RLENGTH - 7)
		}
		END {
			for (i = 1; i <= pp; i++) {
				n = split(pfs[i], fs, ",")	# innermost first
				site = "untagged"
				for (j = n; j > 1; j--) {
					c = fs[j]; t = fs[j - 1]
					if ((fn[t] in tagged) && (file[c] in project)) {
						site = file[c] ":" fn[c]
						break
					}
				}
				calls[site] += ptbk[i]; bytes[site] += ptb[i]
			}
			for (s in calls) print s, calls[s], bytes[s]
		}' | sort
}

# report_by_function REPORT: the report's total calls and bytes summed per
# file and calling function, "file:function calls bytes" (file without
# folders; "untagged ..."), the form of dhat_sites.
report_by_function() {
	report_rows "$1" | awk '
		{
			if ($6 == "untagged") site = "untagged"
			else {
				# file:line[:column] [module] func:function [callee:name]
				file = $6; sub(/(:[0-9]+)+$/, "", file); sub(/.*\//, "", file)
				for (i = 7; i <= NF; i++) if ($i ~ /^func:/) fn = substr($i, 6)
				site = file ":" fn
			}
			calls[site] += $3; bytes[site] += $4
		}
		END { for (s in calls) print s, calls[s], bytes[s] }' | sort
}

# report_callees REPORT: the functions the report's sites call (callee:NAME),
# one a line: besides the tagged ones, the allocation wrappers alloctag-cc
# found (the auto argument charges their callers' lines, as it would for a
# function declared alloc_tagged), which DHAT's stacks must skip the same way.
report_callees() {
	report_rows "$1" | awk '{ for (i = 7; i <= NF; i++) if ($i ~ /^callee:/) print substr($i, 8) }' |
		sort -u
}

# tagged_functions FILE...: the functions that the headers declare
# alloc_tagged (preprocessed with the plugin loaded, so that the headers'
# macros expand as in a build) and the name lists (*.tags: one NAME[:VARIANT]
# a line, '#' comments; no patterns) name.
tagged_functions() {
	local f
	for f in "$@"; do
		case $f in
		*.tags) sed 's/#.*//; s/:.*//' "$f" | tr -s ' \t' '\n\n' | grep . ;;
		*) "$TESTCC" -fplugin="$TOP/build/$TESTCC/alloctag.so" -I"$TOP/runtime" -E -P -x c "$f" |
			tr '\n' ' ' | tr ';' '\n' | grep 'alloc_tagged' |
			sed -E 's/__attribute__ *\(\(([^()]|\([^()]*\))*\)\)//g' |
			sed -nE 's/^[^(]*[^A-Za-z0-9_]([A-Za-z_][A-Za-z0-9_]*) *\(.*/\1/p' ;;
		esac
	done | sort -u | tr '\n' ' '
}
