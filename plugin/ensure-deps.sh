#!/bin/sh
# Make sure compiler $1 (gcc, gcc-11, gcc-12, ...) and its GCC plugin headers
# are installed; on Debian, install what is missing with apt-get and say so.
# Further arguments are extra Debian packages wanted as well.
set -e
cc=${1:-gcc}
shift || true

want="$*"
if ! command -v "$cc" >/dev/null 2>&1; then
	case $cc in
	gcc-[0-9]*) want="$want $cc" ;;
	*) echo "alloctag: compiler '$cc' not found" >&2; exit 1 ;;
	esac
fi

plugin_headers_ok() {
	command -v "$cc" >/dev/null 2>&1 &&
		test -e "$("$cc" -print-file-name=plugin)/include/plugin-version.h"
}

if ! plugin_headers_ok; then
	major=$( (command -v "$cc" >/dev/null && "$cc" -dumpversion) || echo "${cc#gcc-}")
	major=${major%%.*}
	want="$want gcc-$major-plugin-dev libgmp-dev"
fi

missing=
for p in $want; do
	dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
done
[ -z "$missing" ] && exit 0

if ! command -v apt-get >/dev/null 2>&1; then
	echo "alloctag: please install:$missing (GCC plugin headers for $cc)" >&2
	exit 1
fi
sudo=
[ "$(id -u)" = 0 ] || sudo=sudo
echo "alloctag: installing$missing with apt-get"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get install -y -q $missing >/dev/null 2>&1 ||
	{ $sudo apt-get update -q >/dev/null && $sudo apt-get install -y -q $missing >/dev/null; }
plugin_headers_ok || { echo "alloctag: $cc plugin headers still missing" >&2; exit 1; }
