# alloctag pprof writes a gzip stream (stored deflate blocks, CRC-32) that
# gzip(1) accepts, holding a profile with the sites' names.  (Read back by
# go tool pprof with exact numbers: make check-live.)
. "$TOP/testsuite/tool/lib.sh"

for input in before.full kernel.allocinfo rise-and-fall.timeline@peak; do
	out=$TWORK/${input%%@*}.pb.gz
	if ! "$AT" pprof -o "$out" "$TDATA/$input"; then
		fail "tool/pprof: $input" "pprof failed"
	elif ! gzip -t "$out" 2>/dev/null; then
		fail "tool/pprof: $input" "not valid gzip"
	else
		pass "tool/pprof: $input is valid gzip"
	fi
done
names=$(gzip -dc "$TWORK/before.full.pb.gz" | tr -c 'a-z_A-Z.' '\n' | grep -xE 'conn_new|cache_put|plug_init|libplug.so|inuse_space|alloc_space' | sort -u | tr '\n' ' ')
[ "$names" = "alloc_space cache_put conn_new inuse_space libplug.so plug_init " ] &&
	pass "tool/pprof: names and sample types in the profile" ||
	fail "tool/pprof: names and sample types in the profile" "$names"
# No -o: NAME.pb.gz in the current directory, said on stdout.
at_out "tool/pprof: no -o: NAME.pb.gz, said" "rise-and-fall.pb.gz" \
	sh -c "cd '$TWORK' && '$AT' pprof '$TDATA/rise-and-fall.timeline@peak'"
check "tool/pprof: no -o: the profile is there" gzip -t "$TWORK/rise-and-fall.pb.gz"
