# make install puts each piece where gcc -fplugin=, #include <alloctag.h> and
# the linker find them; the installed alloctag-cc uses the installed pieces.
install_check() {
	local root=$WORK/install prefix=/opt/alloctag plugindir=/opt/alloctag/gcc-plugins
	rm -rf "$root"
	make -C "$TOP" --no-print-directory -s CC="$TESTCC" install DESTDIR="$root" \
		PREFIX="$prefix" PLUGINDIR="$plugindir" >/dev/null || return 1
	for f in $plugindir/alloctag.so $prefix/include/alloctag.h $prefix/share/alloctag/alloctag-libc.tags \
		 $prefix/lib/liballoctag.a $prefix/lib/liballoctag.so $prefix/bin/alloctag-cc \
		 $prefix/bin/alloctag-c++ $prefix/bin/alloctag; do
		[ -e "$root$f" ] || { echo "missing $f"; return 1; }
	done
	grep -q "^plugin=$plugindir/alloctag.so\$" "$root$prefix/bin/alloctag-cc" || { echo "alloctag-cc paths"; return 1; }
	grep -q "^plugin=$plugindir/alloctag.so\$" "$root$prefix/bin/alloctag-c++" &&
		grep -q "^libc_functions=malloc:malloc_noprof," "$root$prefix/bin/alloctag-c++" ||
		{ echo "alloctag-c++ paths or C library names"; return 1; }
	"$root$prefix/bin/alloctag" --help | grep -q '^  alloctag top ' || { echo "alloctag --help"; return 1; }
	# Usable where it was put (with DESTDIR as the root).
	printf '#include <alloctag.h>\nvoid *f(unsigned long) __alloc_tagged;\nvoid *g(void) { return f(1); }\n' |
		"$TESTCC" -fplugin="$root$plugindir/alloctag.so" -I"$root$prefix/include" -x c -S -o - - |
		grep -q 'f_noprof'
}
check install/destdir install_check
