#!/usr/bin/env bash
# icecream: jansson built through icecc with ALLOCTAG_CC="icecc gcc", by a
# scheduler, a local daemon that takes no jobs and a "remote" daemon, all on
# the loopback of a network namespace of their own, started and stopped
# here (icecream's own test setup: ICECC_TEST_REMOTEBUILD makes 127.0.0.1 a
# build host like any other).  icecc puts the file -fplugin= names into the
# compiler environment it sends, and the build host compiles in it: the
# objects are the local build's, byte for byte, with the same tags, and the
# test programs write the same reports.  A compiler environment made
# beforehand (ICECC_VERSION) works when it has the plugin
# (icecc-create-env --addfile).  Run by testsuite/builds/run (its variables),
# as root: the daemons chroot into the environments and run as icecc.
set -u
. "$TOP/testsuite/lib.sh"
. "$TOP/testsuite/real/lib.sh"
. "$TOP/testsuite/builds/lib.sh"
trap stop_daemons EXIT
trap 'exit 1' INT TERM HUP PIPE

W=$BUILDS/icecream
I=$STAGE/icecream	# the daemons' folders: written by the icecc user
rm -rf "$W" "$I" && mkdir -p "$W" "$I/envs-local" "$I/envs-remote"
chown -R icecc "$I"
chmod -R a+rX "$STAGE"

export ICECC_TESTS=1 ICECC_TEST_SCHEDULER_PORTS=8767:8769
start_daemon "$W/scheduler.out" icecc-scheduler -p 8767 -n alloctag-test -l "$I/scheduler.log" -vvv
wait_for "$I/scheduler.log" "scheduler ready" || sleep 1
start_daemon "$W/local.out" env ICECC_TEST_SOCKET="$I/socket-local" iceccd --no-remote -m 2 \
	-b "$I/envs-local" -l "$I/local.log" -n alloctag-test -N localice -s 127.0.0.1:8767 -vvv
start_daemon "$W/remote.out" env ICECC_TEST_SOCKET="$I/socket-remote" iceccd -p 10246 -m 2 \
	-b "$I/envs-remote" -l "$I/remote.log" -n alloctag-test -N remoteice1 -s 127.0.0.1:8767 -vvv
RLOG=$I/remote.log

# The client: the local daemon's socket, jobs to remoteice1.
export ICECC_TEST_SOCKET=$I/socket-local ICECC_TEST_REMOTEBUILD=1 ICECC_PREFERRED_HOST=remoteice1
export ICECC_DEBUG=debug ICECC_LOGFILE=$W/icecc.log

# The scheduler gives a job only to a host with idle CPU (iceccd reports
# 1000 - idle per mille of /proc/stat as its load, and 1000 means full): on
# a machine busy with other work a job waits 4 minutes for a host, then
# icecc compiles it here.  That is icecream's choice, not a failure of the
# plugin in icecream, and is reported as a SKIP.

# cpu_idle: the percentage of CPU time idle over the next 2 seconds.
cpu_idle() {
	local before after
	before=$(head -n 1 /proc/stat)
	sleep 2
	after=$(head -n 1 /proc/stat)
	echo "$before $after" | awk '{
		for (i = 2; i <= 11; i++) { t1 += $i; t2 += $(i + 11) }
		print int(100 * (($16 + $17) - ($5 + $6)) / (t2 - t1)) }'
}

# no_host SOURCE...: every SOURCE was compiled here because the scheduler
# offered no host in time (icecc's log: its process "preparing .../SOURCE",
# then "expected use_cs reply").
no_host() {
	local src pid
	for src in "$@"; do
		pid=$(sed -n "s|^ICECC\[\([0-9]*\)\].* preparing \(.*/\)\{0,1\}$src to be compiled.*|\1|p" \
			"$W/icecc.log" | tail -n 1)
		[ -n "$pid" ] && grep -q "^ICECC\[$pid\].*expected use_cs reply" "$W/icecc.log" || return 1
	done
}

# compiled_remotely DIR: every object of DIR's build was compiled by the
# remote daemon: a "remote compile for file" line of its source.
compiled_remotely() {
	local missing
	missing=$(not_in_log "$1" "$RLOG" "remote compile for file ")
	[ -z "$missing" ] || { echo "not compiled by the remote daemon:" $missing; return 1; }
}

