# Reading running programs: a reader following a multi-threaded program
# converges to its exit report; snapshot, ps, top and pprof of a live
# process; record's bounded timeline; ALLOCTAG_LIVE=off.
. "$TOP/testsuite/tool/lib.sh"
shopt -s extglob

THREADS=$(at_build threads) || { fail "tool/live: build threads.c" "$THREADS"; return; }
at_private_live_dir xdg

# The sites of a full report (or snapshot), as "file:line L/C T/TC P".
at_sites() {
	awk 'NR > 2 && !/^#/ { print $6 " " $1 "/" $2 " " $3 "/" $4 " " $5 }' "$1" | sort
}

# at_converges NAME BASE RECORD-ARGS...: the last sample of the timeline
# record writes (TWORK/BASE.timeline) is the exit report, exactly.
at_converges() {
	local name=$1 tl=$TWORK/$2.timeline report=$TWORK/$2.report last=$TWORK/$2.last out
	shift 2
	rm -f "$tl" "$report"
	if ! out=$(ALLOCTAG_FORMAT=full ALLOCTAG_REPORT=$report "$AT" record "$@" 2>&1); then
		fail "$name" "record failed" "$out"
		return
	fi
	"$AT" snapshot -f full "$tl" > "$last" || { fail "$name" "no last sample"; return; }
	if [ "$(at_sites "$report")" != "$(at_sites "$last")" ]; then
		fail "$name" "last sample and exit report differ:" "$(diff <(at_sites "$report") <(at_sites "$last"))"
		return
	fi
	if ! tail -n 1 "$tl" | grep -q '"exited": true'; then
		fail "$name" "no end line saying the process exited" "$(tail -n 2 "$tl")"
		return
	fi
	pass "$name"
}

at_converges "tool/live: record -- a multi-threaded program, last sample = exit report" \
	threads -i 20ms -o "$TWORK/threads.timeline" -- "$THREADS" 40 5

# A program that ends at once is still caught (inotify, and the file kept open).
at_converges "tool/live: record -- a program that ends at once" \
	short -o "$TWORK/short.timeline" -- "$THREADS" 1 0
# What record says: how many samples it wrote (one, for a program that
# ends at once: "1 sample").
said=$("$AT" record -o "$TWORK/said.timeline" -- "$THREADS" 1 0 2>&1 >/dev/null)
n=$(grep -c '^{"t"' "$TWORK/said.timeline")
pid=$(echo "$said" | sed -n 's/.* (pid \([0-9]*\)) .*/\1/p')
at_out "tool/live: record says how many samples it wrote" \
	"alloctag: $n sample$([ "$n" = 1 ] || echo s) of $THREADS (pid $pid) in $TWORK/said.timeline" echo "$said"
at_error "tool/live: record -- a command that cannot run" "cannot run $TWORK/none: No such file or directory" \
	"$AT" record -o "$TWORK/none.timeline" -- "$TWORK/none"
at_error "tool/live: record -m under the least size of a timeline" \
	"-m 2k: less than 64k, the smallest a timeline is kept in" \
	"$AT" record -m 2k -o "$TWORK/none.timeline" -- "$THREADS" 1 0
err=$("$AT" record -o "$TWORK/none.timeline" -- true 2>&1 >/dev/null)
rc=$?
if [ $rc = 2 ] && [[ $err == "alloctag record: true (pid "+([0-9])") exited with no live counters: it does not run with the alloctag runtime (build it with alloctag-cc), or runs with ALLOCTAG_LIVE=off" ]]; then
	pass "tool/live: record -- a program without the runtime"
else
	fail "tool/live: record -- a program without the runtime" "status $rc" "$err"
fi

# A shared library's sites keep their module name through the live file.
(cd "$TOP/examples/shared" &&
 "$ATCC" -O2 -fPIC -shared -o "$TWORK/libnames.so" names.c &&
 "$ATCC" -O2 -o "$TWORK/names" main.c -L"$TWORK" -lnames -Wl,-rpath,"$TWORK") > "$TWORK/names.log" 2>&1 ||
	fail "tool/live: build examples/shared" "$(cat "$TWORK/names.log")"
