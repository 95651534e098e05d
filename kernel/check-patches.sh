#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# kernel/check-patches.sh [VERSION]: kernel/convert.py --patches on a git tree
# of Debian's linux-source-VERSION (default 7.2), as a kernel developer would
# review the series:
#   - it applies with git am to a clean tree of the tarball;
#   - every patch is clean under the tree's scripts/checkpatch.pl --strict,
#     apart from the kinds of message (checkpatch's --show-types) that the
#     kernel's own files in the same directories get (checkpatch -f);
#   - tinyconfig with GCC_PLUGIN_ALLOC_TAG builds after the first patch and
#     after the last (x86_64, the host's gcc; ALLOCTAG_PATCHES_BUILD=0 skips;
#     ALLOCTAG_PATCHES_BUILD=each builds after every patch, in order, each
#     build from the one before: the whole bisection, about two minutes a
#     patch).
# Not in CI (about 25 minutes on 2 cores, the builds most of it): make
# check-kernel-patches.  Work in ALLOCTAG_KERNEL_WORK (.cache/kernel)/patches.
set -u

TOP=$(cd "$(dirname "$0")/.." && pwd)
. "$TOP/kernel/checkpatch.sh"
VERSION=${1:-7.2}
WORK=${ALLOCTAG_KERNEL_WORK:-$TOP/.cache/kernel}/patches-$VERSION
JOBS=${JOBS:-$(nproc)}
passed=0 failed=0

pass() { echo "PASS: patches $VERSION: $1"; passed=$((passed + 1)); }
fail() { echo "FAIL: patches $VERSION: $1"; failed=$((failed + 1)); }
finish() {
	echo "$passed passed, $failed failed"
	[ "$failed" = 0 ]
	exit
}
git_() { git -C "$WORK/tree" -c user.name="alloctag check" -c user.email="check@alloctag.invalid" "$@"; }

tarball=$("$TOP/kernel/fetch-source" "${ALLOCTAG_KERNEL_WORK:-$TOP/.cache/kernel}/sources" "$VERSION") ||
	{ fail "linux-source-$VERSION"; finish; }
rm -rf "$WORK" && mkdir -p "$WORK" || exit 2
echo "== a git tree of $tarball"
tar -xf "$tarball" -C "$WORK" && mv "$WORK/linux-source-$VERSION" "$WORK/tree" &&
	git_ init -q && git_ config gc.auto 0 && git_ add -A -f . && git_ commit -q -m "Linux $VERSION" ||
	{ fail "a git tree of the tarball"; finish; }
base=$(git_ rev-parse HEAD)

git_ config user.name "alloctag check" && git_ config user.email "check@alloctag.invalid"
if python3 "$TOP/kernel/convert.py" --patches "$WORK/series" "$WORK/tree" &&
   [ -z "$(git_ status --porcelain)" ] && [ "$(git_ rev-parse HEAD)" = "$base" ]; then
	pass "convert.py --patches: $(find "$WORK/series" -name '*.patch' | wc -l) patches, the tree left as it was"
else
	fail "convert.py --patches"
	finish
fi

# -- the kinds of checkpatch message the kernel's own files get where each
# patch writes: the files it changes, and for a new file the other C files
# of its directory (the tree still at the tarball's commit)
cd "$WORK/tree" || exit 2
for p in "$WORK"/series/*.patch; do
	# shellcheck disable=SC2046 # file names of the kernel's, without blanks
	checkpatch_files . $(for f in $(sed -n 's|^+++ b/||p' "$p" | sort -u); do
		if [ -e "$f" ]; then echo "$f"; else ls "$(dirname "$f")"/*.[ch]; fi
	done | sort -u) | checkpatch_types >"$WORK/own-$(basename "$p" .patch).types"
done

# -- git am on a clean branch of the tarball's tree
git_ checkout -q -b series "$base"
if git_ am -q "$WORK"/series/*.patch >"$WORK/am.log" 2>&1; then
	pass "the series applies with git am to a clean tree"
else
	sed 's/^/    /' "$WORK/am.log" | tail -n 20
	fail "the series applies with git am to a clean tree"
	finish
fi

# -- checkpatch --strict on each patch
bad=0
for p in "$WORK"/series/*.patch; do
	name=$(basename "$p" .patch)
	perl scripts/checkpatch.pl --strict --show-types --terse "$p" >"$WORK/$name.log" 2>&1
	new=$(checkpatch_types <"$WORK/$name.log" | comm -23 - "$WORK/own-$name.types")
	echo "$name: $(checkpatch_types <"$WORK/$name.log" | wc -l) kinds of message, not in the kernel's" \
		"own files there: ${new:-none}" | tr '\n' ' '
	echo
	if [ -n "$new" ]; then
		bad=$((bad + 1))
		grep -E ":($(paste -sd'|' <<<"$new")):" "$WORK/$name.log" | head -n 5 | sed 's/^/    /'
	fi
done
if [ "$bad" = 0 ]; then
	pass "checkpatch --strict: no kind of message the kernel's own files there do not get"
else
	fail "checkpatch --strict: $bad patches with kinds of message the kernel's own files there do not get"
fi

# -- tinyconfig with the plugin after the first patch and after the last
build_at() {
	local rev=$1 name=$2 out=$WORK/out-$2
	git checkout -q "$rev" || return 1
	mkdir -p "$out"
	printf 'CONFIG_%s=y\n' 64BIT SMP PROC_FS MEM_ALLOC_PROFILING GCC_PLUGINS \
		GCC_PLUGIN_ALLOC_TAG MODULES >"$out/frag"
	make -s O="$out" tinyconfig >/dev/null &&
	scripts/kconfig/merge_config.sh -m -O "$out" "$out/.config" "$out/frag" >/dev/null &&
	make -s O="$out" olddefconfig >/dev/null &&
	grep -qx CONFIG_GCC_PLUGIN_ALLOC_TAG=y "$out/.config" &&
	make O="$out" -j"$JOBS" vmlinux >"$out/build.log" 2>&1
}
if [ "${ALLOCTAG_PATCHES_BUILD:-1}" = each ]; then
	n=0
	for rev in $(git rev-list --reverse "$base..series"); do
		n=$((n + 1)) t0=$(date +%s)
		what="patch $n, $(git log -1 --format=%s "$rev")"
		if build_at "$rev" each; then
			pass "tinyconfig with GCC_PLUGIN_ALLOC_TAG builds after $what ($(($(date +%s) - t0)) s)"
		else
			tail -n 20 "$WORK/out-each/build.log" 2>/dev/null | sed 's/^/    /'
			fail "tinyconfig with GCC_PLUGIN_ALLOC_TAG builds after $what"
		fi
	done
elif [ "${ALLOCTAG_PATCHES_BUILD:-1}" = 1 ]; then
	for at in "first:$(git rev-list --reverse "$base..series" | head -n 1)" "last:series"; do
		t0=$(date +%s)
		if build_at "${at#*:}" "${at%%:*}"; then
			pass "tinyconfig with GCC_PLUGIN_ALLOC_TAG builds after the ${at%%:*} patch ($(($(date +%s) - t0)) s)"
		else
			tail -n 20 "$WORK/out-${at%%:*}/build.log" 2>/dev/null | sed 's/^/    /'
			fail "tinyconfig with GCC_PLUGIN_ALLOC_TAG builds after the ${at%%:*} patch"
		fi
	done
fi
finish
