# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
#
# kernel/checkpatch.sh, sourced by check-kernel.sh and check-patches.sh: the
# kernel's scripts/checkpatch.pl --strict, as they both run it.

# checkpatch_files FILE...: checkpatch.pl --strict -f on each FILE, one
# terse line a message; run at the top of a kernel tree.
checkpatch_files() {
	local f
	for f; do
		perl scripts/checkpatch.pl --strict --show-types --terse --no-summary -f "$f" 2>/dev/null
	done
}

# checkpatch_types: the kinds of message (--show-types) of checkpatch's
# terse output on stdin, once each, sorted.
checkpatch_types() {
	sed -n 's/^[^ ]*: *\(WARNING\|ERROR\|CHECK\):\([A-Z_0-9]*\):.*/\2/p' | sort -u
}
