# ccache both ways: around alloctag-cc ("ccache alloctag-cc", with ccache's
# compiler_check=mtime, its default, and =content) and inside it
# (ALLOCTAG_CC="ccache gcc").  A rebuild is a hit; a changed tags header,
# C library list or plugin is a miss, and the object is always the one a
# compilation without ccache makes.  ccache from Debian, installed with
# apt-get where missing.
#
# Each way works on its own installation (make install of a copy of the
# build), so that its headers and its plugin can be changed.
d=$WORK/ccache
rm -rf "$d" && mkdir -p "$d"

# ccache_install: $d/p, installed from the copy $d/b of this build.
ccache_install() {
	make -C "$TOP" --no-print-directory -s CC="$TESTCC" B="$d/b" install DESTDIR= \
		PREFIX="$d/p" PLUGINDIR="$d/p/plugin" >"$d/install.log" 2>&1 ||
		{ cat "$d/install.log"; return 1; }
}

# ccache_fresh: a new installation (a copy of the one made first, in
# $d/pristine) and a new cache, the tags header tagging nothing yet.
ccache_fresh() {
	if [ ! -d "$d/pristine" ]; then
		cp -a "$TOP/build/$TESTCC" "$d/b" && ccache_install &&
			mkdir "$d/pristine" && mv "$d/b" "$d/p" "$d/pristine/" || return 1
	fi
	rm -rf "$d/b" "$d/p" "$d/cache" && cp -a "$d/pristine/b" "$d/pristine/p" "$d/" || return 1
	printf '/* the project'"'"'s allocators: none tagged yet */\n' > "$d/tags.h"
}

cat > "$d/t.c" <<'C'
#include <stdlib.h>
#include <string.h>
void *xalloc(size_t n);
char *copy(const char *s) { return strdup(s); }
void *room(size_t n) { return xalloc(n); }
C

# ccache_compile WAY WANT: compile t.c the WAY's way ("outer", "content",
# "inner") and expect WANT ("hit" or "miss"), and the object a compilation
# without ccache makes (ref.o).
ccache_compile() {
	local way=$1 want=$2 before counts atcc="$d/p/bin/alloctag-cc"
	local args="-O1 --alloctag-tags=$d/tags.h -c t.c"
	(cd "$d" && "$atcc" $args -o ref.o) || return 1
	before=$(ccache_counts)
	case $way in
	outer) (cd "$d" && ccache "$atcc" $args -o t.o) ;;
	content) (cd "$d" && CCACHE_COMPILERCHECK=content ccache "$atcc" $args -o t.o) ;;
	inner) (cd "$d" && ALLOCTAG_CC="ccache $TESTCC" "$atcc" $args -o t.o) ;;
	esac || return 1
	counts=$(ccache_since "$before")
	case $want:$counts in
	hit:"1 0" | miss:"0 1") ;;
	*) echo "$way: expected a $want, ccache counted hits, misses: $counts"; return 1 ;;
	esac
	cmp -s "$d/t.o" "$d/ref.o" || { echo "$way: after a $want, not the object alloctag-cc makes"; return 1; }
}

# ccache_way WAY: the sequence of changes, each a miss, then a hit.
ccache_way() {
	local way=$1
	ccache_fresh || return 1
	ccache_compile "$way" miss && ccache_compile "$way" hit || return 1
	# The tags header now tags xalloc.
	printf 'void *xalloc(unsigned long) __attribute__((alloc_tagged));\n' > "$d/tags.h"
	ccache_compile "$way" miss && ccache_compile "$way" hit || { echo "(tags header changed)"; return 1; }
	nm "$d/t.o" | grep -q ' U xalloc_noprof$' || { echo "$way: xalloc not tagged"; return 1; }
	# An installed driver whose C library list no longer tags strdup.
	sed -i '/^libc_functions=/s/strdup:strdup_noprof,//' "$d/p/bin/alloctag-cc"
	ccache_compile "$way" miss && ccache_compile "$way" hit || { echo "(C library list changed)"; return 1; }
	nm "$d/t.o" | grep -q ' U strdup$' || { echo "$way: strdup still tagged"; return 1; }
	# Another plugin, installed.
	printf '\0' >> "$d/b/alloctag.so"
	ccache_install && ccache_compile "$way" miss && ccache_compile "$way" hit ||
		{ echo "(plugin changed)"; return 1; }
}

if ! ensure_deps ccache || ! command -v ccache >/dev/null; then
	skip ccache/around-alloctag-cc "ccache could not be installed: $DEPS_OUT"
	skip ccache/around-alloctag-cc-content "ccache could not be installed"
	skip ccache/inside-alloctag-cc "ccache could not be installed"
else
	# A cache and a configuration of its own: none of the user's settings.
	export CCACHE_DIR="$d/cache" CCACHE_CONFIGPATH="$d/ccache.conf"
	: > "$d/ccache.conf"
	check ccache/around-alloctag-cc ccache_way outer
	check ccache/around-alloctag-cc-content ccache_way content
	check ccache/inside-alloctag-cc ccache_way inner
	unset CCACHE_DIR CCACHE_CONFIGPATH
fi
