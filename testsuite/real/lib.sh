# Helpers of testsuite/real/run, sourced by it and by the project scripts
# (sqlite.sh, jansson.sh, lua.sh) after testsuite/lib.sh (pass, fail, skip).
#
# Set by testsuite/real/run: TOP, TESTCC, REAL_CC (the drop-in compiler),
# CACHE (downloads, kept between runs), REAL (scratch folder of this run),
# TAGS (folder of the project-allocator tag headers).

# unpack PKG/SUITE DEST: the upstream sources of a Debian source package
# (fetched into CACHE once), without Debian's patches, in DEST.
unpack() {
	local dsc
	dsc=$("$TOP/testsuite/real/fetch" "$CACHE" "$1") || return 1
	rm -rf "$2"
	dpkg-source --skip-patches -x "$dsc" "$2" >"$2.unpack.log" 2>&1 ||
		{ cat "$2.unpack.log"; return 1; }
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
# report_env FILE: the environment for that, as arguments of env(1).
report_env() {
	echo "ALLOCTAG_REPORT=$1 ALLOCTAG_FORMAT=full"
}

# report_rows FILE: one line per site of a full-format report,
# "live_bytes live_calls total_calls total_bytes peak_bytes site", the
# columns found by their names in the report's "# <size> ..." header line;
# the untagged line's site is "untagged".
report_rows() {
	awk '
		/^allocinfo - version:/ { next }
		/^#/ {
			n = 0
			line = $0
			while (match(line, /<[^>]*>/)) {
				col[substr(line, RSTART + 1, RLENGTH - 2)] = ++n
				line = substr(line, RSTART + RLENGTH)
			}
			nnum = n - 1	# numbers, then <tag info>
			next
		}
		nnum && NF > nnum {
			site = $(nnum + 1)
			for (i = nnum + 2; i <= NF; i++) site = site " " $i
			if (site ~ /func:untagged$/) site = "untagged"
			print $col["size"], $col["calls"], $col["total calls"], \
				$col["total size"], $col["peak size"], site
		}' "$1"
}

# report_totals FILE: "calls bytes" summed over all sites (untagged included).
report_totals() {
	report_rows "$1" | awk '{ c += $3; b += $4 } END { printf "%d %d\n", c, b }'
}

# dhat_totals LOG: "blocks bytes" of DHAT's "Total:" line.
dhat_totals() {
	sed -n 's/^==[0-9]*== Total: *\([0-9,]*\) bytes in \([0-9,]*\) blocks.*/\2 \1/p' "$1" |
		tr -d , | head -n 1
}

# check_report NAME REPORT: no site charged negative bytes or calls.
check_no_negative() {
	local name=$1 report=$2 bad
	if [ ! -s "$report" ]; then
		fail "$name" "no report in $report"
		return
	fi
	bad=$(report_rows "$report" | awk '$1 < 0 || $2 < 0 || $3 < 0 || $4 < 0 || $5 < 0')
	if [ -n "$bad" ]; then
		fail "$name" "sites charged negative amounts:" "$bad"
	else
		pass "$name"
	fi
}

# check_dhat NAME REPORT DHATLOG [EXTRA_CALLS EXTRA_BYTES WHY]: the sums of the
# report's total calls and bytes over all sites are DHAT's Total blocks and
# bytes of the same run, give or take a difference that WHY explains.
check_dhat() {
	local name=$1 report=$2 dlog=$3 dcalls=${4:-0} dbytes=${5:-0} why=${6:-}
	local r d
	r=$(report_totals "$report")
	d=$(dhat_totals "$dlog")
	if [ -z "$d" ]; then
		fail "$name" "no DHAT Total line" "$(logtail "$dlog")"
		return
	fi
	set -- $r $d
	local detail="report: $1 calls, $2 bytes; DHAT: $3 blocks, $4 bytes"
	[ -n "$why" ] && detail="$detail; expected difference $dcalls calls, $dbytes bytes: $why"
	if [ $(($1 - $3)) -eq "$dcalls" ] && [ $(($2 - $4)) -eq "$dbytes" ]; then
		pass "$name"
		note "$detail"
	else
		fail "$name" "$detail"
	fi
}

# top_sites REPORT N KEY: the N sites that allocated the most bytes in total
# (KEY total) or held the most at their peak (KEY peak).
top_sites() {
	local col=4
	[ "$3" = peak ] && col=5
	printf '%14s %10s %14s  %s\n' "total bytes" "calls" "peak bytes" "site"
	report_rows "$1" | sort -k$col,${col}nr | head -n "$2" |
		awk '{ s = $6; for (i = 7; i <= NF; i++) s = s " " $i
		       printf "%14d %10d %14d  %s\n", $4, $3, $5, s }'
}

# check_top_sites NAME REPORT N SRCDIR KEY SINK...: the N top sites (see
# top_sites) are lines of files found in SRCDIR (the untagged line may be
# among them), and no SINK function (where all of a project's allocations go
# when its allocation API is not tagged) holds more than 1% of all sites'
# bytes (by KEY).  The top sites are printed below the result.
check_top_sites() {
	local name=$1 report=$2 n=$3 src=$4 key=$5 bad= site file func s nsites=0
	local total bytes col=4
	shift 5
	[ "$key" = peak ] && col=5
	total=$(report_rows "$report" | awk -v c=$col '{ t += $c } END { printf "%d", t }')
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
	done < <(report_rows "$report" | sort -k$col,${col}nr | head -n "$n" |
		awk -v c=$col '{ s = $6; for (i = 7; i <= NF; i++) s = s " " $i; print $c, s }')
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
				printf "%d %d %d %d %d %s\n", lb[s], lc[s], tb[s], tc[s], pk[s], s
			}
		}'
}
