#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# make check-kernel: Linux (Debian's linux-source-6.12, sid's linux-source-7.2)
# built twice, with the kernel's alloc_hooks() macros and with the alloctag
# plugin (the tree converted by kernel/convert.py), both booted under QEMU;
# /proc/allocinfo of the two must list the same tags with the same counters,
# up to what differs between two boots of one kernel.  One such pair of
# kernels for each version/architecture of ALLOCTAG_KERNEL_TARGETS and each
# compiler of ALLOCTAG_KERNEL_CCS.  A compiler that is not installed here
# builds in its Debian root (compilers/root: gcc-13 and gcc-14 in trixie,
# gcc-15 and gcc-16 in sid), the rest runs here.  arm64 kernels are built
# with Debian's cross compiler of the same GCC (gcc-12 -> aarch64-linux-gnu-gcc-12)
# and booted with qemu-system-aarch64 -M virt.
#
# Installs with apt-get what is missing: qemu-system-x86 busybox-static
# python3 xz-utils, linux-source-6.12 (7.2 comes from Debian sid, by
# kernel/fetch-source, into the work folder), for arm64 qemu-system-arm and
# the cross compiler with its plugin headers (gcc-N-aarch64-linux-gnu
# gcc-N-plugin-dev-aarch64-linux-gnu libc6-dev-arm64-cross), and for a
# compiler of this machine flex bison bc libelf-dev cpio and its plugin
# headers (plugin/ensure-deps.sh); a root holds them already (sid's: GCC 16
# for arm64 too).
#
# Environment:
#   ALLOCTAG_KERNEL_TARGETS  versions/architectures (default "6.12/x86_64
#                            7.2/x86_64 7.2/arm64")
#   ALLOCTAG_KERNEL_CCS      the compilers (default: "$CC")
#   ALLOCTAG_KERNEL_PAIRS    VERSION/ARCH/CC list, instead of every target with
#                            every compiler (make check-kernel-matrix sets it)
#   ALLOCTAG_KERNEL_WORK     work folder (default .cache/kernel, git-ignored)
#   ALLOCTAG_KERNEL_FRESH    1: rebuild the macro kernels even if cached
#   ALLOCTAG_KERNEL_BUILD_TIMEOUT  seconds for one kernel build (default 3600,
#                            14400 for defconfig)
#   ALLOCTAG_KERNEL_BASE     tinyconfig (default) or defconfig, the configuration
#                            the options below are added to; defconfig's pairs
#                            work in VERSION-ARCH-CC-defconfig (make
#                            check-kernel-defconfig: at scale, not in CI)
#   JOBS                     make -j (default: number of CPUs)
#   CC                       the compiler of this machine (default gcc)
#
# Output: details, one line 'PASS: kernel: VERSION ARCH CC: ...', 'FAIL: ...'
# or 'SKIP: ...' per check, then one line per pair of kernels, 'PAIR PASS:
# linux VERSION ARCH CC: N passed, N failed in N min' (or PAIR FAIL), and last
# 'N passed, N failed, N skipped'; exit 1 on a failure.  A step that fails
# ends the checks of its pair, not those of the others.
set -u

