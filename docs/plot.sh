#!/usr/bin/env bash
# make docs/plot.png: the picture of the README's tour, from a real run.
# examples/live/server.c runs 10 s under alloctag record, alloctag plot
# makes the page of its timeline, headless Chromium takes its screenshot
# (as make check-live's checks of the page do: testsuite/tool/slow/).
#
#   docs/plot.sh BUILD PNG       BUILD: build/gcc (alloctag, examples/server)
set -eu
build=$1 png=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. testsuite/tool/slow/chromium.sh
CHROME_PROFILE=$tmp/chromium

# Run from here, as the tour does: the page's title is the program as started.
ALLOCTAG_REPORT=off "$build/alloctag" record -o "$tmp/run.timeline" -- "$build/examples/server" 10 >/dev/null
"$build/alloctag" plot -o "$tmp/run.html" "$tmp/run.timeline" >/dev/null
chrome --window-size=1280,930 --screenshot="$tmp/plot.png" "file://$tmp/run.html" >/dev/null
[ -s "$tmp/plot.png" ] || { echo "docs/plot.sh: Chromium took no screenshot of $tmp/run.html" >&2; exit 1; }
mv "$tmp/plot.png" "$png"
echo "$png: alloctag plot of $build/examples/server 10, $(wc -l < "$tmp/run.timeline") lines of timeline"
