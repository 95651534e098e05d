# alloctag reads every report format the runtime writes, and the kernel's
# /proc/allocinfo, writes them back as the runtime does, and refuses bad
# input with one line and status 2.
. "$TOP/testsuite/tool/lib.sh"

# A saved /proc/allocinfo (Linux 6.12's text, version 1.0; a module, and a
# later kernel's accurate:no, which is kept): sorted as the runtime sorts,
# written as version 2.0.
at_out "tool/allocinfo: the kernel's /proc/allocinfo" "allocinfo - version: 2.0
#     <size>  <calls> <tag info>
     1114112      272 mm/slub.c:2444 func:alloc_slab_page 
      262144       64 mm/page_ext.c:270 func:alloc_page_ext 
       65536       16 kernel/fork.c:311 func:alloc_thread_stack_node 
       12288        3 fs/ext4/super.c:5391 [ext4] func:ext4_fill_super 
        8192        2 drivers/block/loop.c:2070 [loop] func:loop_add accurate:no 
        4096        1 mm/percpu.c:512 func:pcpu_mem_zalloc 
         512        4 lib/kobject.c:680 func:kobject_set_name_vargs 
           0        0 arch/x86/kernel/setup.c:1237 func:setup_arch " \
	"$AT" snapshot "$TDATA/kernel.allocinfo"

at_out "tool/allocinfo: full (columns, callees, a module) to json" \
'{"version": 1, "program": null, "pid": 0, "frees_seen": true, "sites": [
  {"file": "server.c", "line": 120, "column": 13, "function": "conn_new", "callee": "xmalloc", "module": null, "bytes": 8192, "calls": 2, "total_bytes": 8192, "total_calls": 2, "peak_bytes": 8192},
  {"file": "untagged", "line": 0, "column": 0, "function": "untagged", "callee": null, "module": null, "bytes": 4096, "calls": 1, "total_bytes": 4096, "total_calls": 1, "peak_bytes": 4096},
  {"file": "cache.c", "line": 44, "column": 9, "function": "cache_put", "callee": "malloc", "module": null, "bytes": 1000, "calls": 10, "total_bytes": 5000, "total_calls": 50, "peak_bytes": 2000},
  {"file": "cache.c", "line": 51, "column": 20, "function": "cache_put", "callee": "strdup", "module": null, "bytes": 300, "calls": 3, "total_bytes": 300, "total_calls": 3, "peak_bytes": 300},
  {"file": "plugin.c", "line": 7, "column": 5, "function": "plug_init", "callee": "calloc", "module": "libplug.so", "bytes": 64, "calls": 1, "total_bytes": 64, "total_calls": 1, "peak_bytes": 64}
]}' "$AT" snapshot -f json "$TDATA/before.full"

# full -> json -> full gives the same text back.
"$AT" snapshot -f json "$TDATA/before.full" > "$TWORK/before.json"
at_out "tool/allocinfo: json back to full" "$(cat "$TDATA/before.full")" \
	"$AT" snapshot -f full "$TWORK/before.json"

at_error "tool/allocinfo: no totals to write" \
	"$TDATA/kernel.allocinfo has live bytes and calls only (allocinfo): it can be written as allocinfo, not full" \
	"$AT" snapshot -f full "$TDATA/kernel.allocinfo"

# Bad reports: one line each, status 2.
B=$TWORK/bad
mkdir -p "$B"
printf 'allocinfo - version: 3.0\n#     <size>  <calls> <tag info>\n' > "$B/v3.txt"
at_error "tool/allocinfo: another version" \
	"$B/v3.txt:1: an allocinfo report of another version (this alloctag reads 1.x and 2.x)" \
	"$AT" snapshot "$B/v3.txt"
sed 's/"version": 1/"version": 2/' "$TDATA/after.json" > "$B/v2.json"
at_error "tool/allocinfo: a json report of another version" \
	"$B/v2.json: a json report of version 2 (this alloctag reads version 1)" "$AT" snapshot "$B/v2.json"
head -c 290 "$TDATA/before.full" > "$B/cut.txt"
at_error "tool/allocinfo: truncated" \
	"$B/cut.txt:4: truncated (the last line has no end)" "$AT" diff "$B/cut.txt" "$TDATA/before.full"
head -c 200 "$TDATA/after.json" > "$B/cut.json"
at_error "tool/allocinfo: truncated json" "$B/cut.json:2: not valid JSON: truncated" "$AT" top -b "$B/cut.json"
printf 'hello world\n' > "$B/text"
at_error "tool/allocinfo: not a report" \
	"$B/text:1: not an allocinfo line (size, calls, then the site)" "$AT" snapshot "$B/text"
printf '   12    1 nowhere\n' > "$B/notag"
at_error "tool/allocinfo: a line without its site" \
	"$B/notag:1: no file:line and func:NAME in the tag info" "$AT" pprof -o "$B/p" "$B/notag"