TOP=$(cd "$(dirname "$0")/.." && pwd)
. "$TOP/kernel/checkpatch.sh"
WORK=${ALLOCTAG_KERNEL_WORK:-$TOP/.cache/kernel}
JOBS=${JOBS:-$(nproc)}
CC=${CC:-gcc}
KERNEL_CCS=${ALLOCTAG_KERNEL_CCS:-$CC}
# What CI runs: one pair each of 6.12 x86_64, 7.2 x86_64 and 7.2 arm64, with
# the host's GCC (about 8 minutes a pair on two idle cores).
TARGETS=${ALLOCTAG_KERNEL_TARGETS:-6.12/x86_64 7.2/x86_64 7.2/arm64}
HOST_PACKAGES="qemu-system-x86 busybox-static python3 xz-utils"
BUILD_PACKAGES="flex bison bc libelf-dev cpio"	# in every root already
# tinyconfig plus what booting, profiling and modules need (and the serial
# console of each architecture, ARCH_CONFIG).  SMP puts the counters in
# .data..percpu, where they must be for per_cpu_ptr().  With
# MEM_ALLOC_PROFILING_DEBUG an allocation without a tag warns.
CONFIG="SMP PRINTK TTY PROC_FS BLK_DEV_INITRD DEVTMPFS BINFMT_ELF BINFMT_SCRIPT
	MEM_ALLOC_PROFILING MEM_ALLOC_PROFILING_ENABLED_BY_DEFAULT MEM_ALLOC_PROFILING_DEBUG
	GCC_PLUGINS MODULES MODULE_UNLOAD RUNTIME_TESTING_MENU"
MODULE_CONFIG="TEST_MEMINIT"		# an in-tree module (lib/test_meminit.c)
# Boots of each kernel for the counters.  On x86_64 a boot's total varies by
# up to 80 KiB (page faults of init, page-table pages, slab pages), and with
# three boots of each of two identical kernels the two ranges land further
# apart than either range is wide in about 1 run of 90 (resampled from 24
# boots of 7.2; it failed one CI run).  With five, about 1 in 10,000.
BOOTS=5
# A build takes 4 to 6 minutes on 2 idle cores, 15 to 30 when they are shared.
BASE=${ALLOCTAG_KERNEL_BASE:-tinyconfig}
case $BASE in
tinyconfig) BASE_SUFFIX= BUILD_TIMEOUT=3600 BOOT_TIMEOUT=300 ;;
defconfig) BASE_SUFFIX=-defconfig BUILD_TIMEOUT=14400 BOOT_TIMEOUT=900 ;;
*) echo "kernel/check-kernel.sh: ALLOCTAG_KERNEL_BASE=$BASE is neither tinyconfig nor defconfig" >&2
   exit 2 ;;
esac
BUILD_TIMEOUT=${ALLOCTAG_KERNEL_BUILD_TIMEOUT:-$BUILD_TIMEOUT}
RESULTS=$WORK/results			# one line per check, counted at the end
START=$(date +%s)
CCNAME=				# the pair whose checks run, in check names

result() {
	echo "$1: kernel: ${CCNAME:+$CCNAME: }$2"
	echo "$1 $CCNAME" >>"$RESULTS"
}
pass() { result PASS "$1"; }
fail() { result FAIL "$1"; }
skip() { result SKIP "$1"; }
finish() {
	local n pair p f s what
	n() { grep -c "^$1 " "$RESULTS"; }
	# One line per pair of kernels: its checks and minutes.
	for pair in $PAIRS; do
		pair=${pair//\// }
		p=$(grep -cxF "PASS $pair" "$RESULTS")
		f=$(grep -cxF "FAIL $pair" "$RESULTS")
		s=$(grep -cxF "SKIP $pair" "$RESULTS")
		if [ "$f" != 0 ]; then what=FAIL; elif [ "$p" != 0 ]; then what=PASS;
		elif [ "$s" != 0 ]; then what=SKIP; else what="FAIL (not run)"; fi
		echo "PAIR $what: linux $pair: $p passed, $f failed, $s skipped" \
			"in $(cat "$WORK/${pair// /-}/minutes" 2>/dev/null || echo "?") min"
	done
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
# cross_cc ARCH CC: the compiler building ARCH's kernels for CC: CC itself
# for x86_64, Debian's cross compiler of the same GCC for arm64.
cross_cc() {
	local major
	case $1 in
	x86_64) echo "$2" ;;
	arm64)
		major=${2##*gcc-}
		[ "$major" = "$2" ] && major=$("$2" -dumpversion 2>/dev/null | cut -d. -f1)
		echo "aarch64-linux-gnu-gcc-$major" ;;
	esac
}

# The host's packages, and the compilers': installed here, or in a root.
deps() {
	local log=$WORK/deps.log cc suite pair pkgs=$HOST_PACKAGES cross ccs
	case " $PAIRS" in *" 6.12/"*) pkgs="$pkgs linux-source-6.12" ;; esac
	case "$PAIRS" in */arm64/*) pkgs="$pkgs qemu-system-arm" ;; esac
	# shellcheck disable=SC2086
	if run 900 "$log" sh "$TOP/plugin/ensure-deps.sh" "$CC" $pkgs; then
		grep -h "installing" "$log"
		pass "packages: $pkgs"
	else
		abort "packages (see $log)" "$log"
	fi
	readelf -l /bin/busybox 2>/dev/null | grep -q INTERP &&
		abort "packages: /bin/busybox is not static (install busybox-static)"
	ccs=$(for pair in $PAIRS; do echo "${pair##*/}"; done | awk '!seen[$0]++')
	for cc in $ccs; do
		if command -v "$cc" >/dev/null; then
			pkgs=$BUILD_PACKAGES
			case " $PAIRS " in *"/arm64/$cc "*)
				cross=$(cross_cc arm64 "$cc")
				pkgs="$pkgs ${cross#aarch64-linux-gnu-}-aarch64-linux-gnu"
				pkgs="$pkgs ${cross#aarch64-linux-gnu-}-plugin-dev-aarch64-linux-gnu libc6-dev-arm64-cross"
			esac
			# shellcheck disable=SC2086
			run 900 "$log" sh "$TOP/plugin/ensure-deps.sh" "$cc" $pkgs ||
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
	pass "compilers: $(paste -sd" " <<<"$ccs")"
}

