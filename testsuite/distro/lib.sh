# testsuite/distro/lib.sh: what testsuite/distro/run (make check-distro) and
# testsuite/distro/attribution share: the settings, Debian source packages
# fetched and built as Debian builds them (dpkg-buildpackage -B, as an
# unprivileged user, in a scratch folder, with alloctag installed there),
# and their test suites' summaries.  Sourced, with TOP set.
export LC_ALL=C
. "$TOP/testsuite/lib.sh"
TESTCC=${CC:-gcc}
ATCC=$TOP/build/$TESTCC/alloctag-cc
ATCXX=$TOP/build/$TESTCC/alloctag-c++
PLAINCXX=${TESTCC/gcc/g++}	# both builds name both compilers (gnulib probes CXX when set)
CACHE=$TOP/.cache/distro
DISTRO=$TOP/testsuite/work/distro
LIST=$TOP/testsuite/distro/packages
JOBS=${DISTRO_JOBS:-$(nproc)}
RUN_LABEL=${RUN_LABEL:-distro}
export RUN_LABEL DEBIAN_FRONTEND=noninteractive
unset $(compgen -e | grep '^ALLOCTAG_')
APT="apt-get -o DPkg::Lock::Timeout=600 -y -q"

# packages [MARK]: the list's package names (those marked MARK only: ci, check).
packages() {
	sed -e 's/#.*//' "$LIST" | awk -v m="${1:-}" 'NF && (m == "" || index(" " $0 " ", " " m " ")) { print $1 }'
}

# build DIR DSC LOG [ENV...]: DSC unpacked into DIR (emptied first) and built
# there with ENV; the build's output in LOG.  Exit status dpkg-buildpackage's.
# With OWN_TESTS set, then the package's own `make -k check` in DIR, its
# output in LOG too: for the packages whose rules skip their tests.
build() {
	local dir=$1 dsc=$2 log=$3
	shift 3
	rm -rf "$dir"
	dpkg-source --no-check -x "$dsc" "$dir" >"$log" 2>&1 || return 1
	[ -n "$BUILDER" ] && chown -R "$BUILDER:" "$(dirname "$dir")"
	(cd "$dir" && as_builder env "$@" DEB_BUILD_OPTIONS="parallel=$JOBS" \
		dpkg-buildpackage -us -uc -B --no-sign) >>"$log" 2>&1 || return
	[ -z "${OWN_TESTS:-}" ] ||
		(cd "$dir" && as_builder env "$@" make -k -j"$JOBS" check) >>"$log" 2>&1
	return 0
}

# Builds run as a user, as Debian's build daemons run them (fakeroot for
# the packaging): as root, tests that need an unwritable file fail.  Run as
# root, the builds are those of the system user BUILDER, made if missing,
# in SCRATCH (a folder of /var/tmp: the repository may be where only root
# reaches), with alloctag installed there (make install PREFIX=SCRATCH/prefix),
# its runtime on the dynamic loader's path (runtime_on_loader_path).
# No name of theirs says alloctag: the build logs are searched for it.
BUILDER= SCRATCH= LDSO_CONF=
if [ "$(id -u)" = 0 ]; then
	LDSO_CONF=/etc/ld.so.conf.d/zz-alloctag-distro-$$.conf
	BUILDER=_distro-build
	id "$BUILDER" >/dev/null 2>&1 ||
		useradd --system --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin "$BUILDER"
	SCRATCH=$(mktemp -d /var/tmp/distro-build.XXXXXX) && chmod 755 "$SCRATCH" || exit 2
fi

# install_for_builder: alloctag-cc where BUILDER can run it; ATCC and ATCXX
# then name it.
install_for_builder() {
	[ -n "$SCRATCH" ] || return 0
	make -C "$TOP" --no-print-directory -s CC="$TESTCC" install PREFIX="$SCRATCH/prefix" \
		PLUGINDIR="$SCRATCH/prefix/plugin" DESTDIR= || return 1
	ATCC=$SCRATCH/prefix/bin/alloctag-cc ATCXX=$SCRATCH/prefix/bin/alloctag-c++
	runtime_on_loader_path
}

