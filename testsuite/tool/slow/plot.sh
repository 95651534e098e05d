# alloctag plot's page in headless Chromium: its screenshot shows the chart
# (the sites' lines where their values put them, the peak where it was) and
# the table (png.py reads the pixels); the DOM Chromium builds has every row.
. "$TOP/testsuite/tool/lib.sh"

if ! command -v chromium >/dev/null || ! command -v python3 >/dev/null; then
	skip "tool/plot: in Chromium" "no chromium or python3"
	return
fi
. "$TOP/testsuite/tool/slow/chromium.sh"
CHROME_PROFILE=$TWORK/chromium
page=$TWORK/rise.html
"$AT" plot -o "$page" "$TDATA/rise-and-fall.timeline" || { fail "tool/plot: the page" "plot failed"; return; }
# shot NAME PNG WIDTH URL [stacked]: Chromium's screenshot of URL in a window
# WIDTH pixels wide, as png.py reads it.
shot() {
	local name=$1 png=$TWORK/$2 width=$3 url=$4
	shift 4
	rm -f "$png"
	chrome --window-size="$width",900 --screenshot="$png" "$url" >/dev/null
	if [ ! -s "$png" ]; then
		fail "$name" "Chromium took no screenshot: no $png"
	elif out=$(python3 "$TOP/testsuite/tool/slow/png.py" "$png" "$@"); then
		pass "$name"
	else
		fail "$name" "$out" "(screenshot: $png)"
	fi
}
shot "tool/plot: the screenshot shows the chart and the table" rise.png 1100 "file://$page"
# A narrow window: the same chart, as wide as the window.
shot "tool/plot: in a window 600 pixels wide, the chart fits" narrow.png 600 "file://$page"
# Another view, chosen by the page's address (its links): stacked areas.
shot "tool/plot: #live-linear-stacked shows stacked areas" stacked.png 1100 "file://$page#live-linear-stacked" stacked
# Chromium's DOM: 8 views (4 of lines: 3 each; 4 stacked: the total's line), 3 rows.
dom=$(chrome --dump-dom "file://$page")
rows=$(printf '%s' "$dom" | grep -o '<tr>' | wc -l)
lines=$(printf '%s' "$dom" | grep -o '<polyline' | wc -l)
if [ "$rows" = 3 ] && [ "$lines" = 16 ]; then
	pass "tool/plot: Chromium's DOM has the 16 lines and the 3 rows"
else
	fail "tool/plot: Chromium's DOM has the 16 lines and the 3 rows" "$lines lines, $rows rows"
fi