at_converges "tool/live: record -- a program with a shared library" names -o "$TWORK/names.timeline" -- "$TWORK/names"
grep -q ' names.c:[0-9:]* \[libnames.so\] func:names_add ' "$TWORK/names.last" &&
	pass "tool/live: a shared library's site is named with its module" ||
	fail "tool/live: a shared library's site is named with its module" "$(cat "$TWORK/names.last")"

# After fork, the child's live file is its own (the exit report's rule), and
# what the reader says of each process is what its runtime reports at that
# moment (ALLOCTAG_SIGNAL), site by site.
if FORKS=$(at_build forks); then
	mkfifo "$TWORK/forks.in"
	ALLOCTAG_SIGNAL=USR1 ALLOCTAG_FORMAT=full ALLOCTAG_REPORT=$TWORK/forks.%p \
		"$FORKS" < "$TWORK/forks.in" > "$TWORK/forks.out" &
	exec {hold}> "$TWORK/forks.in"
	for _ in $(seq 100); do [ "$(wc -l < "$TWORK/forks.out")" = 2 ] && break; sleep 0.02; done
	parent=$(sed -n 's/^parent //p' "$TWORK/forks.out")
	child=$(sed -n 's/^child //p' "$TWORK/forks.out")
	for who in parent child; do
		pid=${!who}
		"$AT" snapshot -f full "$pid" > "$TWORK/forks.$who.snapshot"
		kill -USR1 "$pid"
		for _ in $(seq 100); do [ -s "$TWORK/forks.$pid" ] && break; sleep 0.02; done
		sleep 0.1
		if [ -s "$TWORK/forks.$pid" ] &&
		   [ "$(at_sites "$TWORK/forks.$who.snapshot")" = "$(at_sites "$TWORK/forks.$pid")" ]; then
			pass "tool/live: after fork, the $who read live = its report"
		else
			fail "tool/live: after fork, the $who read live = its report" \
				"$(diff <(at_sites "$TWORK/forks.$who.snapshot") <(at_sites "$TWORK/forks.$pid"))"
		fi
	done
	# (and stdout's buffer, of the printf at forks.c:25, as big as the file's blocks)
	got=$("$AT" snapshot "$parent" |
		awk 'NR > 2 && $3 != "untagged:0" { print $3 == "forks.c:25" ? "BUFSIZ" : $1, $2, $3 }' | sort)
	[ "$got" = "100 1 forks.c:15
BUFSIZ 1 forks.c:25" ] && pass "tool/live: the parent's counters, without the child's" ||
		fail "tool/live: the parent's counters, without the child's" "$got"
	# The child's: its copy of the parent's block, and its own (200 bytes at
	# forks.c:22; more there at -O2 with the runtime of this writing: a runtime
	# matter, the reader says what the runtime reports).
	got=$("$AT" snapshot "$child" | awk 'NR > 2 && $3 != "untagged:0" { print $1, $2, $3 }')
	case $got in
	"100 1 forks.c:15") fail "tool/live: the child's own counters" "$got" ;;
	*forks.c:22*"100 1 forks.c:15"*) pass "tool/live: the child's own counters" ;;
	*) fail "tool/live: the child's own counters" "$got" ;;
	esac
	exec {hold}>&-
	wait
else
	fail "tool/live: build forks.c" "$FORKS"
fi

# Thinning: a file of at most 64 KiB for 2000 samples; stride doubled.
at_converges "tool/live: a bounded timeline keeps the exit report" \
	bounded -i 1ms -m 64k -o "$TWORK/bounded.timeline" -- "$THREADS" 1500 1
size=$(stat -c %s "$TWORK/bounded.timeline")
stride=$(head -n 1 "$TWORK/bounded.timeline" | sed 's/.*"stride": \([0-9]*\).*/\1/')
if [ "$size" -le $((65536 + 100)) ] && [ "$stride" -ge 2 ]; then
	pass "tool/live: thinning keeps the timeline under its bound ($size bytes, stride $stride)"
else
	fail "tool/live: thinning keeps the timeline under its bound" "$size bytes, stride $stride"
fi