icecream_jansson() {
	local name="builds/icecream: jansson, ALLOCTAG_CC=\"icecc $TESTCC\"" b=$JANSSON/bld-icecream env plugin
	if ! jansson_build "$b" ALLOCTAG_CC="icecc $TESTCC"; then
		fail "$name: build" "$(logtail "$b/build.log")" "$(logtail "$RLOG")"
		return
	fi
	if ! out=$(compiled_remotely "$b"); then
		if no_host ${out#*:}; then
			skip "$name: build" "the scheduler offered no host with idle CPU for:${out#*:} (load $(cut -d' ' -f1-3 /proc/loadavg))"
		else
			fail "$name: build" "$out" "$(grep -i 'local' "$W/icecc.log" | tail -n 5)"
		fi
		return
	fi
	env=$(grep -o 'native /[^ ]*\.tar\.[a-z]*' "$W/icecc.log" | head -n 1)
	env=${env#native }
	if ! plugin=$(tar -tf "$env" | grep 'alloctag\.so$'); then
		fail "$name: build" "no alloctag.so in the compiler environment $env"
		return
	fi
	pass "$name: build"
	note "$(grep -c 'Remote compilation completed with exit code 0' "$RLOG") compilations by the remote daemon (CMake's checks included), each of the $(objects "$b" | wc -l) objects among them," \
		"in the environment icecc made, with the plugin: ${env##*/} holds $plugin"
	same_build "$name: objects and tags = local build" "$b"
	same_reports "$name: reports = local build" "$b"
}

# ICECC_VERSION: an environment made with icecc-create-env --addfile PLUGIN.
icecream_made_env() {
	local name="builds/icecream: ICECC_VERSION made with icecc-create-env --addfile" before env
	mkdir -p "$W/env"
	printf '#include <string.h>\nchar *f(const char *s) { return strdup(s); }\n' >"$W/env/f.c"
	if ! (cd "$W/env" && icecc-create-env "$(command -v "$TESTCC")" \
			--addfile "$STAGE/prefix/lib/gcc-plugin/alloctag.so") >"$W/env/create.log" 2>&1; then
		fail "$name" "$(logtail "$W/env/create.log")"
		return
	fi
	env=$(ls "$W"/env/*.tar.gz | head -n 1)
	before=$(grep -c 'Remote compilation completed with exit code 0' "$RLOG")
	(cd "$W/env" && "$ATCC" -O2 -c f.c -o ref.o)
	if ! (cd "$W/env" && ICECC_VERSION=$env ALLOCTAG_CC="icecc $TESTCC" "$ATCC" -O2 -c f.c -o f.o) \
			>"$W/env/out" 2>&1; then
		fail "$name" "$(cat "$W/env/out")"
	elif [ "$(grep -c 'Remote compilation completed with exit code 0' "$RLOG")" != $((before + 1)) ]; then
		if no_host f.c; then
			skip "$name" "the scheduler offered no host with idle CPU (load $(cut -d' ' -f1-3 /proc/loadavg))"
		else
			fail "$name" "not compiled by the remote daemon" "$(logtail "$RLOG")"
		fi
	elif ! cmp -s "$W/env/f.o" "$W/env/ref.o"; then
		fail "$name" "not the local object"
	else
		pass "$name"
	fi
}

idle=$(cpu_idle)
if [ "$idle" -lt 25 ]; then
	skip "builds/icecream" "this machine's CPUs are busy with other work ($idle% idle, load $(cut -d' ' -f1-3 /proc/loadavg)): icecream's scheduler gives no job to a host without idle CPU"
	exit 0
fi
if ! wait_for "$I/scheduler.log" "login remoteice1" || ! wait_for "$I/scheduler.log" "login localice"; then
	fail "builds/icecream: scheduler and daemons on 127.0.0.1" \
		"$(logtail "$I/scheduler.log")" "$(logtail "$I/local.log")" "$(logtail "$I/remote.log")"
	exit 0
fi
icecream_jansson
icecream_made_env
