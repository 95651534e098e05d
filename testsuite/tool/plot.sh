# alloctag plot: one self-contained page (nothing fetched, no script) with
# the chart and the table, from a timeline and from a report; timelines of
# another version, truncated or inconsistent are refused.  (What the page
# looks like in a browser: make check-live.)
. "$TOP/testsuite/tool/lib.sh"

# data/rise-and-fall.timeline: 101 samples over 10 s; a.c:10 holds 1 MiB
# throughout, b.c:20 rises to 500 KiB at 5 s and falls back to nothing.
page=$TWORK/rise.html
# section ID of the page: its SVG and legend.
section() { sed -n "/<section class=\"chart[ a-z]*\" id=\"$1\">/,/<\/section>/p" "$page"; }
if "$AT" plot -o "$page" "$TDATA/rise-and-fall.timeline"; then
	problems=
	grep -qiE '<script|src=|href="[^#]|url\(|@import' "$page" && problems="$problems fetches-or-scripts"
	[ "$(grep -o 'http[s]*://[^"]*' "$page" | sort -u)" = "http://www.w3.org/2000/svg" ] ||
		problems="$problems links"
	[ "$(section live-linear-lines | grep -c '<polyline')" = 3 ] || problems="$problems polylines"
	[ "$(grep -c '<tr>' "$page")" = 3 ] || problems="$problems rows"
	section live-linear-lines | grep -q '>peak 1.5 MiB at 5.00 s</text>' || problems="$problems peak"
	grep -q '101 samples over 10.00 s (one every 100 ms); peak 1.5 MiB at 5.00 s; at exit 1.0 MiB in 101 blocks; 2 sites.' \
		"$page" || problems="$problems summary"
	grep -q '<td class="l">b.c:20:7</td><td class="l">fb</td><td class="l"></td><td class="l">libb.so</td><td title="0 bytes">0 B</td><td title="100">100</td><td title="10,000 bytes">9.8 KiB</td><td title="200">200</td><td title="512,000 bytes">500 KiB</td><td title="512,000 bytes">500 KiB</td>' \
		"$page" || problems="$problems table"
	[ -z "$problems" ] && pass "tool/plot: a timeline's page" || fail "tool/plot: a timeline's page" "$problems"
else
	fail "tool/plot: a timeline's page" "plot failed"
fi
# Eight views, the default last (a view the address names hides it: CSS
# :target), each with the links to the others; lines or stacked areas.
ids=$(grep -o '<section class="chart[ a-z]*" id="[a-z-]*"' "$page" | sed 's/.*id="//; s/"$//' | tr '\n' ' ')
at_out "tool/plot: the views, the default last" \
	"rate-linear-lines rate-linear-stacked rate-log-lines rate-log-stacked live-linear-stacked live-log-lines live-log-stacked live-linear-lines " \
	echo "$ids"
stacked=$(section live-log-stacked)
at_out "tool/plot: stacked: an area a site and one for the rest, the total's line" "3 1" \
	echo "$(grep -c '<polygon' <<< "$stacked") $(grep -c '<polyline' <<< "$stacked")"
at_out "tool/plot: a view's links, the one shown marked" \
	'<div class="menu"><span>show</span><a href="#live-log-stacked">live bytes</a><a href="#rate-log-stacked" class="on">bytes allocated per second</a> <span>scale</span><a href="#rate-linear-stacked">linear</a><a href="#rate-log-stacked" class="on">log</a> <span>as</span><a href="#rate-log-lines">lines</a><a href="#rate-log-stacked" class="on">stacked areas</a></div>' \
	sh -c "grep -A1 'id=\"rate-log-stacked\"' '$page' | tail -n 1"
# Log scale: powers of two from the smallest value to the largest.
ticks=$(section live-log-lines | sed -n 's/.*text-anchor="end">\([^<]*\)<\/text>/\1/p' | tr '\n' ' ')
at_out "tool/plot: a log scale's ticks" "8 KiB 16 KiB 32 KiB 64 KiB 128 KiB 256 KiB 512 KiB 1 MiB 2 MiB " echo "$ticks"

# No -o: a name of its own, said on stdout.
at_out "tool/plot: no -o: NAME.html, said" "rise-and-fall.html" sh -c "cd '$TWORK' && '$AT' plot '$TDATA/rise-and-fall.timeline'"
check "tool/plot: no -o: the page is there" test -s "$TWORK/rise-and-fall.html"

# Two runs on one page: the total of each over time; a table of each's bytes.
"$AT" plot -o "$TWORK/two.html" "$TDATA/rise-and-fall.timeline" "$TDATA/rise-and-fall.timeline" &&
	got=$(grep -c '<polyline' "$TWORK/two.html")-$(grep -o '<section class="chart[ a-z]*" id="[a-z-]*"' "$TWORK/two.html" | wc -l)-$(grep -o '<th>live bytes, [AB]</th>' "$TWORK/two.html" | wc -l)
at_out "tool/plot: two timelines: 4 views of 2 lines, a table of both" "8-4-2" echo "${got-}"
"$AT" plot -o "$TWORK/mixed.html" "$TDATA/before.full" "$TDATA/after.json" "$TDATA/rise-and-fall.timeline" &&
	got=$(grep -c '<rect' "$TWORK/mixed.html")
at_out "tool/plot: a report, a report and a timeline: a bar per run for each site" "15" echo "${got-}"

if "$AT" plot -o "$TWORK/report.html" "$TDATA/before.full" &&
   [ "$(grep -c '<rect' "$TWORK/report.html")" = 5 ] && [ "$(grep -c '<tr>' "$TWORK/report.html")" = 6 ]; then
	pass "tool/plot: a report's page (a bar per site)"
else
	fail "tool/plot: a report's page (a bar per site)"
fi

at_out "tool/timeline: the peak sample" "allocinfo - version: 2.0
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
at_error "tool/timeline: a negative time" \
	"$TDATA/rise-and-fall.timeline@-1s: name a sample as @last, @peak or @SECONDS" \
	"$AT" snapshot "$TDATA/rise-and-fall.timeline@-1s"
# A first sample 240 us in, as record's is: @0, however written, and any
# time before it name it.
sed '4s/"t": 0,/"t": 240000,/' "$TDATA/rise-and-fall.timeline" > "$T/late"
first=$("$AT" snapshot -f full "$T/late@0.24ms")
for when in 0 0s 0.0s 100us; do
	at_out "tool/timeline: @$when, before the first sample, is the first" "$first" \
		"$AT" snapshot -f full "$T/late@$when"
done
at_error "tool/timeline: a sample past the end" \
	"$TDATA/rise-and-fall.timeline@99s: past the end of the timeline, which is 10.100 s long" \
	"$AT" snapshot "$TDATA/rise-and-fall.timeline@99s"
