# alloctag top without a terminal (-b): the columns fit the width, the
# site takes the rest; sort by any column, by its name or key; filters by
# file, function, module; numbers for people or exact (-B); with no
# operand, the user's one process.  (In a real terminal: make check-live.)
. "$TOP/testsuite/tool/lib.sh"

# top -b without its first line (the time of day).
top_b() { "$AT" top -b "$@" | tail -n +2; }

COLUMNS=200 at_out "tool/top: 200 columns, every column, the sites whole" \
"live 13.3 KiB in 17 blocks; total 17.2 KiB in 57 calls
5 sites, 5 shown; sorted by live bytes; h for keys
    LIVE  BLOCKS     GROWTH        RATE  CALLS/S     TOTAL  CALLS      PEAK  SITE
 8.0 KiB       2          -           -        -   8.0 KiB      2   8.0 KiB  server.c:120:13 func:conn_new callee:xmalloc
 4.0 KiB       1          -           -        -   4.0 KiB      1   4.0 KiB  untagged:0 func:untagged
  1000 B      10          -           -        -   4.9 KiB     50   2.0 KiB  cache.c:44:9 func:cache_put callee:malloc
   300 B       3          -           -        -     300 B      3     300 B  cache.c:51:20 func:cache_put callee:strdup
    64 B       1          -           -        -      64 B      1      64 B  plugin.c:7:5 [libplug.so] func:plug_init callee:calloc" \
	top_b "$TDATA/before.full"
# As wide as its numbers for people can be, each column, so that the
# choice of columns stays from one refresh to the next (below).
COLUMNS=80 at_out "tool/top: 80 columns, the site keeps half, sorted by total (-s total)" \
"live 13.3 KiB in 17 blocks; total 17.2 KiB in 57 calls
5 sites, 5 shown; sorted by total bytes; h for keys
    LIVE     GROWTH     TOTAL  SITE
 8.0 KiB          -   8.0 KiB  server.c:120:13 func:conn_new callee:xmalloc
  1000 B          -   4.9 KiB  cache.c:44:9 func:cache_put callee:malloc
 4.0 KiB          -   4.0 KiB  untagged:0 func:untagged
   300 B          -     300 B  cache.c:51:20 func:cache_put callee:strdup
    64 B          -      64 B  plugin.c:7:5 [libplug.so] func:plug_init calle..." \
	top_b -s total "$TDATA/before.full"
# A site too long gives its directories first, its file's name and line
# stay; /proc/allocinfo has no totals: no column for them.
COLUMNS=60 at_out "tool/top: 60 columns, the directories of long paths go first" \
"live 2.8 MiB in 713 blocks
7 sites, 7 shown; sorted by live bytes; h for keys
    LIVE  BLOCKS     GROWTH  SITE
 2.1 MiB     544          -  mm/slub.c:2492 func:alloc_sl...
 512 KiB     128          -  mm/page_ext.c:271 func:alloc...
96.0 KiB      24          -  .../fork.c:318 func:alloc_th...
36.0 KiB       9          -  .../xfs_buf.c:348 [xfs] func...
 1.0 KiB       8          -  lib/kobject.c:679 func:kobje...
     0 B       0          -  .../alternative.c:127 func:_...
     0 B       0          -  .../kdebugfs.c:105 func:crea..." \
	top_b "$TDATA/kernel-2.0.allocinfo"
# A deep path at 80 columns: the directories go, the file's name and line
# stay whole; narrower, the name is shortened in its middle, never the line.
cat > "$TWORK/deep.full" <<'EOR'
allocinfo - version: 2.0
#     <size>  <calls>   <total size> <total calls>  <peak size> <tag info>
      102400     6859         102400          6859       102400 src/very/long/directory/name/for/testing/columns/of/the/top/view/in/a/narrow/terminal/churn_with_a_long_file_name.c:17:69 func:worker callee:strdup 
           0        0         2048             1         2048 src/short/dir/a.c:1:2 func:a_function_with_a_name_too_long_for_its_column callee:malloc 
EOR
COLUMNS=80 at_out "tool/top: 80 columns, a deep path: its file's name and line kept" \
"    LIVE     GROWTH        RATE  SITE
 100 KiB          -           -  .../churn_with_a_long_file_name.c:17:69 func...
     0 B          -           -  .../a.c:1:2 func:a_function_with_a_name_too_..." \
	sh -c "'$AT' top -b '$TWORK/deep.full' | tail -n +4"
COLUMNS=40 at_out "tool/top: 40 columns, a deep path: its file's name shortened, its line kept" \
"    LIVE  SITE
 100 KiB  .../churn_w..._name.c:17:69...
     0 B  .../a.c:1:2 func:a_function..." \
	sh -c "'$AT' top -b '$TWORK/deep.full' | tail -n +4"
# A report that grows between two refreshes: the second has growth and
# rates, wider than the first's "-", and the same columns; its totals' line
# too long for 80 columns is cut where a field ends.
cp "$TDATA/before.full" "$TWORK/moving.full"
(sleep 1
 awk 'NR <= 2 { print; next }
      { printf "%12d %8d %14d %13d %12d", $1 * 37, $2 * 37, $3 * 977, $4 * 977, $5 * 37
        for (i = 6; i <= NF; i++) printf " %s", $i; print " " }' "$TWORK/moving.full" > "$TWORK/moving.new" &&
 mv "$TWORK/moving.new" "$TWORK/moving.full") &
COLUMNS=80 "$AT" top -b -n 2 -d 2 "$TWORK/moving.full" > "$TWORK/moving.out"
wait
at_out "tool/top: the same columns at each refresh" "    LIVE     GROWTH        RATE  SITE
    LIVE     GROWTH        RATE  SITE" grep '^ *LIVE ' "$TWORK/moving.out"
