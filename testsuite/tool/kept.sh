# Reports kept in the live directory (runtime/live_dir.h): a process whose
# report had nowhere to go (ALLOCTAG_REPORT unset) keeps it as DIR/PID.report;
# `alloctag snapshot PID` reads it as the exit
# report, `alloctag ps -a` lists it; only the last 64 are kept.  A killed
# process's counters, DIR/PID.counters, are read and listed alike; a
# program's name or its own file reads the last to end; a login session's
# directory is looked in from outside it.
. "$TOP/testsuite/tool/lib.sh"

THREADS=$(at_build threads) || { fail "tool/kept: build threads.c" "$THREADS"; return; }
at_private_live_dir kept
LIVE=$XDG_RUNTIME_DIR/alloctag
unset ALLOCTAG_REPORT

# The same program with its report asked for, then with nowhere to send it.
ALLOCTAG_FORMAT=full ALLOCTAG_REPORT=$TWORK/kept.asked "$THREADS" 5 1 > /dev/null
"$THREADS" 5 1 > /dev/null 2> "$TWORK/kept.err" &
pid=$!
wait "$pid"
sites() { awk 'NR > 2 && !/^#/ && $6 !~ /^untagged/ { print $3, $4, $6 }' "$1" | sort; }
"$AT" snapshot -f full "$pid" > "$TWORK/kept.snapshot" 2>&1
if [ ! -s "$TWORK/kept.err" ] && [ -f "$LIVE/$pid.report" ] &&
   [ "$(sites "$TWORK/kept.snapshot")" = "$(sites "$TWORK/kept.asked")" ]; then
	pass "tool/kept: snapshot PID of an ended process reads its kept report"
else
	fail "tool/kept: snapshot PID of an ended process reads its kept report" \
		"$(cat "$TWORK/kept.err" "$TWORK/kept.snapshot")" "$(ls -l "$LIVE")"
fi
check "tool/kept: ps -a lists it" sh -c "'$AT' ps -a | grep -q '^ *$pid .*threads (exited)\$'"
check "tool/kept: ps alone does not" sh -c "! '$AT' ps | grep -q '^ *$pid '"
# Its live bytes: exact with --bytes (the snapshot's sum), for people without.
live_sum=$("$AT" snapshot "$pid" | awk 'NR > 2 && !/^#/ { n += $1 } END { print n }')
ps_row() { "$AT" ps -a "$@" | awk -v pid="$pid" '$1 == pid'; }
check "tool/kept: ps --bytes says its live bytes exactly" \
	sh -c "[ \"\$(echo '$(ps_row --bytes)' | awk '{ print \$2 }')\" = '$live_sum' ]"
check "tool/kept: ps says them in units" \
	sh -c "echo '$(ps_row)' | grep -Eq '^ *$pid +[0-9.]+ (B|KiB|MiB) '"

# A program named in ps as its report names it, running or ended (not by the
# path it was started by); its blocks for people (120k), exactly with -B.
at_shared_live_dir
at_private_live_dir kept-ps
"$THREADS" 30000 0 > /dev/null 2>&1 &
big=$!
wait $big
"$THREADS" 1000 1 > /dev/null 2>&1 &
running=$!
at_started $running
blocks=$("$AT" snapshot -f full "$big" | awk 'NR > 2 && !/^#/ { n += $2 } END { print n }')
at_out "tool/kept: ps names a program alike running or ended" "$running threads
$big threads (exited)" sh -c "'$AT' ps -a | awk '\$1 == $big || \$1 == $running { print \$1, \$6, \$7 }' | sed 's/ \$//'"
at_out "tool/kept: ps says blocks for people" "$big 120k" sh -c "'$AT' ps -a | awk '\$1 == $big { print \$1, \$4 }'"
at_out "tool/kept: ps -B, blocks exactly" "$big $blocks" \
	sh -c "'$AT' ps -aB | awk '\$1 == $big { print \$1, \$3 }'"
kill $running 2>/dev/null
wait $running 2>/dev/null
at_shared_live_dir
at_private_live_dir kept

# 70 runs: the 64 last are kept, the oldest gone.
pids=()
for _ in $(seq 70); do
	"$THREADS" 1 0 > /dev/null 2>&1 &
	pids+=($!)
	wait $!
done
n=$(ls "$LIVE" | grep -c '\.report$')
if [ "$n" = 64 ] && [ ! -e "$LIVE/${pids[5]}.report" ] && [ -e "$LIVE/${pids[6]}.report" ] &&
   [ -e "$LIVE/${pids[69]}.report" ]; then
	pass "tool/kept: the last 64 reports are kept, the oldest removed first"
else
	fail "tool/kept: the last 64 reports are kept, the oldest removed first" "$n kept" "$(ls -lt "$LIVE" | tail -n 3)"
