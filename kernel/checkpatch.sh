# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
#
# kernel/checkpatch.sh, sourced by check-kernel.sh and check-patches.sh: the
# kernel's scripts/checkpatch.pl --strict, as they both run it.

# checkpatch_files TREE FILE...: TREE's checkpatch.pl --strict -f on each
# FILE of TREE (a path in it), one terse line a message.  Run from a scratch
# folder with --root: checkpatch leaves a cache (.checkpatch-camelcase.*) in
# its working directory, which would make TREE differ from its tarball.
checkpatch_files() {
	local tree scratch f
	tree=$(cd "$1" && pwd) && shift && scratch=$(mktemp -d) || return 1
	for f; do
		(cd "$scratch" && perl "$tree/scripts/checkpatch.pl" --root="$tree" --strict --show-types \
			--terse --no-summary -f "$tree/$f" 2>/dev/null)
	done | sed "s|^$tree/||"
	rm -rf "$scratch"
}

# checkpatch_types: the kinds of message (--show-types) of checkpatch's
# terse output on stdin, once each, sorted.
checkpatch_types() {
	sed -n 's/^[^ ]*: *\(WARNING\|ERROR\|CHECK\):\([A-Z_0-9]*\):.*/\2/p' | sort -u
}
