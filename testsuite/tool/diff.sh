# alloctag diff: what grew, shrank, appeared and went, between two known
# snapshots, exactly; status 0 when nothing changed, 1 when something did.
. "$TOP/testsuite/tool/lib.sh"

cp "$TDATA/before.full" "$TDATA/after.json" "$TWORK/"
cd "$TWORK" || return
AT_RC=1 at_out "tool/diff: full report to json report" "alloctag diff - version: 1
# A: before.full
# B: after.json
#  <size change> <calls change>     <size A>     <size B> <change> <tag info>
           +8000            +80         1000         9000 grew     cache.c:44:9 func:cache_put callee:malloc
           -4096             -1         8192         4096 shrank   server.c:120:13 func:conn_new callee:xmalloc
            +512             +2            0          512 new      server.c:200:17 func:req_parse callee:xmalloc
             -64             -1           64            0 gone     plugin.c:7:5 [libplug.so] func:plug_init callee:calloc
# total: +4352 bytes, +80 blocks (A: 13652 bytes in 17 blocks, B: 18004 bytes in 97 blocks)" \
	"$AT" diff before.full after.json

# Against an allocinfo report (no columns, no callees) sites match by file,
# line and function, and the two cache.c:44 sites of B fall together.
cat > before.allocinfo <<'EOR'
allocinfo - version: 1.0
#     <size>  <calls> <tag info>
        4096        1 untagged:0 func:untagged 
         500        5 cache.c:44 func:cache_put 
EOR
cat > after.full <<'EOR'
allocinfo - version: 1.0
#     <size>  <calls>   <total size> <total calls>  <peak size> <tag info>
        4096        1           4096             1         4096 untagged:0 func:untagged 
         700        7            900             9          700 cache.c:44:9 func:cache_put callee:malloc 
         100        1            100             1          100 cache.c:44:30 func:cache_put callee:strdup 
EOR
AT_RC=1 at_out "tool/diff: allocinfo to full, -a" "alloctag diff - version: 1
# A: before.allocinfo
# B: after.full
#  <size change> <calls change>     <size A>     <size B> <change> <tag info>
            +300             +3          500          800 grew     cache.c:44 func:cache_put
              +0             +0         4096         4096 same     untagged:0 func:untagged
# total: +300 bytes, +3 blocks (A: 4596 bytes in 6 blocks, B: 4896 bytes in 9 blocks)" \
	"$AT" diff -a before.allocinfo after.full

at_out "tool/diff: nothing changed" "alloctag diff - version: 1
# A: after.json
# B: after.json
#  <size change> <calls change>     <size A>     <size B> <change> <tag info>
# total: +0 bytes, +0 blocks (A: 18004 bytes in 97 blocks, B: 18004 bytes in 97 blocks)" \
	"$AT" diff after.json after.json
at_error "tool/diff: one argument" "usage: alloctag diff [-a] A B (alloctag diff --help)" "$AT" diff after.json
cd "$TOP" || return