check "tool/top: a line too long cut where a field ends" grep -Eqx \
	'live 493 KiB in 629 blocks \(\+480 KiB\); total 16\.4 MiB in 55689 calls; [0-9.]+ MiB/s' "$TWORK/moving.out"
COLUMNS=30 at_out "tool/top: 30 columns, each line cut where a field ends" \
"alloctag top - before.full
live 13.3 KiB in 17 blocks
5 sites, 5 shown" sh -c "cd '$TDATA' && '$AT' top -b before.full | head -n 3"
COLUMNS=120 at_out "tool/top: a filter by module, exact numbers (-B)" \
"live 64 bytes in 1 block; total 64 bytes in 1 call
5 sites, 1 match \"module:plug\", 1 shown; sorted by live bytes; h for keys
LIVE  BLOCKS  GROWTH  RATE  CALLS/S  TOTAL  CALLS  PEAK  SITE
  64       1       -     -        -     64      1    64  plugin.c:7:5 [libplug.so] func:plug_init callee:calloc" \
	top_b -B --filter=module:plug "$TDATA/before.full"
sites_of() { "$AT" top -b "$@" | awk 'NR > 4 { print $NF }' | tr '\n' ' '; }
at_out "tool/top: a filter by function" "callee:malloc callee:strdup " sites_of -f func:CACHE "$TDATA/before.full"
at_out "tool/top: a filter by file" "callee:xmalloc " sites_of -f file:server "$TDATA/before.full"
at_out "tool/top: a filter on the whole line" "callee:strdup " sites_of -f :51: "$TDATA/before.full"
at_out "tool/top: sort by calls (key c)" "callee:malloc callee:strdup callee:xmalloc func:untagged callee:calloc " \
	sites_of -s c "$TDATA/before.full"
at_out "tool/top: sort by site" "callee:malloc callee:strdup callee:calloc callee:xmalloc func:untagged " \
	sites_of -s site "$TDATA/before.full"
# Every column --help names sorts (the names of the table, cli_table.c).
names=$("$AT" top --help | tr -s ' \n' '  ' | sed -n 's/.*Sort by COLUMN: \(.*\) or site, or its key.*/\1 or site/p' |
	sed 's/ (the default)//; s/,//g; s/ or / /')
bad=
for name in $names; do
	"$AT" top -b -s "$name" "$TDATA/before.full" | sed -n 3p | grep -q '; sorted by ' || bad="$bad $name"
done
[ "$(echo $names | wc -w)" = 9 ] && [ -z "$bad" ] && pass "tool/top: every column --help names sorts ($names)" ||
	fail "tool/top: every column --help names sorts" "names: $names" "refused:$bad"
at_error "tool/top: a column that is not" \
	"-s size: no such column: live (l), blocks (b), growth (g), rate (a), calls/s (n), total (t), calls (c), peak (p), site (s)" \
	"$AT" top -s size "$TDATA/before.full"

# No operand: the one process of yours; several: one line naming them.  Run
# where /dev/shm and /tmp are empty (a mount namespace of its own): the
# user's other processes with live counters, other tests', are not there.
THREADS=$(at_build threads) || { fail "tool/top: build threads.c" "$THREADS"; return; }
at_private_live_dir top
cat > "$TWORK/bare.sh" <<'EOS'
AT=$1 THREADS=$2 LIVE=$XDG_RUNTIME_DIR/alloctag
# a loaded machine (a kernel build beside) may take seconds: up to 20
started() { for _ in $(seq 1000); do [ -e "$LIVE/$1" ] && return; sleep 0.02; done; echo "pid $1: no live file after 20 s"; }
echo "none: $("$AT" top 2>&1 >/dev/null)"
"$THREADS" 1000 1 > /dev/null &
one=$!
started $one
echo "one: $("$AT" top -b | head -n 1 | sed 's/ - [0-9:]* - every.*//')"
echo "rates: $("$AT" top -b -n 2 -d 0.3 | awk '/^ *LIVE/ { n++ } n == 2 && / callee:malloc$/ && /B\/s/ { print "yes"; exit }')"
"$THREADS" 1000 1 > /dev/null &
two=$!
started $two
echo "two: $("$AT" top 2>&1)"
echo "pids: $one $two"
kill $one $two
wait
EOS
if ! out=$(unshare -m bash -c 'mount -t tmpfs tmpfs /dev/shm && mount -t tmpfs tmpfs /tmp && bash "$@"' \
	   bash "$TWORK/bare.sh" "$AT" "$THREADS" 2>&1) || ! echo "$out" | grep -q '^pids: '; then
	skip "tool/top: no operand" "no mount namespace of its own to run in: $out"
else
	read -r one two < <(echo "$out" | sed -n 's/^pids: //p')
	if [ ! -e /proc/allocinfo ]; then
		at_out "tool/top: no operand, no process, no /proc/allocinfo" \
			"alloctag top: no process of yours has live counters (alloctag ps), and this kernel has no /proc/allocinfo" \
			sh -c "echo '$out' | sed -n 's/^none: //p'"
	fi
	at_out "tool/top: no operand, one process: that one" "alloctag top - $THREADS (pid $one)" \
		sh -c "echo '$out' | sed -n 's/^one: //p'"
	at_out "tool/top: the second refresh has each site's rate" "yes" sh -c "echo '$out' | sed -n 's/^rates: //p'"
	at_out "tool/top: no operand, two processes: one line naming them" \
		"alloctag top: 2 processes of yours have live counters, $one ($THREADS), $two ($THREADS): name one" \
		sh -c "echo '$out' | sed -n 's/^two: //p'"
fi
at_shared_live_dir
