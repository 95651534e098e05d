# The live directory's rules, on the reader's side: another user's process,
# a process without the runtime, a symlink, a file or directory owned by
# someone else or open to others, stale files (exec, or not counters and
# dead), corrupt, truncated and other-version files.  Each: one line, status
# 2, and the stale ones removed; a killed process's file kept.
. "$TOP/testsuite/tool/lib.sh"

FAKE=$TWORK/fakelive
"$TESTCC" -O2 -Wall -I"$TOP/runtime" -o "$FAKE" "$TOP/testsuite/tool/fakelive.c" "$TOP/runtime/live_dir.c" "$TOP/runtime/live_kept.c" "$TOP/runtime/sys.c" ||
	{ fail "tool/security: build fakelive.c"; return; }
NOBODY=65534
at_private_live_dir sec
LIVE=$XDG_RUNTIME_DIR/alloctag
fresh_live_dir() { rm -rf "$LIVE" && mkdir -m 700 "$LIVE"; }

sleep 0 & gone=$!
wait "$gone"
at_error "tool/security: no such process" "no process $gone" "$AT" top "$gone"

sleep 30 &
plain=$!
fresh_live_dir
at_error "tool/security: a process without the runtime" \
	"process $plain (sleep) has no live counters: it does not run with the alloctag runtime (build it with alloctag-cc)" \
	"$AT" snapshot "$plain"

if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	setpriv --reuid=$NOBODY --regid=$NOBODY --clear-groups sleep 30 &
	theirs=$!
	sleep 0.1
	at_error "tool/security: another user's process" \
		"process $theirs (sleep) belongs to nobody (uid $NOBODY), not to you: alloctag reads only its own user's processes (run it as that user)" \
		"$AT" record "$theirs"
	kill "$theirs"
else
	at_error "tool/security: another user's process" \
		"process 1 ($(cat /proc/1/comm)) belongs to root (uid 0), not to you: alloctag reads only its own user's processes (run it as that user)" \
		"$AT" snapshot 1
fi

# What is at DIR/PID instead of a live file.
ln -s /etc/passwd "$LIVE/$plain"
at_error "tool/security: a symlink in place of the file" "refusing $LIVE/$plain: a symbolic link" \
	"$AT" snapshot "$plain"
[ -L "$LIVE/$plain" ] && pass "tool/security: the symlink is left alone" ||
	fail "tool/security: the symlink is left alone"
fresh_live_dir
mkfifo -m 600 "$LIVE/$plain"
at_error "tool/security: a fifo in place of the file" "refusing $LIVE/$plain: not a regular file" \
	"$AT" snapshot "$plain"
fresh_live_dir
install -m 644 /dev/null "$LIVE/$plain"
at_error "tool/security: a file open to others" \
	"refusing $LIVE/$plain: mode 644, open to others (the runtime makes it 600)" "$AT" snapshot "$plain"
fresh_live_dir
if [ "$(id -u)" = 0 ]; then
	install -m 600 -o $NOBODY /dev/null "$LIVE/$plain"
	at_error "tool/security: a file owned by someone else" \
		"refusing $LIVE/$plain: owned by uid $NOBODY, not by you (uid 0)" "$AT" snapshot "$plain"
	fresh_live_dir
	chown $NOBODY "$LIVE"
	at_error "tool/security: a directory owned by someone else" \
		"refusing $LIVE: it is not the user's alone (owner, or permissions for others)" "$AT" snapshot "$plain"
else
	skip "tool/security: a file and a directory owned by someone else" "not root"
fi
rm -rf "$LIVE" && mkdir -m 755 "$LIVE"
at_error "tool/security: a directory open to others" \
	"refusing $LIVE: it is not the user's alone (owner, or permissions for others)" "$AT" snapshot "$plain"
rm -rf "$LIVE" && mkdir -m 700 "$TWORK/sec-elsewhere" 2>/dev/null; ln -s "$TWORK/sec-elsewhere" "$LIVE"
at_error "tool/security: a symlink in place of the directory" \
	"refusing $LIVE: it is a symlink or not a directory" "$AT" snapshot "$plain"
rm -f "$LIVE"
kill "$plain"
wait "$plain" 2>/dev/null

# Files a writer (fakelive, its identity in the header as the runtime's) made wrong.
fake() {	# fake KIND: starts fakelive, sets $fake to its pid once its file is there
	fresh_live_dir
	rm -f "$TWORK/fake.out"
	"$FAKE" "$1" "$LIVE" > "$TWORK/fake.out" &
	fake=$!
	for _ in $(seq 200); do grep -q ready "$TWORK/fake.out" 2>/dev/null && break; sleep 0.01; done
}
unfake() { kill "$fake" 2>/dev/null; wait "$fake" 2>/dev/null; }
fake garbage
at_error "tool/security: not counters" "$LIVE/$fake: not alloctag counters" "$AT" snapshot "$fake"
unfake
fake version
at_error "tool/security: counters of another version" \
	"$LIVE/$fake: live counters of version 3; this alloctag reads version 2 (use the alloctag of the program's release)" \
	"$AT" top "$fake"
unfake
fake truncated
at_error "tool/security: truncated counters" \
	"$LIVE/$fake: truncated (its header says 12288 bytes, the file has 4096)" "$AT" snapshot "$fake"
unfake
fake empty
at_error "tool/security: a file being made" "$LIVE/$fake: the process is starting" "$AT" snapshot "$fake"
unfake

# The writer killed (SIGKILL: no exit handler): its file is its last word,
# kept as PID.counters and read as such (here, truncated: one line).  Stale:
# a dead process's file that is not counters, or one whose writer exec'd
# (the same pid and start, another program's code and stack).  Recognized,
# removed, said as "no process" or "no live counters".
fake truncated
kill -KILL "$fake"
wait "$fake" 2>/dev/null
at_error "tool/security: a killed process's file" \
	"$LIVE/$fake.counters: truncated (its header says 12288 bytes, the file has 4096)" "$AT" snapshot "$fake"
[ ! -e "$LIVE/$fake" ] && [ -f "$LIVE/$fake.counters" ] && pass "tool/security: a killed process's file is kept" ||
	fail "tool/security: a killed process's file is kept" "$(ls -l "$LIVE")"
fake garbage
kill -KILL "$fake"
wait "$fake" 2>/dev/null
at_error "tool/security: a dead process's file, not counters" "no process $fake" "$AT" snapshot "$fake"
[ ! -e "$LIVE/$fake" ] && [ ! -e "$LIVE/$fake.counters" ] && pass "tool/security: a dead process's file is removed" ||
	fail "tool/security: a dead process's file is removed" "$(ls -l "$LIVE")"
fake exec
sleep 0.1
at_error "tool/security: a file left by exec" \
	"process $fake (sleep) has no live counters: it does not run with the alloctag runtime (build it with alloctag-cc)" \
	"$AT" snapshot "$fake"
[ ! -e "$LIVE/$fake" ] && pass "tool/security: a file left by exec is removed" ||
	fail "tool/security: a file left by exec is removed" "$(ls -l "$LIVE")"
unfake
at_shared_live_dir