printf 'BZh91AY&SY\0\1\2\3' > "$B/binary"
at_error "tool/allocinfo: a binary file" "$B/binary: a binary file, not a report" "$AT" snapshot "$B/binary"
: > "$B/empty"
at_error "tool/allocinfo: an empty file" "$B/empty: empty file, not a report" "$AT" plot -o "$B/p.html" "$B/empty"
at_error "tool/allocinfo: no such file" "cannot read $B/none: No such file or directory" "$AT" snapshot "$B/none"
if [ ! -e /proc/allocinfo ]; then
	at_error "tool/allocinfo: a kernel without allocation profiling" \
		"no /proc/allocinfo: this kernel is not built with CONFIG_MEM_ALLOC_PROFILING" "$AT" top /proc/allocinfo
fi
at_error "tool/usage: a bad format" "no format 'xml' (table, allocinfo, full or json)" \
	"$AT" snapshot -f xml "$TDATA/before.full"
at_error "tool/usage: no command" "no command 'frobnicate' (alloctag --help lists them)" "$AT" frobnicate

# A file the runtime appended reports to (ALLOCTAG_SIGNAL, then exit): the last one.
{ cat "$TDATA/kernel.allocinfo"; cat "$TDATA/before.full"; } > "$B/two.txt"
at_out "tool/allocinfo: appended reports, the last one wins" "$(cat "$TDATA/before.full")" \
	"$AT" snapshot -f full "$B/two.txt"
{ cat "$TWORK/before.json"; cat "$TDATA/after.json"; } > "$B/two.json"
at_out "tool/allocinfo: appended json reports, the last one wins" "$("$AT" snapshot -f full "$TDATA/after.json")" \
	"$AT" snapshot -f full "$B/two.json"
{ cat "$TDATA/before.full"; printf 'allocinfo - version: 3.1\n'; } > "$B/two-versions.txt"
at_error "tool/allocinfo: an appended report of another version" \
	"$B/two-versions.txt:8: an allocinfo report of another version (this alloctag reads 1.x and 2.x)" \
	"$AT" snapshot "$B/two-versions.txt"

# Version 2.0 (data/kernel-2.0.allocinfo: no captured one was at hand, so it
# is written with lib/alloc_tag.c's own format strings: "%12lli %8llu ",
# codetag_to_text's "file:line [module] func:name", " accurate:no" when the
# counters missed allocations, " \n"): read by every command, accurate:no
# kept and shown.
at_out "tool/allocinfo 2.0: snapshot" "allocinfo - version: 2.0
#     <size>  <calls> <tag info>
     2228224      544 mm/slub.c:2492 func:alloc_slab_page 
      524288      128 mm/page_ext.c:271 func:alloc_page_ext 
       98304       24 kernel/fork.c:318 func:alloc_thread_stack_node 
       36864        9 fs/xfs/xfs_buf.c:348 [xfs] func:xfs_buf_alloc_backing_mem accurate:no 
        1024        8 lib/kobject.c:679 func:kobject_set_name_vargs 
           0        0 arch/x86/kernel/alternative.c:127 func:__its_alloc accurate:no 
           0        0 arch/x86/kernel/kdebugfs.c:105 func:create_setup_data_nodes " \
	"$AT" snapshot "$TDATA/kernel-2.0.allocinfo"
check "tool/allocinfo 2.0: top shows accurate:no" sh -c \
	"'$AT' top -b '$TDATA/kernel-2.0.allocinfo' | grep -q ' fs/xfs/xfs_buf.c:348 \[xfs\] func:xfs_buf_alloc_backing_mem accurate:no\$'"
check "tool/allocinfo 2.0: diff against 1.0 shows accurate:no" sh -c \
	"'$AT' diff '$TDATA/kernel.allocinfo' '$TDATA/kernel-2.0.allocinfo' | grep -q ' new .* fs/xfs/xfs_buf.c:348 \[xfs\] func:xfs_buf_alloc_backing_mem accurate:no\$'"
"$AT" pprof -o "$B/v2.pb.gz" "$TDATA/kernel-2.0.allocinfo" &&
	labels=$(gzip -dc "$B/v2.pb.gz" | tr -c 'a-z_A-Z' '\n' | grep -xE 'accurate|no|xfs_buf_alloc_backing_mem' | sort -u | tr '\n' ' ')
at_out "tool/allocinfo 2.0: pprof labels the site accurate=no" "accurate no xfs_buf_alloc_backing_mem " echo "${labels-}"
"$AT" plot -o "$B/v2.html" "$TDATA/kernel-2.0.allocinfo" &&
	marked=$(grep -c 'xfs_buf.c:348 (accurate:no)' "$B/v2.html")
at_out "tool/allocinfo 2.0: plot marks the site" "2" echo "${marked-}"
