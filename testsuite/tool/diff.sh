# alloctag diff: what grew, shrank, appeared and went, between two known
# snapshots, exactly; status 0 when nothing changed, 1 when something did.
. "$TOP/testsuite/tool/lib.sh"

cp "$TDATA/before.full" "$TDATA/after.json" "$TWORK/"
cd "$TWORK" || return
AT_RC=1 at_out "tool/diff: full report to json report" "A: before.full
B: after.json
  CHANGE  BLOCKS    WHAT   LIVE A   LIVE B  SITE
+7.8 KiB     +80    grew   1000 B  8.8 KiB  cache.c:44:9 func:cache_put callee:malloc
-4.0 KiB      -1  shrank  8.0 KiB  4.0 KiB  server.c:120:13 func:conn_new callee:xmalloc
  +512 B      +2     new      0 B    512 B  server.c:200:17 func:req_parse callee:xmalloc
   -64 B      -1    gone     64 B      0 B  plugin.c:7:5 [libplug.so] func:plug_init callee:calloc
total: +4.2 KiB, +80 blocks (A: 13.3 KiB in 17 blocks, B: 17.6 KiB in 97 blocks)" \
	"$AT" diff before.full after.json
AT_RC=1 COLUMNS=80 at_out "tool/diff: exact numbers (-B), 80 columns" "A: before.full
B: after.json
CHANGE  BLOCKS    WHAT  LIVE A  LIVE B  SITE
 +8000     +80    grew    1000    9000  cache.c:44:9 func:cache_put callee:ma...
 -4096      -1  shrank    8192    4096  server.c:120:13 func:conn_new callee:...
  +512      +2     new       0     512  server.c:200:17 func:req_parse callee...
   -64      -1    gone      64       0  plugin.c:7:5 [libplug.so] func:plug_i...
total: +4352 bytes, +80 blocks (A: 13652 bytes in 17 blocks, B: 18004 bytes in 97 blocks)" \
	"$AT" diff before.full after.json -B

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
AT_RC=1 at_out "tool/diff: allocinfo to full, -a" "A: before.allocinfo
B: after.full
CHANGE  BLOCKS  WHAT   LIVE A   LIVE B  SITE
+300 B      +3  grew    500 B    800 B  cache.c:44 func:cache_put
   0 B       0  same  4.0 KiB  4.0 KiB  untagged:0 func:untagged
total: +300 B, +3 blocks (A: 4.5 KiB in 6 blocks, B: 4.8 KiB in 9 blocks)" \
	"$AT" diff -a before.allocinfo after.full

at_out "tool/diff: nothing changed" "A: after.json
B: after.json
CHANGE  BLOCKS  WHAT  LIVE A  LIVE B  SITE
total: 0 B, 0 blocks (A: 17.6 KiB in 97 blocks, B: 17.6 KiB in 97 blocks)" \
	"$AT" diff after.json after.json
at_error "tool/diff: one argument" "usage: alloctag diff [-aB] A B (alloctag diff --help)" "$AT" diff after.json

# Between two samples of a timeline (2.0 s apart), what each site allocated
# per second: b.c:20 (206800 -> 413600 bytes, 40 -> 80 calls).
AT_RC=1 at_out "tool/diff: rates between two samples" "A: $TDATA/rise-and-fall.timeline@2s
B: $TDATA/rise-and-fall.timeline@4s
 CHANGE  BLOCKS  WHAT  LIVE A  LIVE B      RATE  CALLS/S  SITE
+204800     +20  grew  204800  409600  103400/s     20/s  b.c:20:7 [libb.so] func:fb
total: +204800 bytes, +20 blocks (A: 1253376 bytes in 21 blocks, B: 1458176 bytes in 41 blocks); 103400 bytes/s, 20 calls/s over 2.00 s" \
	"$AT" diff -B "$TDATA/rise-and-fall.timeline@2s" "$TDATA/rise-and-fall.timeline@4s"
# Rates only within one run: not between two processes (another pid), nor
# from a later sample back to an earlier one.
sed '1s/"pid": 42/"pid": 43/' "$TDATA/rise-and-fall.timeline" > other.timeline
no_rates="A: $TDATA/rise-and-fall.timeline@2s
B: other.timeline@4s
 CHANGE  BLOCKS  WHAT  LIVE A  LIVE B  SITE
+204800     +20  grew  204800  409600  b.c:20:7 [libb.so] func:fb
total: +204800 bytes, +20 blocks (A: 1253376 bytes in 21 blocks, B: 1458176 bytes in 41 blocks)"
AT_RC=1 at_out "tool/diff: no rates between two processes" "$no_rates" \
	"$AT" diff -B "$TDATA/rise-and-fall.timeline@2s" other.timeline@4s
AT_RC=1 at_out "tool/diff: no rates back in time" "A: $TDATA/rise-and-fall.timeline@4s
B: $TDATA/rise-and-fall.timeline@2s
 CHANGE  BLOCKS    WHAT  LIVE A  LIVE B  SITE
-204800     -20  shrank  409600  204800  b.c:20:7 [libb.so] func:fb
total: -204800 bytes, -20 blocks (A: 1458176 bytes in 41 blocks, B: 1253376 bytes in 21 blocks)" \
	"$AT" diff -B "$TDATA/rise-and-fall.timeline@4s" "$TDATA/rise-and-fall.timeline@2s"
cd "$TOP" || return