fi
# The oldest run's report is gone from the private directory; an ended pid
# is also looked for in the shared ones (live_dir.h), where a process of
# another test may have kept a report under the same pid (pid_max 32768
# wraps in a long run): then the check says nothing.
shared_reports=
for f in /dev/shm/alloctag-"$(id -u)"/"${pids[0]}".* /tmp/alloctag-"$(id -u)"/"${pids[0]}".*; do
	[ -e "$f" ] && shared_reports="$shared_reports $f"
done
if [ -n "$shared_reports" ]; then
	skip "tool/kept: no report kept" "pid ${pids[0]} reused: $shared_reports"
else
	at_error "tool/kept: no report kept" "no process ${pids[0]}" "$AT" snapshot "${pids[0]}"
fi
at_shared_live_dir

# More than one too many at once, reports the runtime's index of them does
# not name (left by an older runtime): the next sweep (here the next start)
# adopts them, the oldest first, and removes the oldest beyond the bound.
# Kept 10 ms apart: a file's ctime moves with the kernel's tick.
at_private_live_dir kept-burst
burst=$XDG_RUNTIME_DIR/alloctag
mkdir -m 700 "$burst"
for i in $(seq 70); do echo '{}' > "$burst/$((2000000000 + i)).report"; sleep 0.01; done
"$THREADS" 1 0 > /dev/null 2>&1 &
pid=$!
wait $pid
gone=$(for i in $(seq 70); do [ -e "$burst/$((2000000000 + i)).report" ] || echo $i; done | tr '\n' ' ')
[ "$(ls "$burst" | grep -c '\.report$')" = 64 ] && [ "$gone" = "1 2 3 4 5 6 7 " ] && [ -e "$burst/$pid.report" ] &&
	pass "tool/kept: seven too many, an older runtime's: the seven oldest removed by the next process" ||
	fail "tool/kept: seven too many, an older runtime's: the seven oldest removed by the next process" "gone: $gone" "$(ls "$burst" | wc -l) left"
# Bounded in bytes too (16 MiB): three reports of 6 MiB take the place of the
# small ones before them, and of the oldest of themselves.
for i in 1 2 3; do head -c 6M /dev/zero > "$burst/$((2100000000 + i)).report"; sleep 0.01; done
sleep 1.05	# the next start sweeps (runtime/live_dir.h: LIVE_SWEEP_INTERVAL_NS)
"$THREADS" 1 0 > /dev/null 2>&1 &
pid=$!
wait $pid
left=$(ls "$burst" | grep '\.report$' | sort | tr '\n' ' ')
[ "$left" = "$(printf '%s.report\n' 2100000002 2100000003 "$pid" | sort | tr '\n' ' ')" ] &&
	pass "tool/kept: at most 16 MiB kept, the oldest removed first" ||
	fail "tool/kept: at most 16 MiB kept, the oldest removed first" "left: $left"
at_shared_live_dir

# By the program's name: its latest kept report when none of that name runs;
# its one running process; several running: one line naming their pids.
at_private_live_dir kept-names
"$THREADS" 1 0 > /dev/null 2>&1
"$THREADS" 2 0 > /dev/null 2>&1 &
latest=$!
wait $latest
at_out "tool/kept: a program's name reads its latest kept report" "$("$AT" snapshot -f full "$latest")" \
	"$AT" snapshot -f full threads
# The program's own file (an ELF file, not a report) names it, by its path
# or from its directory.
at_out "tool/kept: the program's file names it" "$("$AT" snapshot -f full "$latest")" \
	"$AT" snapshot -f full "$THREADS"
at_out "tool/kept: the program's file names it, from its directory" "$("$AT" snapshot -f full "$latest")" \
	sh -c "cd '$(dirname "$THREADS")' && '$AT' snapshot -f full threads"
cp "$THREADS" "$TWORK/unrun"
at_error "tool/kept: a program none of that name ran" \
	"$TWORK/unrun is a program: no process of yours named unrun runs or kept its report (alloctag ps -a lists them)" \
	"$AT" leaks "$TWORK/unrun"
"$THREADS" 1000 1 > /dev/null 2>&1 &
one=$!
at_started $one
check "tool/kept: a program's name reads its running process" \
	sh -c "'$AT' top -b threads | head -n 1 | grep -q '(pid $one)'"
"$THREADS" 1000 1 > /dev/null 2>&1 &
two=$!
at_started $two
at_error "tool/kept: a name two processes run" "2 processes named threads run ($one, $two): name one by its pid" \
	"$AT" diff threads threads
kill $one $two 2>/dev/null
wait $one $two 2>/dev/null
at_error "tool/kept: a name nothing has" \
	"no file nosuchprogram, and no process of yours named so (alloctag ps -a lists them)" \
	"$AT" pprof -o "$TWORK/x.pb.gz" nosuchprogram
at_shared_live_dir

