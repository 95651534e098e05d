# alloctag plot: one self-contained page (nothing fetched, no script) with
# the chart and the table, from a timeline and from a report; timelines of
# another version, truncated or inconsistent are refused.  (What the page
# looks like in a browser: make check-live.)
. "$TOP/testsuite/tool/lib.sh"

# data/rise-and-fall.timeline: 101 samples over 10 s; a.c:10 holds 1 MiB
# throughout, b.c:20 rises to 500 KiB at 5 s and falls back to nothing.
page=$TWORK/rise.html
if "$AT" plot -o "$page" "$TDATA/rise-and-fall.timeline"; then
	problems=
	grep -qiE '<script|src=|href=|url\(|@import' "$page" && problems="$problems fetches-or-scripts"
	[ "$(grep -o 'http[s]*://[^"]*' "$page" | sort -u)" = "http://www.w3.org/2000/svg" ] ||
		problems="$problems links"
	[ "$(grep -c '<polyline' "$page")" = 3 ] || problems="$problems polylines"
	[ "$(grep -c '<tr>' "$page")" = 3 ] || problems="$problems rows"
	grep -q '>peak 1.5 MiB at 5.00 s</text>' "$page" || problems="$problems peak"
	grep -q '101 samples over 10.00 s (one every 100 ms); peak 1.5 MiB at 5.00 s; at exit 1.0 MiB in 101 blocks; 2 sites.' \
		"$page" || problems="$problems summary"
	grep -q '<td class="l">b.c:20:7</td><td class="l">fb</td><td class="l"></td><td class="l">libb.so</td><td>0</td><td>100</td><td>10,000</td><td>200</td><td>512,000</td><td>512,000</td>' \
		"$page" || problems="$problems table"
	[ -z "$problems" ] && pass "tool/plot: a timeline's page" || fail "tool/plot: a timeline's page" "$problems"
else
	fail "tool/plot: a timeline's page" "plot failed"
fi

if "$AT" plot -o "$TWORK/report.html" "$TDATA/before.full" &&
   [ "$(grep -c '<rect' "$TWORK/report.html")" = 5 ] && [ "$(grep -c '<tr>' "$TWORK/report.html")" = 6 ]; then
	pass "tool/plot: a report's page (a bar per site)"
else
	fail "tool/plot: a report's page (a bar per site)"
fi

at_out "tool/timeline: the peak sample" "allocinfo - version: 1.0
#     <size>  <calls>   <total size> <total calls>  <peak size> <tag info>
     1048576        1        1048576             1      1048576 a.c:10:5 func:fa callee:malloc 
      512000       50         517000           100       512000 b.c:20:7 [libb.so] func:fb " \
	"$AT" snapshot -f full "$TDATA/rise-and-fall.timeline@peak"

T=$TWORK/timelines
mkdir -p "$T"
sed '1s/"alloctag_timeline": 1/"alloctag_timeline": 2/' "$TDATA/rise-and-fall.timeline" > "$T/v2"
at_error "tool/timeline: another version" "$T/v2: a timeline of version 2; this alloctag reads version 1" \
	"$AT" plot -o "$T/p.html" "$T/v2"
head -c 1000 "$TDATA/rise-and-fall.timeline" > "$T/cut"
at_error "tool/timeline: truncated" "$T/cut:14: truncated (the last line has no end)" "$AT" pprof -o "$T/p" "$T/cut"
sed '2d' "$TDATA/rise-and-fall.timeline" > "$T/nosite"
at_error "tool/timeline: a site used before its line" "$T/nosite:3: a sample names a site not defined before it" \
	"$AT" snapshot "$T/nosite"
sed '10s/"t": [0-9]*/"t": 5/' "$TDATA/rise-and-fall.timeline" > "$T/back"
at_error "tool/timeline: time going back" "$T/back:10: a sample earlier than the one before it" \
	"$AT" snapshot "$T/back"
at_error "tool/timeline: @ on a report" "$TDATA/before.full is not a timeline: @peak names a sample of a timeline" \
	"$AT" snapshot "$TDATA/before.full@peak"
at_error "tool/timeline: a sample before the first" \
	"$TDATA/rise-and-fall.timeline@-1s: name a sample as @last, @peak or @SECONDS" \
	"$AT" snapshot "$TDATA/rise-and-fall.timeline@-1s"
