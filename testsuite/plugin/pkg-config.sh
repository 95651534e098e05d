# make install writes alloctag.pc: pkg-config --cflags --libs alloctag gives
# the plugin, the runtime's headers and liballoctag of the installation, and
# a program built with plain gcc and those flags is tagged.  (CMake and
# Meson projects built with it: make check-builds.)  pkg-config (Debian's
# pkgconf) is installed with apt-get where missing.
pc_check() {
	local root=$WORK/pc/root prefix=/opt/alloctag plugindir=/opt/alloctag/gcc-plugins want got
	rm -rf "$WORK/pc" && mkdir -p "$WORK/pc"
	make -C "$TOP" --no-print-directory -s CC="$TESTCC" install DESTDIR="$root" \
		PREFIX="$prefix" PLUGINDIR="$plugindir" >/dev/null || return 1
	want="-fplugin=$plugindir/alloctag.so -isystem$prefix/include -fplugin-arg-alloctag-runtime=outermost"
	want="$want -fplugin-arg-alloctag-tag-file=$prefix/share/alloctag/alloctag-libc.tags"
	want="$want -L$prefix/lib -Wl,-rpath,$prefix/lib -lalloctag"
	got=$(PKG_CONFIG_LIBDIR="$root$prefix/lib/pkgconfig" pkg-config --cflags --libs alloctag) ||
		return 1
	[ "$got" = "$want " ] || [ "$got" = "$want" ] ||
		{ echo "pkg-config --cflags --libs alloctag: $got"; echo "expected: $want"; return 1; }
	got=$(PKG_CONFIG_LIBDIR="$root$prefix/lib/pkgconfig" pkg-config --modversion --variable=plugin alloctag)
	want="$(sed -n 's/^VERSION := //p' "$TOP/Makefile")
$plugindir/alloctag.so"
	[ "$got" = "$want" ] || { echo "version and plugin: $got"; echo "expected: $want"; return 1; }
}

# Installed under a prefix of its own: gcc with pkg-config's flags builds a
# program whose report names its call site.
pc_build_check() {
	local p=$WORK/pc/prefix
	make -C "$TOP" --no-print-directory -s CC="$TESTCC" install DESTDIR= PREFIX="$p" \
		PLUGINDIR="$p/plugin" >/dev/null || return 1
	printf '#include <string.h>\nint main(void) { return !strdup("four"); }\n' > "$WORK/pc/m.c"
	export PKG_CONFIG_LIBDIR="$p/lib/pkgconfig"
	(cd "$WORK/pc" && "$TESTCC" -O2 $(pkg-config --cflags alloctag) -o m m.c $(pkg-config --libs alloctag)) ||
		{ unset PKG_CONFIG_LIBDIR; return 1; }
	unset PKG_CONFIG_LIBDIR
	(cd "$WORK/pc" && ALLOCTAG_REPORT=report ./m) || return 1
	grep -qx '           5        1 m.c:2 func:main ' "$WORK/pc/report" ||
		{ echo "report:"; cat "$WORK/pc/report"; return 1; }
}

if ! ensure_deps pkgconf || ! command -v pkg-config >/dev/null; then
	skip install/pkg-config "pkg-config could not be installed: $DEPS_OUT"
	skip install/pkg-config-build "pkg-config could not be installed"
else
	check install/pkg-config pc_check
	check install/pkg-config-build pc_build_check
fi