# Under a pipe (stderr not a terminal: a test harness, a service): nothing on
# the pipe, the report kept, read by the program's name.
at_private_live_dir kept-pipe
out=$("$THREADS" 3 0 2>&1 | cat)
at_out "tool/kept: under a pipe, only the program's own output on it" "done" echo "$out"
check "tool/kept: under a pipe, the report is kept and read by name" \
	sh -c "'$AT' leaks threads | head -n 1 | grep -Eq '^threads \\(pid [0-9]+\\), exited: [0-9]+ sites held .* at exit\$'"
at_shared_live_dir

# A program killed (SIGTERM, as timeout sends it) writes no report: its live
# file, its counters as last seen, is kept as DIR/PID.counters, listed by
# ps -a as killed, and read by pid and by name as a kept report is; of two
# runs of one name, the name means the newer, the killed one here.
at_private_live_dir kept-killed
LIVE=$XDG_RUNTIME_DIR/alloctag
"$THREADS" 2 0 > /dev/null 2>&1 &
older=$!
wait $older
"$THREADS" 1 100000 > /dev/null 2>&1 &	# one round, then asleep: its counters stay
killed=$!
at_started $killed
sleep 0.2
sites() { awk 'NR > 2 && !/^#/ { print $1, $2, $3, $4, $5, $6 }' "$1" | sort; }
"$AT" snapshot -f full $killed > "$TWORK/before-kill.full"
kill -TERM $killed
wait $killed 2>/dev/null
"$AT" snapshot -f full $killed > "$TWORK/after-kill.full" 2>&1
if [ -s "$TWORK/before-kill.full" ] && [ "$(sites "$TWORK/before-kill.full")" = "$(sites "$TWORK/after-kill.full")" ]; then
	pass "tool/kept: a killed process read by pid: its counters as last seen"
else
	fail "tool/kept: a killed process read by pid: its counters as last seen" \
		"$(diff "$TWORK/before-kill.full" "$TWORK/after-kill.full")"
fi
at_out "tool/kept: ... with a note saying so" \
	"# alloctag: it ended without its report (killed by a signal, or _exit()): its counters as last seen" \
	sed -n 3p "$TWORK/after-kill.full"
at_out "tool/kept: a killed process's file is kept as PID.counters" "$killed.counters $older.report" \
	sh -c "ls '$LIVE' | sort -r | tr '\n' ' ' | sed 's/ \$//'"
at_out "tool/kept: ps -a lists it, killed" "$killed threads (killed)
$older threads (exited)" sh -c "'$AT' ps -a | awk '\$1 == $older || \$1 == $killed { print \$1, \$6, \$7 }' | sort -r"
at_out "tool/kept: the name means the newer run: the killed one" \
	"$THREADS (pid $killed), killed: 4 sites held" \
	sh -c "'$AT' leaks threads | head -n 1 | sed 's/ held .*/ held/'"
AT_RC=0 at_out "tool/kept: diff by name says which pid it read" "A: threads (pid $killed)
B: $killed" sh -c "'$AT' diff threads $killed | head -n 2"
at_shared_live_dir

# A report kept where this reader does not look by itself: by a process of a
# login session ($XDG_RUNTIME_DIR /run/user/UID) read where there is none
# (cron, sudo) or another; and by a process without one, read from a
# session.  In a mount namespace of its own, where /run/user, /dev/shm and
# /tmp are empty.
cat > "$TWORK/session.sh" <<'EOS'
AT=$1 THREADS=$2 session=/run/user/$(id -u)
mkdir -m 700 "$session" || exit 1
program() { "$AT" ps -a | awk -v pid="$1" '$1 == pid { print $6, $7 }'; }
XDG_RUNTIME_DIR=$session "$THREADS" 1 0 > /dev/null 2>&1 &
pid=$!
wait $pid
echo "without: $(unset XDG_RUNTIME_DIR; program $pid)"
echo "another: $(XDG_RUNTIME_DIR=/tmp program $pid)"
(unset XDG_RUNTIME_DIR; exec "$THREADS" 1 0 > /dev/null 2>&1) &
pid=$!
wait $pid
echo "from a session: $(XDG_RUNTIME_DIR=$session program $pid)"
echo done
EOS
if ! out=$(unshare -m bash -c 'mount -t tmpfs tmpfs /run/user && mount -t tmpfs tmpfs /dev/shm &&
			     mount -t tmpfs tmpfs /tmp && bash "$@"' bash "$TWORK/session.sh" "$AT" "$THREADS" 2>&1) ||
   ! echo "$out" | grep -qx done; then
	skip "tool/kept: a report kept in a login session's directory" "no mount namespace of its own to run in: $out"
else
	at_out "tool/kept: a session's report, read without XDG_RUNTIME_DIR" "threads (exited)" \
		sh -c "echo '$out' | sed -n 's/^without: //p'"
	at_out "tool/kept: a session's report, read with another XDG_RUNTIME_DIR" "threads (exited)" \
		sh -c "echo '$out' | sed -n 's/^another: //p'"
	at_out "tool/kept: a report without a session's, read from a session" "threads (exited)" \
		sh -c "echo '$out' | sed -n 's/^from a session: //p'"
fi
