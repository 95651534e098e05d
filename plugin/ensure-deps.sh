#!/bin/sh
# Make sure compiler $1 (gcc, gcc-11, gcc-12, ...), its GCC plugin headers
# and, for gcc-N, its g++-N (which builds the plugin, and loads it in the
# C++ tests) are installed; on Debian, install what is missing with apt-get
# and say so.  Further arguments are extra Debian packages wanted as well.
set -e
cc=${1:-gcc}
shift || true

want="$*"
case $cc in
gcc-[0-9]*)
	# Debian's gcc-N, or one to install: then Debian's g++-N too.
	if ! command -v "$cc" >/dev/null 2>&1; then
		want="$want $cc g++-${cc#gcc-}"
	elif ! command -v "g++-${cc#gcc-}" >/dev/null 2>&1 && dpkg -s "$cc" >/dev/null 2>&1; then
		want="$want g++-${cc#gcc-}"
	fi ;;
*)
	command -v "$cc" >/dev/null 2>&1 || { echo "alloctag: compiler '$cc' not found" >&2; exit 1; } ;;
esac

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
# A GCC this system does not package (Debian 12 has gcc-11 and gcc-12): one
# line saying where it is, instead of apt-get's errors.
case $cc in
gcc-[0-9]*)
	if ! command -v "$cc" >/dev/null 2>&1 && ! apt-cache show "$cc" >/dev/null 2>&1; then
		suite=$(bash "$(dirname "$0")/../compilers/root" --suite "$cc" 2>/dev/null) &&
			where="; it is in Debian $suite: compilers/root $suite make CC=$cc builds there"
		echo "alloctag: $cc is not packaged for this system$where" >&2
		exit 1
	fi ;;
esac
sudo=
[ "$(id -u)" = 0 ] || sudo=sudo
echo "alloctag: installing$missing with apt-get"
export DEBIAN_FRONTEND=noninteractive
# another apt-get (make check runs its compilers side by side) is waited for
apt="$sudo apt-get -o DPkg::Lock::Timeout=600"
$apt install -y -q $missing >/dev/null 2>&1 ||
	{ $apt update -q >/dev/null && $apt install -y -q $missing >/dev/null; } ||
	{ echo "alloctag: apt-get install$missing failed" >&2; exit 1; }
plugin_headers_ok || { echo "alloctag: $cc plugin headers still missing" >&2; exit 1; }
