#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# make check-kernel: Linux 6.12 (Debian's linux-source-6.12) built twice, with
# the kernel's alloc_hooks() macros and with the alloctag plugin (the tree
# converted by kernel/convert.py), both booted under QEMU; /proc/allocinfo of
# the two must list the same tags with the same counters, up to what differs
# between two boots of one kernel.  All of it with each compiler: by default
# the host's GCC 12 and GCC 14, which Debian 12 does not have: a compiler
# that is not installed here builds in its Debian root (compilers/root: gcc-13
# and gcc-14 in trixie, gcc-15 and gcc-16 in sid), the rest runs here.
#
# Installs with apt-get what is missing: linux-source-6.12 qemu-system-x86
# busybox-static python3 xz-utils, and for a compiler of this machine flex
# bison bc libelf-dev cpio and its plugin headers (plugin/ensure-deps.sh);
# a root holds them already.
#
# Environment:
#   ALLOCTAG_KERNEL_CCS    the compilers (default: "$CC gcc-14")
#   ALLOCTAG_KERNEL_WORK   work folder (default .cache/kernel, git-ignored)
#   ALLOCTAG_KERNEL_FRESH  1: rebuild the macro kernels even if cached
#   JOBS                   make -j (default: number of CPUs)
#   CC                     the compiler of this machine (default gcc)
#
# Output: details, one line 'PASS: kernel: CC: ...', 'FAIL: ...' or 'SKIP: ...'
# per check, and last 'N passed, N failed, N skipped'; exit 1 on a failure.
# A step that fails ends the checks of its compiler, not those of the others.
set -u

TOP=$(cd "$(dirname "$0")/.." && pwd)
WORK=${ALLOCTAG_KERNEL_WORK:-$TOP/.cache/kernel}
JOBS=${JOBS:-$(nproc)}
CC=${CC:-gcc}
KERNEL_CCS=${ALLOCTAG_KERNEL_CCS:-$CC gcc-14}
TARBALL=/usr/src/linux-source-6.12.tar.xz
HOST_PACKAGES="linux-source-6.12 qemu-system-x86 busybox-static python3 xz-utils"
BUILD_PACKAGES="flex bison bc libelf-dev cpio"	# in every root already
# tinyconfig plus what booting, profiling and modules need.  SMP puts the
# counters in .data..percpu, where they must be for per_cpu_ptr().
CONFIG="64BIT SMP PRINTK TTY SERIAL_8250 SERIAL_8250_CONSOLE PROC_FS BLK_DEV_INITRD
	DEVTMPFS BINFMT_ELF BINFMT_SCRIPT MEM_ALLOC_PROFILING
	MEM_ALLOC_PROFILING_ENABLED_BY_DEFAULT GCC_PLUGINS MODULES MODULE_UNLOAD
	RUNTIME_TESTING_MENU"
MODULE_CONFIG="TEST_MEMINIT"		# an in-tree module (lib/test_meminit.c)
BOOTS=3					# boots of each kernel for the counters
APPEND="console=ttyS0 panic=-1 loglevel=1 init_on_alloc=1 init_on_free=1"
RESULTS=$WORK/results			# one line per check, counted at the end
START=$(date +%s)
CCNAME=				# the compiler whose checks run, in check names

result() {
	echo "$1: kernel: ${CCNAME:+$CCNAME: }$2"
	echo "$1" >>"$RESULTS"
}
pass() { result PASS "$1"; }
fail() { result FAIL "$1"; }
skip() { result SKIP "$1"; }
finish() {
	local n
	n() { grep -c "^$1\$" "$RESULTS"; }
	echo "check-kernel took $(( $(date +%s) - START )) s"
	echo "$(n PASS) passed, $(n FAIL) failed, $(n SKIP) skipped"
	[ "$(n FAIL)" = 0 ]
	exit
}
# A check that cannot run makes those after it pointless: the end of its
# log (LOG), the failure, and the end of this compiler's checks (each runs
# in a subshell) or, before them, of all.
abort() {
	[ -n "${2:-}" ] && tail -n 25 "$2" | sed 's/^/    /'
	fail "$1"
	[ -n "$CCNAME" ] && exit 1
	finish
}

# run SECONDS LOG CMD...: CMD under a timeout, output to LOG.  In this
# process group (--foreground), so that an interrupt reaches it too (make
# passes a timeout's TERM on to its jobs, compilers/root to its root).
run() {
	local secs=$1 log=$2
	shift 2
	timeout --foreground "$secs" "$@" >"$log" 2>&1
}

