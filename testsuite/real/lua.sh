# Lua 5.4.4 (the upstream tarball of Debian's lua5.4) built twice with its
# own Makefile (make linux), with plain $TESTCC and with alloctag-cc; the
# allocation-heavy ../shared/bench/bt.lua run on both, directly and compiled
# by luac.  Lua's memory API is tagged by tags/lua.h.

LUA_BENCH_N=${LUA_BENCH_N:-12}	# bt.lua's depth for the comparison runs
LUA_DHAT_N=10			# ... and for the DHAT run (valgrind is slow)

real_lua() {
	local name=real/lua SRC=$REAL/lua/src P=$REAL/lua/plain T=$REAL/lua/tagged out pid
	local bench
	bench=$(realpath "$TOP/../shared/bench/bt.lua" 2>/dev/null)
	mkdir -p "$REAL/lua"
	if [ ! -r "$bench" ]; then
		skip "$name" "no ../shared/bench/bt.lua"
		return
	fi
	if ! out=$(unpack lua5.4/bookworm "$SRC" 2>&1); then
		fail "$name: sources (apt-get source lua5.4)" "$out"
		return
	fi
	pass "$name: sources"
	note "Debian lua5.4 $(sed -n 's/^Version: //p' "$CACHE"/src/lua5.4/*.dsc), its upstream tarball (Debian's patches and build system not used)"

	rm -rf "$P" "$T"
	cp -r "$SRC" "$P"
	cp -r "$SRC" "$T"
	(cd "$P" && make linux CC="$TESTCC -std=gnu99" >build.log 2>&1) & pid=$!
	(cd "$T" && ALLOCTAG_TAGS="$TAGS/lua.h" ALLOCTAG_REPORT=off \
		make linux CC="$REAL_CC -std=gnu99" >build.log 2>&1)
	local trc=$?
	wait $pid
	local prc=$?
	if [ $prc -ne 0 ]; then
		fail "$name: build with $TESTCC" "$(logtail "$P/build.log")"
		return
	fi
	pass "$name: build with $TESTCC"
	if [ $trc -ne 0 ]; then
		fail "$name: build with alloctag-cc" "$(logtail "$T/build.log")"
		return
	fi
	pass "$name: build with alloctag-cc"

	# bt.lua, then bt.lua compiled by luac: the same output from both builds.
	local b
	for b in "$P" "$T"; do
		(cd "$b" && env $(report_env "$b/bt.report") src/lua "$bench" "$LUA_BENCH_N" \
			>bt.out 2>&1; echo "exit $?" >>bt.out
		 env $(report_env "$b/luac.report") src/luac -o bt.luac "$bench" >>bt.out 2>&1 &&
		 ALLOCTAG_REPORT=off src/lua bt.luac "$LUA_BENCH_N" >>bt.out 2>&1
		 echo "exit $?" >>bt.out) &
	done
	wait
	if [ "$(grep -c '^exit 0$' "$T/bt.out")" -ne 2 ]; then
		fail "$name: bt.lua $LUA_BENCH_N, and compiled by luac" "$(logtail "$T/bt.out")"
	elif same_output "$name: bt.lua $LUA_BENCH_N, and compiled by luac" "$P/bt.out" "$T/bt.out"; then
		pass "$name: bt.lua $LUA_BENCH_N, and compiled by luac"
		note "output: $(head -n 1 "$T/bt.out"), as with the plain build"
	fi
	check_no_negative "$name: bt.lua report: no site negative" "$T/bt.report"
	check_no_negative "$name: luac report: no site negative" "$T/luac.report"
	check_top_sites "$name: bt.lua report: top sites (by peak) are Lua code" \
		"$T/bt.report" 12 "$T/src" peak l_alloc luaC_newobj

	# Exact counts: DHAT counts the blocks of the same run of the plain build.
	(cd "$P" && dhat "$P/dhat" src/lua "$bench" $LUA_DHAT_N) & pid=$!
	(cd "$T" && env $(report_env "$T/bt-dhat.report") src/lua "$bench" $LUA_DHAT_N >/dev/null 2>&1)
	wait $pid
	check_dhat "$name: bt.lua $LUA_DHAT_N: report = DHAT's count" "$T/bt-dhat.report" "$P/dhat"
}
