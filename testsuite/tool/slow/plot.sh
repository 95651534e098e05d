# alloctag plot's page in headless Chromium: its screenshot shows the chart
# (the sites' lines where their values put them, the peak where it was) and
# the table (png.py reads the pixels); the DOM Chromium builds has every row.
. "$TOP/testsuite/tool/lib.sh"

if ! command -v chromium >/dev/null || ! command -v python3 >/dev/null; then
	skip "tool/plot: in Chromium" "no chromium or python3"
	return
fi
chrome() {
	chromium --headless --no-sandbox --disable-gpu --disable-background-networking --no-first-run \
		--user-data-dir="$TWORK/chromium" --hide-scrollbars --force-device-scale-factor=1 "$@" 2>/dev/null
}
page=$TWORK/rise.html
"$AT" plot -o "$page" "$TDATA/rise-and-fall.timeline" || { fail "tool/plot: the page" "plot failed"; return; }
rm -f "$TWORK/rise.png"
chrome --window-size=1100,900 --screenshot="$TWORK/rise.png" "file://$page" >/dev/null
if [ ! -s "$TWORK/rise.png" ]; then
	fail "tool/plot: Chromium takes a screenshot" "no $TWORK/rise.png"
elif out=$(python3 "$TOP/testsuite/tool/slow/png.py" "$TWORK/rise.png"); then
	pass "tool/plot: the screenshot shows the chart and the table"
else
	fail "tool/plot: the screenshot shows the chart and the table" "$out" "(screenshot: $TWORK/rise.png)"
fi
dom=$(chrome --dump-dom "file://$page")
rows=$(printf '%s' "$dom" | grep -o '<tr>' | wc -l)
lines=$(printf '%s' "$dom" | grep -o '<polyline' | wc -l)
if [ "$rows" = 3 ] && [ "$lines" = 3 ]; then
	pass "tool/plot: Chromium's DOM has the 3 lines and the 3 rows"
else
	fail "tool/plot: Chromium's DOM has the 3 lines and the 3 rows" "$lines lines, $rows rows"
fi