# ------------------------------------------------------------------- packages
# The host's packages, and the compilers': installed here, or in a root.
deps() {
	local log=$WORK/deps.log cc suite
	# shellcheck disable=SC2086
	if run 900 "$log" sh "$TOP/plugin/ensure-deps.sh" "$CC" $HOST_PACKAGES; then
		grep -h "installing" "$log"
		pass "packages: $HOST_PACKAGES"
	else
		abort "packages (see $log)" "$log"
	fi
	readelf -l /bin/busybox 2>/dev/null | grep -q INTERP &&
		abort "packages: /bin/busybox is not static (install busybox-static)"
	[ -r "$TARBALL" ] || abort "packages: no $TARBALL"
	for cc in $KERNEL_CCS; do
		if command -v "$cc" >/dev/null; then
			# shellcheck disable=SC2086
			run 900 "$log" sh "$TOP/plugin/ensure-deps.sh" "$cc" $BUILD_PACKAGES ||
				abort "packages for $cc (see $log)" "$log"
			grep -h "installing" "$log"
		elif suite=$("$TOP/compilers/root" --suite "$cc" 2>&1); then
			run 900 "$log" "$TOP/compilers/root" "$suite" ||
				abort "the $suite root for $cc (see $log)" "$log"
			cat "$log"
		else
			abort "$cc: not installed here, and $suite"
		fi
	done
	pass "compilers: $KERNEL_CCS"
}