# runtime_libdir: where the alloctag compilers link the runtime from.
runtime_libdir() {
	if [ -n "$SCRATCH" ]; then echo "$SCRATCH/prefix/lib"; else echo "$TOP/build/$TESTCC"; fi
}

# runtime_on_loader_path: the runtime where the dynamic loader finds it, as
# it is installed (the .deb's /usr/lib/TRIPLET, make install's /usr/local):
# a package's rules may take out the RUNPATH alloctag-cc gives (chrpath -d:
# sqlite3, libcap2) and then run what they built (sqlite3's Tcl module,
# loaded by pkg_mkIndex).  One file in /etc/ld.so.conf.d while the builds
# run (LDSO_CONF, set here where the exit trap sees it, and removed by it);
# the plain builds never load the runtime.
runtime_on_loader_path() {
	runtime_libdir >"$LDSO_CONF" && ldconfig
}

# as_builder COMMAND...: COMMAND as BUILDER (or as the caller if not root),
# with PATH_FIRST (if set) first in PATH.  SHELL is /bin/sh, not BUILDER's
# nologin (libzstd's zstdless test runs less, which runs $SHELL).
as_builder() {
	if [ -n "$BUILDER" ]; then
		setpriv --reuid="$BUILDER" --regid="$BUILDER" --init-groups --reset-env -- \
			env HOME=/nonexistent PATH=${PATH_FIRST:+$PATH_FIRST:}/usr/local/bin:/usr/bin:/bin \
			LC_ALL=C.UTF-8 SHELL=/bin/sh "$@"
	else
		env PATH="${PATH_FIRST:+$PATH_FIRST:}$PATH" "$@"
	fi
}