# use_pair VERSION ARCH CC: IN (how commands run with CC: here, or in its
# root), KMAKE (make with CC or its cross compiler, and the g++ of the same
# GCC for the kernel's plugins) and what differs between architectures.
use_pair() {
	local version=$1 arch=$2 cc=$3 cxx=${3/gcc/g++} suite
	CCNAME="$version $arch $cc"
	SRC=$WORK/src/$version
	D=$WORK/$version-$arch-$cc$BASE_SUFFIX
	IN=()
	if ! command -v "$cc" >/dev/null; then
		suite=$("$TOP/compilers/root" --suite "$cc")
		IN=("$TOP/compilers/root")
		case $WORK/ in "$TOP"/*) ;; *) IN+=(--bind "$WORK") ;; esac
		IN+=("$suite")
	fi
	"${IN[@]}" sh -c "command -v '$cxx'" >/dev/null 2>&1 || cxx=g++
	KCC=$(cross_cc "$arch" "$cc")
	KARCH=$arch
	case $arch in
	x86_64)
		KMAKE=("${IN[@]}" make CC="$cc" HOSTCC="$cc" HOSTCXX="$cxx")
		ARCH_CONFIG="64BIT SERIAL_8250 SERIAL_8250_CONSOLE"
		IMAGE=arch/x86/boot/bzImage
		QEMU=(qemu-system-x86_64 -accel tcg)
		APPEND="console=ttyS0 panic=-1 loglevel=1 init_on_alloc=1 init_on_free=1" ;;
	arm64)
		KMAKE=("${IN[@]}" make ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- CC="$KCC"
			HOSTCC="$cc" HOSTCXX="$cxx")
		ARCH_CONFIG="SERIAL_AMBA_PL011 SERIAL_AMBA_PL011_CONSOLE"
		IMAGE=arch/arm64/boot/Image
		QEMU=(qemu-system-aarch64 -M virt -cpu cortex-a57)
		APPEND="console=ttyAMA0 panic=-1 loglevel=1 init_on_alloc=1 init_on_free=1" ;;
	*)
		return 1 ;;
	esac
}

# -------------------------------------------------------------- trees, config
# The two source trees of VERSION, shared by its pairs (O= builds write
# nothing there): as the tarball has it (kept while the tarball is the same),
# and converted by convert.py (made again each run, from this repository).
# convert.py --revert must give back the tarball's tree, byte for byte.
sources() {
	local version=$1 m=$WORK/src/$1/macro p=$WORK/src/$1/plugin stamp tarball log=$WORK/src/$1.log
	mkdir -p "$WORK/src/$version"
	rm -f "$WORK/src/$version/converted"
	tarball=$("$TOP/kernel/fetch-source" "$WORK/sources" "$version" 2>"$log") ||
		abort "linux-source-$version: $(cat "$log")"
	stamp=$(stat -c '%s %Y' "$tarball")
	if [ "$(cat "$m.tarball" 2>/dev/null)" != "$stamp" ] || [ ! -d "$m" ]; then
		rm -rf "$m" "$m.tmp" && mkdir -p "$m.tmp" &&
		run 300 "$log" tar -xf "$tarball" -C "$m.tmp" &&
		mv "$m.tmp/linux-source-$version" "$m" && rm -rf "$m.tmp" &&
		echo "$stamp" >"$m.tarball" || abort "extract $tarball" "$log"
	fi
	rm -rf "$p" && mkdir -p "$p.tmp" &&
	run 300 "$log" tar -xf "$tarball" -C "$p.tmp" &&
	mv "$p.tmp/linux-source-$version" "$p" && rm -rf "$p.tmp" ||
		abort "extract $tarball" "$log"
	echo "linux $version: $tarball ($(awk '$2 == "=" && $3 != "" { v = v (v == "" ? "" : ".") $3 } NR == 5 { print v; exit }' "$m/Makefile"))"
	run 300 "$WORK/src/$version/convert.log" python3 "$TOP/kernel/convert.py" "$p" ||
		abort "convert.py" "$WORK/src/$version/convert.log"
	cat "$WORK/src/$version/convert.log"
	run 300 "$WORK/src/$version/convert2.log" python3 "$TOP/kernel/convert.py" "$p"
	if grep -q " 0 files changed" "$WORK/src/$version/convert2.log"; then
		pass "convert.py converts the tree, and a second run changes nothing"
	else
		fail "convert.py is not idempotent: $(cat "$WORK/src/$version/convert2.log")"
	fi
	if run 300 "$log" python3 "$TOP/kernel/convert.py" --revert "$p" &&
	   run 600 "$WORK/src/$version/revert.diff" diff -r "$m" "$p"; then
		pass "convert.py --revert gives back the tarball's tree, byte for byte ($(grep -o "[0-9]* files changed" "$log"))"
	else
		abort "convert.py --revert leaves the tree changed (see $WORK/src/$version/revert.diff)" \
			"$WORK/src/$version/revert.diff"
	fi
	run 300 "$log" python3 "$TOP/kernel/convert.py" "$p" || abort "convert.py" "$log"
	plugin_style "$version"
	# The initramfs tool of the tree, built here: it runs here.
	gcc -O2 -o "$WORK/src/$version/gen_init_cpio" "$m/usr/gen_init_cpio.c" ||
		abort "build usr/gen_init_cpio"
	: >"$WORK/src/$version/converted"
}

# plugin_style VERSION: the plugin's sources as the converted tree has them
# get no kind of checkpatch --strict message that the kernel's own plugins
# get in the tarball's tree (what kernel/check-patches.sh asks of the
# plugin's patch).
plugin_style() {
	local log=$WORK/src/$1/checkpatch.log own new
	own=$(cd "$WORK/src/$1/macro" && checkpatch_files . scripts/gcc-plugins/*.[ch] | checkpatch_types)
	(cd "$WORK/src/$1/plugin" && checkpatch_files . scripts/gcc-plugins/alloctag_*.[ch]) >"$log"
	new=$(checkpatch_types <"$log" | comm -23 - <(echo "$own"))
	if [ ! -s "$log" ] || [ -z "$own" ]; then
		fail "checkpatch --strict: scripts/checkpatch.pl of $1 said nothing"
	elif [ -z "$new" ]; then
		pass "checkpatch --strict: the plugin's sources get no kind of message the kernel's own plugins do not ($(wc -l <"$log") messages of $(checkpatch_types <"$log" | wc -l) kinds)"
	else
		grep -E ":($(paste -sd'|' <<<"$new")):" "$log" | head -n 5 | sed 's/^/    /'
		fail "checkpatch --strict: the plugin's sources get kinds of message the kernel's own plugins do not: $(echo $new)"
	fi
}

# configure SRC OUT [EXTRA...]: $BASE plus $CONFIG (y), $MODULE_CONFIG (m).
configure() {
	local src=$1 out=$2 o frag=$2/alloctag.config
	shift 2
	mkdir -p "$out"
	{
		for o in $CONFIG $ARCH_CONFIG "$@"; do echo "CONFIG_$o=y"; done
		for o in $MODULE_CONFIG; do echo "CONFIG_$o=m"; done
	} >"$frag"
	timeout --foreground 300 "${KMAKE[@]}" -C "$src" O="$out" "$BASE" &&
	timeout --foreground 120 "$src/scripts/kconfig/merge_config.sh" -m -O "$out" "$out/.config" "$frag" &&
	timeout --foreground 300 "${KMAKE[@]}" -C "$src" O="$out" olddefconfig || return 1
	# merge_config.sh only warns when a symbol does not stick
	for o in $CONFIG $ARCH_CONFIG "$@"; do
		grep -qx "CONFIG_$o=y" "$out/.config" || { echo "CONFIG_$o is not y"; return 1; }
	done
	for o in $MODULE_CONFIG; do
		grep -qx "CONFIG_$o=m" "$out/.config" || { echo "CONFIG_$o is not m"; return 1; }
	done
}

# build KIND: make the boot image and modules in $D/KIND/out; its times in KIND/time.
build() {
	local kind=$1 d=$D/$1
	TIMEFORMAT="%R %U %S"
	if ! { time run "$BUILD_TIMEOUT" "$d/build.log" "${KMAKE[@]}" -C "$SRC/$kind" O="$d/out" \
			-j"$JOBS" "${IMAGE##*/}" modules ; } 2>"$d/time.raw"; then
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
		cat "$SRC/macro.tarball"
		echo "$CONFIG $ARCH_CONFIG $MODULE_CONFIG $JOBS ${KMAKE[*]}"
		"${IN[@]}" "$KCC" --version | head -n 1
		declare -f configure build
	} | sha256sum | cut -d' ' -f1
}