# use_compiler CC: IN (how commands run with CC: here, or in its root) and
# KMAKE (make with CC, and the g++ of the same GCC for the kernel's plugins).
use_compiler() {
	local cc=$1 cxx=${1/gcc/g++} suite
	CCNAME=$cc
	IN=()
	if ! command -v "$cc" >/dev/null; then
		suite=$("$TOP/compilers/root" --suite "$cc")
		IN=("$TOP/compilers/root")
		case $WORK/ in "$TOP"/*) ;; *) IN+=(--bind "$WORK") ;; esac
		IN+=("$suite")
	fi
	"${IN[@]}" sh -c "command -v '$cxx'" >/dev/null 2>&1 || cxx=g++
	KMAKE=("${IN[@]}" make CC="$cc" HOSTCC="$cc" HOSTCXX="$cxx")
}

# -------------------------------------------------------------- trees, config
# The two source trees, shared by the compilers (O= builds write nothing
# there): as the tarball has it (kept while the tarball is the same), and
# converted by convert.py (made again each run, from this repository).
sources() {
	local m=$WORK/src/macro p=$WORK/src/plugin stamp
	stamp=$(stat -c '%s %Y' "$TARBALL")
	if [ "$(cat "$m.tarball" 2>/dev/null)" != "$stamp" ] || [ ! -d "$m" ]; then
		rm -rf "$m" "$m.tmp" && mkdir -p "$m.tmp" &&
		run 300 "$WORK/extract.log" tar -xf "$TARBALL" -C "$m.tmp" &&
		mv "$m.tmp/linux-source-6.12" "$m" && rm -rf "$m.tmp" &&
		echo "$stamp" >"$m.tarball" || abort "extract $TARBALL" "$WORK/extract.log"
	fi
	rm -rf "$p" && mkdir -p "$p.tmp" &&
	run 300 "$WORK/extract.log" tar -xf "$TARBALL" -C "$p.tmp" &&
	mv "$p.tmp/linux-source-6.12" "$p" && rm -rf "$p.tmp" ||
		abort "extract $TARBALL" "$WORK/extract.log"
	run 300 "$WORK/convert.log" python3 "$TOP/kernel/convert.py" "$p" ||
		abort "convert.py" "$WORK/convert.log"
	cat "$WORK/convert.log"
	run 300 "$WORK/convert2.log" python3 "$TOP/kernel/convert.py" "$p"
	if grep -q " 0 files changed" "$WORK/convert2.log"; then
		pass "convert.py converts the tree, and a second run changes nothing"
	else
		fail "convert.py is not idempotent: $(cat "$WORK/convert2.log")"
	fi
	# The initramfs tool of the tree, built here: it runs here.
	gcc -O2 -o "$WORK/gen_init_cpio" "$m/usr/gen_init_cpio.c" || abort "build usr/gen_init_cpio"
}

# configure SRC OUT [EXTRA...]: tinyconfig plus $CONFIG (y), $MODULE_CONFIG (m).
configure() {
	local src=$1 out=$2 o frag=$2/alloctag.config
	shift 2
	mkdir -p "$out"
	{
		for o in $CONFIG "$@"; do echo "CONFIG_$o=y"; done
		for o in $MODULE_CONFIG; do echo "CONFIG_$o=m"; done
	} >"$frag"
	timeout --foreground 300 "${KMAKE[@]}" -C "$src" O="$out" tinyconfig &&
	timeout --foreground 120 "$src/scripts/kconfig/merge_config.sh" -m -O "$out" "$out/.config" "$frag" &&
	timeout --foreground 300 "${KMAKE[@]}" -C "$src" O="$out" olddefconfig || return 1
	# merge_config.sh only warns when a symbol does not stick
	for o in $CONFIG "$@"; do
		grep -qx "CONFIG_$o=y" "$out/.config" || { echo "CONFIG_$o is not y"; return 1; }
	done
	for o in $MODULE_CONFIG; do
		grep -qx "CONFIG_$o=m" "$out/.config" || { echo "CONFIG_$o is not m"; return 1; }
	done
}

# build KIND: make bzImage modules in $D/KIND/out; its times in KIND/time.
build() {
	local kind=$1 d=$D/$1
	TIMEFORMAT="%R %U %S"
	if ! { time run 1500 "$d/build.log" "${KMAKE[@]}" -C "$WORK/src/$kind" O="$d/out" \
			-j"$JOBS" bzImage modules ; } 2>"$d/time.raw"; then
		abort "build with the $kind (see $d/build.log)" "$d/build.log"
	fi
	# wall, user + sys
	awk '{ printf "%.0f %.0f\n", $1, $2 + $3 }' "$d/time.raw" >"$d/time"
	grep -E "(warning|error):" "$d/build.log" | head -n 20 >"$d/warnings"
	pass "build with the $kind: $(cut -d' ' -f1 "$d/time") s, $JOBS jobs$([ -s "$d/warnings" ] &&
		echo ", $(wc -l <"$d/warnings") warnings (see $d/warnings)")"
}

# The macro kernel does not depend on this repository: reuse an earlier build
# of the same source, configuration and compiler.
macro_key() {
	{
		stat -c '%s %Y' "$TARBALL"
		echo "$CONFIG $MODULE_CONFIG $JOBS ${KMAKE[*]}"
		"${IN[@]}" "$CCNAME" --version | head -n 1
		declare -f configure build
	} | sha256sum | cut -d' ' -f1
}

prepare() {
	local kind=$1 d=$D/$1
	rm -rf "$d"
	mkdir -p "$d"
	if [ "$kind" = plugin ]; then
		configure "$WORK/src/plugin" "$d/out" GCC_PLUGIN_ALLOC_TAG >"$d/config.log" 2>&1 ||
			abort "configure the plugin kernel (see $d/config.log)" "$d/config.log"
	else
		configure "$WORK/src/macro" "$d/out" >"$d/config.log" 2>&1 ||
			abort "configure the macro kernel (see $d/config.log)" "$d/config.log"
		grep -q GCC_PLUGIN_ALLOC_TAG "$d/out/.config" && abort "the macro kernel has GCC_PLUGIN_ALLOC_TAG"
	fi
}

# -------------------------------------------------------------- module, boot
# The test module (kernel/testmod), built from one folder for both kernels,
# so that its absolute file name is the same in the tags of both.
extmod() {
	local kind=$1 d=$D/$1 m=$WORK/extmod
	rm -rf "$m" && mkdir -p "$m" && cp "$TOP"/kernel/testmod/* "$m/"
	run 300 "$d/extmod.log" "${KMAKE[@]}" -C "$d/out" M="$m" modules &&
		cp "$m/alloctag_test.ko" "$d/" ||
		abort "build kernel/testmod for the $kind kernel" "$d/extmod.log"
}

initramfs() {
	local d=$D/$1 r=$D/$1/initramfs
	mkdir -p "$r"
	cat >"$r/init" <<-'EOF'
	#!/bin/busybox sh
	/bin/busybox mount -t proc proc /proc
	for m in /lib/modules/*.ko; do
		/bin/busybox insmod "$m" || echo "alloctag-check: insmod $m failed"
	done
	echo "alloctag-check: allocinfo begin"
	/bin/busybox cat /proc/allocinfo
	echo "alloctag-check: allocinfo end"
	/bin/busybox reboot -f
	EOF
	cat >"$r/list" <<-EOF
	dir /dev 0755 0 0
	nod /dev/console 0600 0 0 c 5 1
	dir /proc 0755 0 0
	dir /bin 0755 0 0
	file /bin/busybox /bin/busybox 0755 0 0
	slink /bin/sh busybox 0777 0 0
	file /init $r/init 0755 0 0
	dir /lib 0755 0 0
	dir /lib/modules 0755 0 0
	file /lib/modules/test_meminit.ko $d/out/lib/test_meminit.ko 0644 0 0
	file /lib/modules/alloctag_test.ko $d/alloctag_test.ko 0644 0 0
	EOF
	"$WORK/gen_init_cpio" "$r/list" >"$d/initramfs.cpio" ||
		abort "initramfs for the $1 kernel"
}

# boot KIND NAME CPUS: /proc/allocinfo of one boot in KIND/NAME.log.
boot() {
	local d=$D/$1 log=$D/$1/$2.log t0
	t0=$(date +%s.%N)
	run 300 "$log" qemu-system-x86_64 -accel tcg -m 256M -smp "$3" -nographic -no-reboot \
		-kernel "$d/out/arch/x86/boot/bzImage" -initrd "$d/initramfs.cpio" -append "$APPEND"
	echo "$(date +%s.%N) $t0" | awk '{ printf "%.1f\n", $1 - $2 }' >>"$d/boot-times"
	if ! grep -q "alloctag-check: allocinfo end" "$log"; then
		abort "boot the $1 kernel ($2): no /proc/allocinfo (see $log)" "$log"
	fi
	if grep -q "alloctag-check: insmod .* failed" "$log"; then
		abort "boot the $1 kernel ($2): $(grep -m1 "insmod .* failed" "$log" | tr -d '\r')" "$log"
	fi
}

# compare [OPTIONS]: compare-allocinfo.py, its results counted as ours.
compare() {
	local out
	out=$(python3 "$TOP/kernel/compare-allocinfo.py" "$@")
	echo "$out" | grep -vE "^(PASS|FAIL): "
	while IFS= read -r line; do
		case $line in
		PASS:*) pass "${line#PASS: }" ;;
		FAIL:*) fail "${line#FAIL: }" ;;
		esac
	done < <(echo "$out" | grep -E "^(PASS|FAIL): ")
}

# ------------------------------------------------------- one compiler's checks
check_with() {
	use_compiler "$1"
	D=$WORK/$1
	mkdir -p "$D"
	if [ ${#IN[@]} = 0 ]; then echo "== $1"; else echo "== $1, in the ${IN[-1]} root"; fi

	local key
	key=$(macro_key)
	if [ "${ALLOCTAG_KERNEL_FRESH:-0}" != 1 ] && [ "$(cat "$D/macro/key" 2>/dev/null)" = "$key" ] &&
	   [ -e "$D/macro/out/arch/x86/boot/bzImage" ] && [ -e "$D/macro/time" ]; then
		echo "macro kernel: reusing the build in $D/macro (same source, config, compiler)"
		macro_cached=" (cached)"
	else
		prepare macro
		build macro
		echo "$key" >"$D/macro/key"
		macro_cached=
	fi
	prepare plugin
	build plugin

	extmod macro
	extmod plugin
	initramfs macro
	initramfs plugin

	# Boots alternate, so that both kernels see the same machine load: with one
	# CPU (fewer timing-dependent kernel threads) for the counters, and once
	# with two CPUs, where counters are summed over CPUs.
	rm -f "$D"/{macro,plugin}/boot-times
	for i in $(seq "$BOOTS"); do
		boot macro "boot$i" 1
		boot plugin "boot$i" 1
	done
	boot macro smp2 2
	boot plugin smp2 2
	pass "boots: $((BOOTS + 1)) of each kernel, modules loaded, /proc/allocinfo read (boot times: macros $(paste -sd' ' "$D/macro/boot-times") s, plugin $(paste -sd' ' "$D/plugin/boot-times") s)"

	echo "== /proc/allocinfo, $BOOTS boots of each kernel with one CPU"
	compare --macro $(seq -f "$D/macro/boot%g.log" "$BOOTS") \
		--plugin $(seq -f "$D/plugin/boot%g.log" "$BOOTS") \
		--module alloctag_test --module test_meminit
	echo "== /proc/allocinfo, a boot of each with two CPUs"
	compare --macro "$D/macro/smp2.log" --plugin "$D/plugin/smp2.log" --no-counters \
		--module alloctag_test --module test_meminit --name "two CPUs"

	# The headers are converted where the plugin is on: the calls of mm/util.c are
	# no alloc_hooks() expansions (those in the headers before the conversion at
	# their end are); DISABLE_ALLOC_TAG_PLUGIN turns the macros back on.
	util_hooks() { grep -o '\.filename = "mm/util.c"' "$1" 2>/dev/null | wc -l; }
	run 300 "$D/macro/util.log" "${KMAKE[@]}" -C "$WORK/src/macro" O="$D/macro/out" mm/util.i
	run 300 "$D/plugin/util.log" "${KMAKE[@]}" -C "$WORK/src/plugin" O="$D/plugin/out" mm/util.i
	local m p n optout
	m=$(util_hooks "$D/macro/out/mm/util.i")
	p=$(util_hooks "$D/plugin/out/mm/util.i")
	n=$(grep -o "alloc_tagged" "$D/plugin/out/mm/util.i" 2>/dev/null | wc -l)
	echo "mm/util.i: $m alloc_hooks() expansions for calls in mm/util.c with the macros, $p with the plugin ($n tagged declarations)"
	if [ "$m" -gt 0 ] && [ "$p" = 0 ] && [ "$n" -gt 0 ]; then
		pass "headers: tagged declarations replace the alloc_hooks() macros (mm/util.i)"
	else
		fail "headers: tagged declarations replace the alloc_hooks() macros (mm/util.i)"
	fi
	# shellcheck disable=SC2016
	optout='CFLAGS_util.o=$(DISABLE_ALLOC_TAG_PLUGIN)'
	rm -f "$D/plugin/out/mm/util.i"
	if run 300 "$D/plugin/optout.log" "${KMAKE[@]}" -C "$WORK/src/plugin" O="$D/plugin/out" \
			"$optout" mm/util.i mm/util.o &&
	   [ "$(util_hooks "$D/plugin/out/mm/util.i")" = "$m" ]; then
		pass "DISABLE_ALLOC_TAG_PLUGIN: mm/util.o built with the macros"
	else
		fail "DISABLE_ALLOC_TAG_PLUGIN: mm/util.o built with the macros (see $D/plugin/optout.log)"
	fi

	# ------------------------------------------------------- size and time
	local mtext mdata mbss ptext pdata pbss mwall mcpu pwall pcpu
	read -r mtext mdata mbss _ < <(size "$D/macro/out/vmlinux" | tail -n 1)
	read -r ptext pdata pbss _ < <(size "$D/plugin/out/vmlinux" | tail -n 1)
	read -r mwall mcpu <"$D/macro/time"
	read -r pwall pcpu <"$D/plugin/time"
	row() { printf "%-24s %12s %12s %+12d\n" "$1" "$2" "$3" "$(($3 - $2))"; }
	printf "%-24s %12s %12s %12s\n" "$1" "macros" "plugin" "difference"
	row "vmlinux text" "$mtext" "$ptext"
	row "vmlinux data" "$mdata" "$pdata"
	row "vmlinux bss" "$mbss" "$pbss"
	row "build wall time (s)" "$mwall" "$pwall"
	row "build CPU time (s)" "$mcpu" "$pcpu"
	[ -n "$macro_cached" ] && echo "(macro build times from an earlier run$macro_cached)"
	# Both kernels run the same code: the plugin's save/restore are the macros'.
	if [ $(( (ptext - mtext) * 1000 / mtext )) -eq 0 ] && [ $(( (mtext - ptext) * 1000 / mtext )) -eq 0 ]; then
		pass "vmlinux text within 0.1% of the macro kernel's ($((ptext - mtext)) bytes)"
	else
		fail "vmlinux text within 0.1% of the macro kernel's ($((ptext - mtext)) bytes)"
	fi
}

# ---------------------------------------------------------------------- main
mkdir -p "$WORK"
: >"$RESULTS"
if [ "$(uname -m)" != x86_64 ]; then
	skip "all: builds an x86_64 kernel with the host's compiler, and this host is $(uname -m)"
	finish
fi
# The layout before several compilers: one macro/ and plugin/ of the host's.
rm -rf "$WORK/macro" "$WORK/plugin"
deps
sources
for cc in $KERNEL_CCS; do
	( check_with "$cc" )
done
finish