# Some packages do not take CC from the environment: they name the compiler
# by the GNU triplet, as Debian's rules for cross builds do (zlib:
# CC=$(DEB_HOST_GNU_TYPE)-gcc), as gcc (bzip2: CC=gcc), or as cc.  A user
# who wants them tagged puts alloctag-cc first in PATH under those names;
# the alloctag builds do so.  alloctag_bin: that folder, FIRST_BIN (ATCC and
# ATCXX under the names of TESTCC's triplet and of gcc, each with and
# without its version, and cc and c++), made for each package, as the guide
# says: no ALLOCTAG_CC; alloctag-cc runs "gcc", finds itself, and that one
# passes the command on to the next gcc in PATH.  (No name of the harness
# says alloctag: the build logs are searched for it.)
FIRST_BIN=${SCRATCH:-$DISTRO}/first-bin
alloctag_bin() {
	local dir=$FIRST_BIN triplet major name
	triplet=$("$TESTCC" -dumpmachine) && major=$("$TESTCC" -dumpversion) || return 1
	major=${major%%.*}
	mkdir -p "$dir" || return 1
	for name in "$triplet-gcc" "$triplet-gcc-$major" gcc "gcc-$major" cc; do
		printf '#!/bin/sh\nexec %s "$@"\n' "$ATCC" >"$dir/$name"
	done
	for name in "$triplet-g++" "$triplet-g++-$major" g++ "g++-$major" c++; do
		printf '#!/bin/sh\nexec %s "$@"\n' "$ATCXX" >"$dir/$name"
	done
	chmod 755 "$dir" "$dir"/*
	echo "$dir"
}

# plain_cc, plain_cxx: the plain compilers' paths.  plain_compilers: the
# plain build's CC and CXX, by path as the alloctag build's are: a
# configure that looks a bare name up says so, where it says nothing of a
# path (ncurses: "checking for g++... /usr/bin/g++").
plain_cc() { command -v "$TESTCC"; }
plain_cxx() { command -v "$PLAINCXX"; }
plain_compilers() {
	echo "CC=$(plain_cc)" "CXX=$(plain_cxx)"
}

# normalize: a build log with the alloctag compilers named as the plain ones (by path)
# (also where a shell command escapes them: debhelper's cmake line has
# -DCMAKE_CXX_COMPILER=g\+\+), and without dpkg-shlibdeps' notes that the
# programs link liballoctag.so (the runtime, which no package of the system
# provides: no version to depend on; that dependency is what alloctag-cc
# adds by design), or that it cannot find it for a program whose RUNPATH the
# package's rules removed (libcap2's tests: chrpath -d), in a run not as
# root (no runtime_on_loader_path).  Of a
# plugin's unresolvable references dpkg-shlibdeps names the first in its
# symbol table's order, which the runtime's symbol changes (libxml2's Python
# module: PyErr_Print, PyModule_Create2): the name is left out, the file and
# the count of the others ("N other similar warnings") stay compared.  A C++
# shared library that libtool links with -nostdlib gets the libraries the
# compiler's own link line names (libtool's postdeps, taken from `$CXX -v`):
# with alloctag-c++ the runtime's too, its -L and -lalloctag (gmp's
# libgmpxx, as alloctag-c++ links any program); they are left out.  The
# files dpkg-shlibdeps lists as not needing a library come in the order of a
# Perl hash, which changes from run to run (glib2.0): they are sorted.
normalize() {
	sed -e 's|\\+|+|g' -e "s|$ATCXX|$(plain_cxx)|g" -e "s|$ATCC|$(plain_cc)|g" \
	    -e "s|$FIRST_BIN/||g" \
	    -e "s| -L$(runtime_libdir)\( \|\$\)|\1|g" \
	    -e 's/ -lalloctag\( \|$\)/\1/g' \
	    -e "/^dpkg-shlibdeps: warning: can't extract name and version from library name 'liballoctag\.so'\$/d" \
	    -e "/^dpkg-shlibdeps: warning: cannot find library liballoctag\.so needed by /d" \
	    -e 's/^\(dpkg-shlibdeps: warning: .* contains an unresolvable reference to symbol \)[^ ]*:/\1SYMBOL:/' |
	awk '
	/^dpkg-shlibdeps: warning: package could avoid a useless dependency if .* were not linked against / {
		i = index($0, " if ") + 4; j = index($0, " were not linked against ")
		n = split(substr($0, i, j - i), f, " ")
		for (a = 2; a <= n; a++) {
			v = f[a]
			for (b = a - 1; b >= 1 && f[b] > v; b--) f[b + 1] = f[b]
			f[b + 1] = v
		}
		list = f[1]
		for (a = 2; a <= n; a++) list = list " " f[a]
		$0 = substr($0, 1, i - 1) list substr($0, j)
	}
	{ print }'
}

# test_counts LOG: "RUN PASSED" summed over the test suites' summaries.
test_counts() {
	normalize <"$1" | awk '
	/^# TOTAL: *[0-9]+/ { run += $3 }
	/^# (PASS|XFAIL): *[0-9]+/ { ok += $3 }
	/^# of expected passes/ { run += $5; ok += $5 }
	/^# of (unexpected failures|unexpected successes|unresolved testcases)/ { run += $5 }
	/^# of expected failures/ { run += $5; ok += $5 }
	/^Ok: +[0-9]+/ { run += $2; ok += $2 }
	/^(Fail|Unexpected Pass|Timeout): +[0-9]+/ { run += $NF }
	/^Expected Fail: +[0-9]+/ { run += $NF; ok += $NF }
	/tests passed, [0-9]+ tests? failed out of [0-9]+/ { run += $NF; ok += $NF - $4 }
	/^Files=[0-9]+, Tests=[0-9]+/ { split($2, t, "="); n = t[2] + 0; run += n; perl += n }
	/^Result: PASS/ { ok += perl; perl = 0 }
	# curl: "TESTDONE: 1345 tests out of 1349 reported OK: 99%"
	/^TESTDONE: [0-9]+ tests out of [0-9]+ reported OK/ { run += $6; ok += $2 }
	# zstd, tests/cli-tests/run.py: "PASSED all 37 tests!" or "FAILED 2 / 37 tests!"
	# the older serial harness of automake (libgcrypt20, nettle): "All 33 tests
	# passed" or "2 of 33 tests failed"
	/^All [0-9]+ tests passed/ { run += $2; ok += $2 }
	/^[0-9]+ of [0-9]+ tests failed/ { run += $3; ok += $3 - $1 }
	# GNU make, tests/run_make_tests: "694 Tests in 126 Categories Complete ... No Failures"
	/^[0-9]+ Tests in [0-9]+ Categories Complete \.\.\. No Failures/ { run += $1; ok += $1 }
	# util-linux, tests/run.sh: "  All 225 tests PASSED" or "  2 tests of 225 FAILED"
	/^ +All [0-9]+ tests PASSED$/ { run += $2; ok += $2 }
	/^ +[0-9]+ tests of [0-9]+ FAILED$/ { run += $4; ok += $4 - $1 }
	# e2fsprogs, tests/test_post: "371 tests succeeded<TAB>0 tests failed"
	/^[0-9]+ tests succeeded[ \t]+[0-9]+ tests failed/ { run += $1 + $4; ok += $1 }
	/^PASSED all [0-9]+ tests!$/ { run += $3; ok += $3 }
	/^FAILED [0-9]+ \/ [0-9]+ tests!$/ { run += $4; ok += $4 - $2 }
	# Autotest (tar, bison, m4): "[All ]N tests were successful." or
	# "... behaved as expected.", else "N tests were run," and, on the next
	# lines, what did not pass; "S tests were skipped." (run, not passed)
	{ sub(/^ERROR: /, "") }
	match($0, /^(All )?[0-9]+ tests? (was|were|behaved) /) {
		n = $1 == "All" ? $2 : $1
		run += n
		if (/ (successful|behaved as expected)\.$/) ok += n
		else if (/ run,$/) autotest = n
		next
	}
	autotest && /^[0-9]+ passed unexpectedly,$/ { autotest -= $1; next }
	autotest && /^[0-9]+ (failed unexpectedly|passed unexpectedly|did not behave as expected)/ {
		ok += autotest - $1; autotest = 0; next
	}
	autotest && match($0, /^[0-9]+ failed \([0-9]+ expected failures?\)\.$/) {
		x = $3; sub(/^\(/, "", x); ok += autotest - ($1 - x); autotest = 0; next
	}
	/^[0-9]+ tests? (was|were) skipped\.$/ { run += $1 }
	# gawk: a test name a line between "======== Starting ... tests ========"
	# and "======== Done with ... tests ========", then "N TESTS FAILED"
	/^======== Starting .* tests ========$/ { gawk = 1; next }
	/^======== Done with .* tests ========$/ { gawk = 0; next }
	gawk && /^[A-Za-z0-9_.+-]+$/ { gawkrun++ }
	/^[0-9]+ TESTS? FAILED$/ { gawkfailed += $1 }
	# ninja_test: "[I/N] Suite.Test" a test, "*** Failure in ..." under the
	# test that failed, then "passed" or "failed"
	match($0, /^\[[0-9]+\/[0-9]+\] [A-Za-z0-9_]+\.[A-Za-z0-9_]+$/) {
		split($1, in_n, "/"); ninja = in_n[2] + 0; test = $2; next
	}
	ninja && /^\*\*\* Failure in / && !(test in ninjafailed) { ninjafailed[test] = 1; nf++ }
	ninja && /^(passed|failed)$/ { run += ninja; ok += ninja - nf; ninja = nf = 0; delete ninjafailed }
	# Python unittest (lz4): "Ran N tests in T", then "OK" or "FAILED", with
	# "(failures=F, errors=E, skipped=S)"; the skipped are run, not passed
	/^Ran [0-9]+ tests? in / { run += $2; unit = $2; next }
	unit && /^(OK|FAILED)( \(.*\))?$/ {
		delete bad
		n = split($0, kv, /[(), =]+/)
		for (i = 2; i < n; i += 2) bad[kv[i]] = kv[i + 1]
		ok += unit - bad["failures"] - bad["errors"] - bad["skipped"]; unit = 0
	}
	# double-conversion, cctest: "Ran 84 tests." (a failure aborts before it)
	/^Ran [0-9]+ tests?\.$/ { run += $2; ok += $2 }
	# re2, runtests: "obj/test/re2_test<blanks>PASS" or "... FAIL; output in ..."
	/^[^ ]+_test +PASS$/ { run++; ok++ }
	/^[^ ]+_test +FAIL; output in / { run++ }
	# zlib: "*** zlib shared test OK ***" or "... FAILED ***", one per build
	/^[ \t]*\*\*\* zlib [a-z0-9 -]*test (OK|FAILED) \*\*\*$/ { run++; if ($(NF - 1) == "OK") ok++ }
	# lzo2, make test: "Alignment test passed." (a failure says what failed)
	/^[A-Za-z ]+ test passed\.$/ { run++; ok++ }
	END { print run + gawkrun, ok + gawkrun - gawkfailed }'
}

# prepare SPEC W: W emptied; the source package's .dsc fetched (its path on
# stdout) and its build dependencies installed, or a FAIL line and status 1.
prepare() {
	local spec=$1 w=$2 pkg=${1%%/*} dsc
	rm -rf "$w" && mkdir -p "$w"
	if ! dsc=$(sh "$TOP/testsuite/real/fetch" "$CACHE" "$spec" 2>"$w/fetch.log"); then
		fail "$pkg: fetch" "$(tail -n 5 "$w/fetch.log")" >&2; return 1
	fi
	if ! $APT build-dep --arch-only "$(realpath "$dsc")" >"$w/build-dep.log" 2>&1; then
		fail "$pkg $(sed -n 's/^Version: //p' "$dsc"): build dependencies" \
			"$(tail -n 5 "$w/build-dep.log")" >&2; return 1
	fi
	echo "$dsc"
}

# clean_build SRC: a finished build's tree and the packages it made, removed.
clean_build() {
	local out=${1%/src}
	rm -rf "$1" "$out"/*.deb "$out"/*.ddeb "$out"/*.changes "$out"/*.buildinfo
}

# for_packages FUNCTION PKG...: the tools, alloctag-cc installed for the
# builds, then FUNCTION for each PKG; its lines, and "N passed, N failed".
for_packages() {
	local fn=$1 out p
	shift
	DISTRO_LOG=$(mktemp)
	trap 'rm -f "$DISTRO_LOG" "$DISTRO_LOG.install"; [ -z "$SCRATCH" ] || rm -rf "$SCRATCH"
		[ -z "$LDSO_CONF" ] || { rm -f "$LDSO_CONF"; ldconfig; }' EXIT
	{
		if ! out=$(sh "$TOP/plugin/ensure-deps.sh" "$TESTCC" dpkg-dev build-essential fakeroot 2>&1); then
			fail "tools" "$out"
		elif ! out=$(make -C "$TOP" --no-print-directory -s CC="$TESTCC" all 2>&1) || [ ! -x "$ATCC" ]; then
			fail "alloctag-cc" "$out"
		elif ! install_for_builder >"$DISTRO_LOG.install" 2>&1; then
			fail "make install for the builds" "$(tail -n 20 "$DISTRO_LOG.install")"
		else
			for p; do "$fn" "$p"; done
		fi
	} 2>&1 | tee "$DISTRO_LOG"
	echo "$(grep -c '^PASS: ' "$DISTRO_LOG") passed, $(grep -c '^FAIL: ' "$DISTRO_LOG") failed"
	! grep -q '^FAIL: ' "$DISTRO_LOG"
}