prepare() {
	local kind=$1 d=$D/$1
	rm -rf "$d"
	mkdir -p "$d"
	if [ "$kind" = plugin ]; then
		configure "$SRC/plugin" "$d/out" GCC_PLUGIN_ALLOC_TAG >"$d/config.log" 2>&1 ||
			abort "configure the plugin kernel (see $d/config.log)" "$d/config.log"
	else
		configure "$SRC/macro" "$d/out" >"$d/config.log" 2>&1 ||
			abort "configure the macro kernel (see $d/config.log)" "$d/config.log"
		grep -q GCC_PLUGIN_ALLOC_TAG "$d/out/.config" && abort "the macro kernel has GCC_PLUGIN_ALLOC_TAG"
	fi
}

# -------------------------------------------------------------- module, boot
# The test module (kernel/testmod), built from one folder for both kernels,
# so that its absolute file name is the same in the tags of both.
extmod() {
	local kind=$1 d=$D/$1 m=$WORK/extmod
	rm -rf "$m" && mkdir -p "$m" && cp "$TOP"/kernel/testmod/* "$m/" &&
	cp "$m/alloctag_test.c" "$d/" ||
		abort "copy kernel/testmod"
	run 300 "$d/extmod.log" "${KMAKE[@]}" -C "$d/out" M="$m" modules &&
		cp "$m/alloctag_test.ko" "$d/" ||
		abort "build kernel/testmod for the $kind kernel" "$d/extmod.log"
}

initramfs() {
	local d=$D/$1 r=$D/$1/initramfs meminit init
	mkdir -p "$r"
	meminit=$(find "$d/out" -name test_meminit.ko | head -n 1)
	[ -n "$meminit" ] || abort "the $1 kernel has no test_meminit.ko"
	if [ "$KARCH" = x86_64 ]; then
		init=$r/init
		cat >"$init" <<-'EOF'
		#!/bin/busybox sh
		/bin/busybox mount -t proc proc /proc
		for m in /lib/modules/*.ko; do
			/bin/busybox insmod "$m" || echo "alloctag-check: insmod $m failed"
		done
		echo "alloctag-check: allocinfo begin"
		/bin/busybox cat /proc/allocinfo
		echo "alloctag-check: allocinfo end"
		echo "alloctag-check: dmesg begin"
		/bin/busybox dmesg
		echo "alloctag-check: dmesg end"
		/bin/busybox reboot -f
		EOF
		# after "dir /bin": the kernel's unpacker makes no parent directory
		cat >"$r/list.arch" <<-EOF
		file /bin/busybox /bin/busybox 0755 0 0
		slink /bin/sh busybox 0777 0 0
		EOF
	else
		# No static busybox of this architecture here: kernel/init.c, static.
		init=$r/init.bin
		run 300 "$r/init.log" "${IN[@]}" "$KCC" -static -O2 -o "$init" "$TOP/kernel/init.c" ||
			abort "build kernel/init.c with $KCC (see $r/init.log)" "$r/init.log"
		: >"$r/list.arch"
	fi
	cat >"$r/list" <<-EOF
	dir /dev 0755 0 0
	nod /dev/console 0600 0 0 c 5 1
	dir /proc 0755 0 0
	dir /bin 0755 0 0
	file /init $init 0755 0 0
	dir /lib 0755 0 0
	dir /lib/modules 0755 0 0
	file /lib/modules/test_meminit.ko $meminit 0644 0 0
	file /lib/modules/alloctag_test.ko $d/alloctag_test.ko 0644 0 0
	EOF
	cat "$r/list.arch" >>"$r/list"
	"$SRC/gen_init_cpio" "$r/list" >"$d/initramfs.cpio" ||
		abort "initramfs for the $1 kernel"
}

# boot KIND NAME CPUS: /proc/allocinfo of one boot in KIND/NAME.log.  A
# boot where test_meminit's own tests fail (its test_rcu_persistent fails
# about one boot in three on 7.2, with the macros as with the plugin: a slab
# object reused while the test expects it kept), so that it does not load,
# is booted again, twice at most.
boot() {
	local d=$D/$1 log=$D/$1/$2.log t0 try
	for try in 1 2 3; do
		t0=$(date +%s.%N)
		run "$BOOT_TIMEOUT" "$log" "${QEMU[@]}" -m 256M -smp "$3" -nographic -no-reboot \
			-kernel "$d/out/$IMAGE" -initrd "$d/initramfs.cpio" -append "$APPEND"
		echo "$(date +%s.%N) $t0" | awk '{ printf "%.1f\n", $1 - $2 }' >>"$d/boot-times"
		grep -q "insmod .*test_meminit.ko failed" "$log" && grep -q "test_meminit: failures:" "$log" ||
			break
		echo "boot the $1 kernel ($2): test_meminit's own tests failed" \
			"($(grep -o "test_meminit: test_[a-z_]* failed.*" "$log" | tr -d '\r' | paste -sd' ')), booting again"
		cp "$log" "$log.$try"
	done
	if ! grep -q "alloctag-check: allocinfo end" "$log"; then
		abort "boot the $1 kernel ($2): no /proc/allocinfo (see $log)" "$log"
	fi
	if grep -q "alloctag-check: insmod .* failed" "$log"; then
		abort "boot the $1 kernel ($2): $(grep -m1 "insmod .* failed" "$log" | tr -d '\r')" "$log"
	fi
}

# alloc_tag_warnings LOG: the kernel log's lines of MEM_ALLOC_PROFILING_DEBUG
# warnings (an allocation without a tag, a tag not cleared) and of any
# WARNING whose call trace names alloc_tag.
alloc_tag_warnings() {
	tr -d '\r' <"$1" | sed -n '/alloctag-check: dmesg begin/,/alloctag-check: dmesg end/p' |
	awk '/alloc_tag was not|alloc_tag not set|invalid page tag reference|profiling is disabled/ { print; next }
	     /WARNING:/ { w = $0; n = 30; next }
	     n > 0 { n--; if (/alloc_tag|codetag/ && w != "") { print w; w = "" } }'
}

# counted SCRIPT [ARGS]: kernel/SCRIPT, its PASS/FAIL lines counted as ours.
counted() {
	local out script=$1
	shift
	out=$(python3 "$TOP/kernel/$script" "$@")
	echo "$out" | grep -vE "^(PASS|FAIL): "
	while IFS= read -r line; do
		case $line in
		PASS:*) pass "${line#PASS: }" ;;
		FAIL:*) fail "${line#FAIL: }" ;;
		esac
	done < <(echo "$out" | grep -E "^(PASS|FAIL): ")
}

# compare [OPTIONS]: the two kernels' /proc/allocinfo (compare-allocinfo.py).
compare() {
	counted compare-allocinfo.py "$@"
}

# ------------------------------------------------------- one pair's checks
# check_pair VERSION ARCH CC
check_pair() {
	use_pair "$@" || abort "unknown architecture $2 (x86_64, arm64)"
	mkdir -p "$D"
	if [ ${#IN[@]} = 0 ]; then echo "== linux $CCNAME ($KCC)"; else
		echo "== linux $CCNAME ($KCC), in the ${IN[-1]} root"; fi
	# (sources() ends with this mark: a tree it left half made is not built)
	[ -e "$SRC/converted" ] || abort "no converted linux $1 tree (its preparation failed, above)"

	local key
	key=$(macro_key)
	if [ "${ALLOCTAG_KERNEL_FRESH:-0}" != 1 ] && [ "$(cat "$D/macro/key" 2>/dev/null)" = "$key" ] &&
	   [ -e "$D/macro/out/$IMAGE" ] && [ -e "$D/macro/time" ]; then
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
	# Every object of the two builds: the same tags, object by object (what
	# /proc/allocinfo shows is only what vmlinux and the loaded modules hold).
	echo "== the tags of every object"
	counted compare-objects.py "$D/macro/out" "$D/plugin/out"

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
	# The test module's tags against what its source says it allocates.
	compare --macro $(seq -f "$D/macro/boot%g.log" "$BOOTS") "$D/macro/smp2.log" \
		--plugin $(seq -f "$D/plugin/boot%g.log" "$BOOTS") "$D/plugin/smp2.log" \
		--no-counters --expect alloctag_test="$D/macro/alloctag_test.c" --name "module source"

	# MEM_ALLOC_PROFILING_DEBUG: no allocation without a tag, in any boot.
	local kind log warned=
	for kind in macro plugin; do
		for log in "$D/$kind"/boot*.log "$D/$kind/smp2.log"; do
			grep -q "alloctag-check: dmesg end" "$log" ||
				warned="$warned ${log#"$D"/}: no kernel log;"
			if [ -n "$(alloc_tag_warnings "$log")" ]; then
				alloc_tag_warnings "$log" | head -n 5 | sed "s|^|    ${log#"$D"/}: |"
				warned="$warned ${log#"$D"/};"
			fi
		done
	done
	if [ -z "$warned" ]; then
		pass "MEM_ALLOC_PROFILING_DEBUG: no alloc_tag warning in the kernel logs of either kernel"
	else
		fail "MEM_ALLOC_PROFILING_DEBUG: alloc_tag warnings or no log:$warned"
	fi

	# The headers are converted where the plugin is on: the calls of mm/util.c are
	# no alloc_hooks() expansions (those in the headers before the conversion at
	# their end are); DISABLE_ALLOC_TAG_PLUGIN turns the macros back on.
	util_hooks() { grep -o '\.filename = "mm/util.c"' "$1" 2>/dev/null | wc -l; }
	run 300 "$D/macro/util.log" "${KMAKE[@]}" -C "$SRC/macro" O="$D/macro/out" mm/util.i
	run 300 "$D/plugin/util.log" "${KMAKE[@]}" -C "$SRC/plugin" O="$D/plugin/out" mm/util.i
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
	if run 300 "$D/plugin/optout.log" "${KMAKE[@]}" -C "$SRC/plugin" O="$D/plugin/out" \
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
	printf "%-24s %12s %12s %12s\n" "$CCNAME" "macros" "plugin" "difference"
	row "vmlinux text" "$mtext" "$ptext"
	row "vmlinux data" "$mdata" "$pdata"
	row "vmlinux bss" "$mbss" "$pbss"
	row "build wall time (s)" "$mwall" "$pwall"
	row "build CPU time (s)" "$mcpu" "$pcpu"
	[ -n "$macro_cached" ] && echo "(macro build times from an earlier run$macro_cached)"
	# Both kernels run the same code: the plugin's save/restore are the
	# macros'.  Not larger by 0.1%; smaller by up to 1%, for 7.x's
	# alloc_hooks_tag() writes the call and its arguments' computation in
	# both branches of its static key, the plugin computes them once before
	# the branch and writes only the call twice (7.2 x86_64 tinyconfig:
	# -4,564 bytes, 0.105%).
	local larger=$(( (ptext - mtext) * 1000 / mtext )) smaller=$(( (mtext - ptext) * 100 / mtext ))
	if [ "$larger" -le 0 ] && [ "$smaller" -le 0 ]; then
		pass "vmlinux text not 0.1% larger, nor 1% smaller, than the macro kernel's ($((ptext - mtext)) bytes)"
	else
		fail "vmlinux text not 0.1% larger, nor 1% smaller, than the macro kernel's ($((ptext - mtext)) bytes)"
	fi
}

# ---------------------------------------------------------------------- main
mkdir -p "$WORK"
: >"$RESULTS"
if [ "$(uname -m)" != x86_64 ]; then
	skip "all: builds an x86_64 kernel with the host's compiler, and this host is $(uname -m)"
	finish
fi
# Earlier layouts: one macro/ and plugin/ of the host's, then one folder per
# compiler (6.12 only) and src/{macro,plugin}.
rm -rf "$WORK/macro" "$WORK/plugin" "$WORK/src/macro" "$WORK/src/plugin" "$WORK/src/macro.tarball"
for cc in $KERNEL_CCS; do rm -rf "${WORK:?}/$cc"; done
PAIRS=${ALLOCTAG_KERNEL_PAIRS:-}
if [ -z "$PAIRS" ]; then
	for t in $TARGETS; do
		for cc in $KERNEL_CCS; do PAIRS="$PAIRS ${t%%/*}/${t#*/}/$cc"; done
	done
fi
PAIRS=" $(xargs <<<"$PAIRS")"
echo "pairs of kernels:$PAIRS"
deps
for version in $(for pair in $PAIRS; do echo "${pair%%/*}"; done | awk '!seen[$0]++'); do
	( CCNAME=$version; sources "$version" )
	for pair in $PAIRS; do
		[ "${pair%%/*}" = "$version" ] || continue
		t0=$(date +%s)
		# shellcheck disable=SC2086 # VERSION ARCH CC
		( check_pair ${pair//\// } )
		mkdir -p "$WORK/${pair//\//-}"
		awk -v s=$(( $(date +%s) - t0 )) 'BEGIN { printf "%.1f\n", s / 60 }' >"$WORK/${pair//\//-}/minutes"
	done
done
finish
