# alloctag top in a real terminal: tmux runs it, send-keys types, capture-pane
# reads the screen.  A multi-threaded program (../threads.c), then a saved
# /proc/allocinfo.
. "$TOP/testsuite/tool/lib.sh"

if ! command -v tmux >/dev/null; then
	skip "tool/top: in tmux" "no tmux"
	return
fi
THREADS=$(at_build threads) || { fail "tool/top: build threads.c" "$THREADS"; return; }
at_private_live_dir top
TMUX_SOCKET=alloctag-check-$$
tm() { tmux -L "$TMUX_SOCKET" "$@"; }
screen() { tm capture-pane -p -t top; }

# wait_screen REGEX: until the screen shows it (5 s at most); 1 if it never did.
wait_screen() {
	for _ in $(seq 100); do
		screen | grep -qE -- "$1" && return 0
		sleep 0.05
	done
	return 1
}

# top_step NAME REGEX [KEYS...]: type KEYS, then the screen must show REGEX.
top_step() {
	local name=$1 re=$2
	shift 2
	[ $# -gt 0 ] && tm send-keys -t top "$@"
	if wait_screen "$re"; then pass "tool/top: $name"; else fail "tool/top: $name" "wanted: $re" "$(screen)"; fi
}

"$THREADS" 3000 10 > /dev/null &
pid=$!
for _ in $(seq 100); do [ -e "$XDG_RUNTIME_DIR/alloctag/$pid" ] && break; sleep 0.02; done
tm new-session -d -s top -x 140 -y 30 "XDG_RUNTIME_DIR=$XDG_RUNTIME_DIR $AT top -d 0.2 $pid"
top_step "the header names the process" "^alloctag top - .*threads \\(pid $pid\\) - [0-9:]+ - every 0.2s$"
top_step "the columns that fit 140 columns" "^ +LIVE +BLOCKS +GROWTH +RATE +TOTAL +CALLS +PEAK  SITE$"
top_step "sites, live bytes first" "^5 sites, 5 shown; sorted by live bytes; h for keys$"
# A site is file:line:column, function and callee.
# threads.c:37 keeps a block each round: it grows at every refresh.
top_step "growth since the last refresh" "^ *[0-9.]+ KiB +[0-9]+ +\\+[0-9.]+ (B|KiB) .*threads.c:37:[0-9]+ func:worker callee:malloc$"
top_step "t sorts by total bytes" "sorted by total bytes" t
first=$(screen | sed -n 5p)
case $first in
*threads.c:39:*\ func:worker\ callee:malloc) pass "tool/top: the most total bytes come first" ;;
*) fail "tool/top: the most total bytes come first" "$(screen)" ;;
esac
top_step "r reverses" "sorted by total bytes, reversed" r
top_step "/ opens the filter prompt" "^filter \\(TEXT, file:TEXT, func:TEXT, module:TEXT\\): _$" /
tm send-keys -t top ".c:40:" Enter
top_step "the filter keeps the sites that match" "^5 sites, 1 match \".c:40:\", 1 shown; sorted by total bytes, reversed"
top_step "the site kept" "threads.c:40:[0-9]+ func:worker callee:strdup$"
top_step "e shows exact numbers" "^( +[-+0-9]+(/s)?)+  threads.c:40:[0-9]+ func:worker callee:strdup$" e
top_step "h shows the keys" "^  l +sort by live bytes \\(LIVE\\)$" h
top_step "any key goes back" "^ *LIVE +BLOCKS" x
tm send-keys -t top q
for _ in $(seq 50); do tm has-session -t top 2>/dev/null || break; sleep 0.05; done
if tm has-session -t top 2>/dev/null; then
	fail "tool/top: q quits" "$(screen)"
	tm kill-session -t top
else
	pass "tool/top: q quits"
fi
kill "$pid"
wait "$pid" 2>/dev/null