# A process while it runs: snapshot, ps, top -b, pprof.
"$THREADS" 150 10 > /dev/null &
pid=$!
for _ in $(seq 100); do [ -e "$XDG_RUNTIME_DIR/alloctag/$pid" ] && break; sleep 0.02; done
if [ ! -e "$XDG_RUNTIME_DIR/alloctag/$pid" ]; then
	fail "tool/live: the live file appears" "no $XDG_RUNTIME_DIR/alloctag/$pid"
else
	pass "tool/live: the live file appears"
	sleep 0.1
	got=$("$AT" snapshot -f full "$pid" 2>&1 | awk 'NR > 2 { print $6 " " $7 }' | sort)
	want="$(printf '%s\n' "threads.c:32:23 func:worker" "threads.c:37:27 func:worker" \
		"threads.c:39:46 func:worker" "threads.c:40:24 func:worker" "untagged:0 func:untagged" | sort)"
	if [ "$got" = "$want" ]; then
		pass "tool/live: snapshot of a running process"
	else
		fail "tool/live: snapshot of a running process" "$got"
	fi
	check "tool/live: ps lists it" sh -c "'$AT' ps | grep -q '^ *$pid .*threads\$'"
	check "tool/live: top -b" sh -c "'$AT' top -b $pid | head -n 1 | grep -q '^alloctag top - .*threads (pid $pid)'"
	"$AT" pprof -o "$TWORK/live.pb.gz" "$pid" && check "tool/live: pprof of a running process is gzip" \
		gzip -t "$TWORK/live.pb.gz"
	# record PID: follows it to its exit (status 0), the end line says it exited.
	if "$AT" record -i 50ms -o "$TWORK/attached.timeline" "$pid" 2>/dev/null &&
	   tail -n 1 "$TWORK/attached.timeline" | grep -q '"exited": true'; then
		pass "tool/live: record PID follows the process to its exit"
	else
		fail "tool/live: record PID follows the process to its exit" "$(tail -n 2 "$TWORK/attached.timeline")"
	fi
fi
wait "$pid" 2>/dev/null

ALLOCTAG_LIVE=off "$THREADS" 100 10 > /dev/null &
pid=$!
sleep 0.2
at_error "tool/live: ALLOCTAG_LIVE=off" "process $pid (threads) runs with ALLOCTAG_LIVE=off: it has no live counters" \
	"$AT" snapshot "$pid"
kill "$pid" 2>/dev/null
wait "$pid" 2>/dev/null

# A pid given again: the kept counters of a killed process are not those of
# the process that now runs under its pid without live counters.  In a pid
# namespace of its own, where ns_last_pid gives the pid again.
cat > "$TWORK/reuse.sh" <<'EOS'
AT=$1 THREADS=$2
"$THREADS" 100 10 >/dev/null &
a=$!
sleep 0.3
kill -9 $a; wait $a 2>/dev/null
"$AT" snapshot $a >/dev/null 2>&1	# kept as $a.counters
sleep 0.1				# a clock tick, /proc's unit of start times
echo $((a - 1)) > /proc/sys/kernel/ns_last_pid || exit 1
ALLOCTAG_LIVE=off "$THREADS" 100 10 >/dev/null &
b=$!
[ "$b" = "$a" ] || { echo "pid $b, not $a"; exit 1; }
sleep 0.2
"$AT" snapshot $b 2>&1 | sed "s/ $b / PID /"
echo "status ${PIPESTATUS[0]}"
kill $b
EOS
if [ "$(id -u)" = 0 ]; then ns="unshare -m --pid --fork --mount-proc"; else ns="unshare -rm --pid --fork --mount-proc"; fi
if ! out=$($ns bash -c 'mount -t tmpfs tmpfs /dev/shm && mount -t tmpfs tmpfs /tmp && unset XDG_RUNTIME_DIR &&
			bash "$@"' bash "$TWORK/reuse.sh" "$AT" "$THREADS" 2>&1) || ! echo "$out" | grep -q '^status '; then
	skip "tool/live: a pid given again after a killed process" "no pid namespace of its own to run in: $out"
else
	at_out "tool/live: a pid given again after a killed process" \
		"alloctag snapshot: process PID (threads) runs with ALLOCTAG_LIVE=off: it has no live counters
status 2" echo "$out"
fi
at_shared_live_dir
