# alloctag leaks: what was live at exit, by site, largest first, from a
# report, a kept report (by pid or by the program's name) or a running
# process; and snapshot's table for people.
. "$TOP/testsuite/tool/lib.sh"

at_out "tool/leaks: a report" "before.full: 5 sites held 13.3 KiB in 17 blocks when the report was made
   LIVE  BLOCKS    TOTAL  CALLS  SITE
8.0 KiB       2  8.0 KiB      2  server.c:120:13 func:conn_new callee:xmalloc
4.0 KiB       1  4.0 KiB      1  untagged:0 func:untagged
 1000 B      10  4.9 KiB     50  cache.c:44:9 func:cache_put callee:malloc
  300 B       3    300 B      3  cache.c:51:20 func:cache_put callee:strdup
   64 B       1     64 B      1  plugin.c:7:5 [libplug.so] func:plug_init callee:calloc" \
	sh -c "cd '$TDATA' && '$AT' leaks before.full"
# /proc/allocinfo 2.0: only the sites that hold something, exactly (-B).
at_out "tool/leaks: /proc/allocinfo, exact" "$TDATA/kernel-2.0.allocinfo: 5 sites held 2888704 bytes in 713 blocks when the report was made
   LIVE  BLOCKS  SITE
2228224     544  mm/slub.c:2492 func:alloc_slab_page
 524288     128  mm/page_ext.c:271 func:alloc_page_ext
  98304      24  kernel/fork.c:318 func:alloc_thread_stack_node
  36864       9  fs/xfs/xfs_buf.c:348 [xfs] func:xfs_buf_alloc_backing_mem accurate:no
   1024       8  lib/kobject.c:679 func:kobject_set_name_vargs" \
	"$AT" leaks --bytes "$TDATA/kernel-2.0.allocinfo"
printf 'allocinfo - version: 2.0\n#     <size>  <calls> <tag info>\n           0        0 a.c:1 func:f \n' > "$TWORK/none.txt"
at_out "tool/leaks: nothing live" "$TWORK/none.txt: nothing was live when the report was made" "$AT" leaks "$TWORK/none.txt"
sed 's/^#     <size>.*/&\n# alloctag: free() in this process is not alloctag'"'"'s (libjemalloc.so.2): calls and bytes are counted, live bytes and blocks are not/' \
	"$TDATA/before.full" > "$TWORK/forward.full"
at_error "tool/leaks: free() another allocator's" \
	"$TWORK/forward.full: free() in it is not alloctag's (another allocator's): what is live is not known" \
	"$AT" leaks "$TWORK/forward.full"

COLUMNS=200 at_out "tool/snapshot: a table for people (-f table)" \
"synth (pid 42): live 1.5 MiB in 51 blocks; total 1.5 MiB in 101 calls
   LIVE  BLOCKS    TOTAL  CALLS     PEAK  SITE
1.0 MiB       1  1.0 MiB      1  1.0 MiB  a.c:10:5 func:fa callee:malloc
500 KiB      50  505 KiB    100  500 KiB  b.c:20:7 [libb.so] func:fb" \
	"$AT" snapshot -f table "$TDATA/rise-and-fall.timeline@peak"
# A title longer than the width: on two lines, broken where a field ends.
sed '1s/"program": "synth"/"program": "a_program_with_a_name_long_enough_to_fill_the_line"/' \
	"$TDATA/rise-and-fall.timeline" > "$TWORK/long-name.timeline"
COLUMNS=80 at_out "tool/snapshot: a title too long for the width, on two lines" \
"a_program_with_a_name_long_enough_to_fill_the_line (pid 42):
live 1.5 MiB in 51 blocks; total 1.5 MiB in 101 calls" \
	sh -c "'$AT' snapshot -f table '$TWORK/long-name.timeline@peak' | head -n 2"

# A program whose report had nowhere to go: its kept report, by pid and by
# name, says what was live at exit: the sites of its report that hold
# something, exactly.
THREADS=$(at_build threads) || { fail "tool/leaks: build threads.c" "$THREADS"; return; }
at_private_live_dir leaks
unset ALLOCTAG_REPORT
"$THREADS" 5 1 > /dev/null 2>&1 &
pid=$!
wait $pid
want=$("$AT" snapshot -f full "$pid" | awk 'NR > 2 && !/^#/ && ($1 != 0 || $2 != 0) { print $1, $2, $6 }' | sort)
got=$("$AT" leaks -B "$pid" | awk 'NR > 2 { print $1, $2, $5 }' | sort)	# LIVE BLOCKS TOTAL CALLS SITE
[ "$(echo "$want" | wc -w)" -ge 6 ] || fail "tool/leaks: the kept report has live sites" "$want"
at_out "tool/leaks: a kept report by pid: the sites live at exit" "$want" echo "$got"
at_out "tool/leaks: by the program's name, at exit" "threads (pid $pid), exited: $(echo "$want" | wc -l) sites held" \
	sh -c "'$AT' leaks threads | head -n 1 | sed 's/ held .*/ held/'"
"$THREADS" 1000 1 > /dev/null 2>&1 &
pid=$!
at_started $pid
check "tool/leaks: a running process: what it holds now" \
	sh -c "'$AT' leaks $pid | head -n 1 | grep -Eq '^$THREADS \\(pid $pid\\): ([0-9]+ sites? hold .*|nothing is live) now \\(it runs\\)\$'"
kill $pid 2>/dev/null
wait $pid 2>/dev/null
at_shared_live_dir
