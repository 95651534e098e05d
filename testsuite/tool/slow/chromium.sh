# chrome ARG...: headless Chromium as make check-live's page checks and make
# docs/plot.png run it: no sandbox, no GPU, no network of its own, one CSS
# pixel a pixel, its profile in $CHROME_PROFILE; its own messages dropped.
chrome() {
	chromium --headless --no-sandbox --disable-gpu --disable-background-networking --no-first-run \
		--user-data-dir="$CHROME_PROFILE" --hide-scrollbars --force-device-scale-factor=1 "$@" 2>/dev/null
}
