# alloctag pprof's profiles read back by go tool pprof (offline: Debian's
# golang-go, no module download), with exact numbers: from a report, and
# from the timeline of a real multi-threaded run, against its exit report.
. "$TOP/testsuite/tool/lib.sh"

if ! command -v go >/dev/null; then
	skip "tool/pprof: go tool pprof" "no go"
	return
fi
export HOME=$TWORK/home GOFLAGS=-mod=mod GOPROXY=off GOTOOLCHAIN=local
mkdir -p "$HOME"
# "VALUE function file:line" of each row of go tool pprof -top, for SAMPLE_TYPE
# (bytes in B, not kB).
pprof_rows() {
	local unit=
	case $2 in *_space) unit=-unit=B ;; esac
	go tool pprof -top -lines $unit -nodefraction=0 -sample_index="$2" "$1" 2>/dev/null |
		awk 'f { print $1 " " $6 " " $7 } / flat  flat% /{ f = 1 }'
}

"$AT" pprof -o "$TWORK/report.pb.gz" "$TDATA/before.full"
want="8192B conn_new server.c:120
5000B cache_put cache.c:44
4096B untagged untagged
300B cache_put cache.c:51
64B plug_init plugin.c:7"
got=$(pprof_rows "$TWORK/report.pb.gz" alloc_space)
[ "$got" = "$want" ] && pass "tool/pprof: alloc_space of a report" ||
	fail "tool/pprof: alloc_space of a report" "$got"
want="8192B conn_new server.c:120
4096B untagged untagged
1000B cache_put cache.c:44
300B cache_put cache.c:51
64B plug_init plugin.c:7"
got=$(pprof_rows "$TWORK/report.pb.gz" inuse_space)
[ "$got" = "$want" ] && pass "tool/pprof: inuse_space of a report" ||
	fail "tool/pprof: inuse_space of a report" "$got"
got=$(pprof_rows "$TWORK/report.pb.gz" alloc_objects | tr '\n' ' ')
[ "$got" = "50 cache_put cache.c:44 3 cache_put cache.c:51 2 conn_new server.c:120 1 plug_init plugin.c:7 1 untagged untagged " ] &&
	pass "tool/pprof: alloc_objects of a report" || fail "tool/pprof: alloc_objects of a report" "$got"
got=$(go tool pprof -raw "$TWORK/report.pb.gz" 2>&1 | grep -E '^(alloc_objects|     5: |2: )')
want="alloc_objects/count alloc_space/bytes inuse_objects/count inuse_space/bytes[dflt]
     5: 0x0 M=2 plug_init plugin.c:7 s=0
2: 0x0/0x0/0x0 libplug.so  [FN][FL][LN]"
[ "$got" = "$want" ] && pass "tool/pprof: sample types, a module's mapping" ||
	fail "tool/pprof: sample types, a module's mapping" "$got"

# A real run: its exit report's live bytes, site by site, are inuse_space.
THREADS=$(at_build threads) || { fail "tool/pprof: build threads.c" "$THREADS"; return; }
at_private_live_dir pprof
ALLOCTAG_FORMAT=full ALLOCTAG_REPORT=$TWORK/threads.report \
	"$AT" record -i 20ms -o "$TWORK/threads.timeline" -- "$THREADS" 30 5 > /dev/null 2>&1
at_shared_live_dir
"$AT" pprof -o "$TWORK/threads.pb.gz" "$TWORK/threads.timeline"
want=$(awk 'NR > 2 && $1 > 0 { split($6, w, ":"); print $1 "B " $7 " " w[1] ":" w[2] }' "$TWORK/threads.report" |
	sed 's/ func:/ /; s/ untagged:0$/ untagged/' | sort)
got=$(pprof_rows "$TWORK/threads.pb.gz" inuse_space | sort)
[ -n "$want" ] && [ "$got" = "$want" ] && pass "tool/pprof: a recorded run's inuse_space is its exit report" ||
	fail "tool/pprof: a recorded run's inuse_space is its exit report" "report:" "$want" "pprof:" "$got"