# The process exits while top watches it: its final counters stay on screen.
"$THREADS" 20 10 > /dev/null &
pid=$!
for _ in $(seq 100); do [ -e "$XDG_RUNTIME_DIR/alloctag/$pid" ] && break; sleep 0.02; done
tm new-session -d -s top -x 140 -y 30 "XDG_RUNTIME_DIR=$XDG_RUNTIME_DIR $AT top -d 0.2 $pid"
top_step "a process that exits: top says so and keeps its last counters" "\\(pid $pid\\) - [0-9:]+ - every 0.2s - exited$"
top_step "... 20 blocks of threads.c:37 per thread, 80 in all" "^ *[0-9.]+ KiB +80 .*threads.c:37:[0-9]+ func:worker callee:malloc$"
tm kill-session -t top
wait "$pid" 2>/dev/null

# A saved /proc/allocinfo: live bytes and calls only.
tm new-session -d -s top -x 140 -y 30 "$AT top -d 0.5 $TDATA/kernel.allocinfo"
top_step "/proc/allocinfo: no totals, no columns for them" "^ +LIVE +BLOCKS +GROWTH  SITE$"
top_step "/proc/allocinfo: a site" "^ *1.1 MiB +272 +- +mm/slub.c:2444 func:alloc_slab_page$"
top_step "/proc/allocinfo: a module's site" "^ *12.0 KiB +3 .* fs/ext4/super.c:5391 \\[ext4\\] func:ext4_fill_super$"
top_step "/proc/allocinfo: growth 0 after a refresh" "^ *1.1 MiB +272 +0 B +mm/slub.c:2444"
tm kill-session -t top

# A screen of 8 lines and 60 columns, more sites than rows: the title stays
# on the first line, refresh after refresh, and "shown" is what is on screen.
# The file is in a folder whose path alone is wider than the screen: the
# title shortens its directories and keeps its name.
deep=$TWORK/a-folder-whose-name-is-long/and-another-one-as-long
mkdir -p "$deep"
cp "$TDATA/kernel-2.0.allocinfo" "$deep/"
tm new-session -d -s top -x 60 -y 8 "$AT top -d 0.2 $deep/kernel-2.0.allocinfo"
top_step "a small screen: 7 sites, the 4 that fit shown" "^7 sites, 4 shown; sorted by live bytes; h for keys$"
sleep 0.5
top_step "a small screen: the title stays on top after refreshes" "^alloctag top - " 
first=$(screen | head -n 1)
case $first in
"alloctag top - /"*".../kernel-2.0.allocinfo"*) pass "tool/top: a small screen: the title is the first line, the file's directories shortened" ;;
*) fail "tool/top: a small screen: the title is the first line, the file's directories shortened" "$(screen)" ;;
esac
top_step "a small screen: scrolled, which rows are shown" "^7 sites, 4 shown \\(3 to 6\\);" Down Down
long=$(screen | awk 'length > 60' | wc -l)
[ "$long" = 0 ] && pass "tool/top: a small screen: no line wider than 60" || fail "tool/top: a small screen: no line wider than 60" "$(screen)"
tm kill-session -t top

# With no operand and two processes: a list to pick one from.
if [ "$("$AT" ps | wc -l)" = 1 ]; then
	"$THREADS" 3000 10 > /dev/null &
	one=$!
	"$THREADS" 3000 10 > /dev/null &
	two=$!
	for _ in $(seq 100); do [ -e "$XDG_RUNTIME_DIR/alloctag/$two" ] && [ -e "$XDG_RUNTIME_DIR/alloctag/$one" ] && break; sleep 0.02; done
	tm new-session -d -s top -x 140 -y 30 "XDG_RUNTIME_DIR=$XDG_RUNTIME_DIR $AT top -d 0.2"
	top_step "no operand, two processes: the list" "^which one \\(1 to 2, or a pid; q quits\\)\\?"
	top_step "no operand: the one picked" "threads \\(pid $two\\) - " 2 Enter
	tm kill-session -t top
	kill $one $two
	wait $one $two 2>/dev/null
else
	skip "tool/top: no operand, two processes: the list" "other processes of this user have live counters"
fi
tm kill-server 2>/dev/null
at_shared_live_dir
