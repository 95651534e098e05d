# Lua 5.4.4 (the upstream tarball of Debian's lua5.4) built twice with its
# own Makefile (make linux), with plain $TESTCC and with alloctag-cc; the
# project's allocation-heavy workload bench/bt.lua run on both, directly and
# compiled by luac.  Lua's memory API is tagged by tags/lua.h.

LUA_BENCH_N=${LUA_BENCH_N:-12}	# bt.lua's depth for the comparison runs
LUA_DHAT_N=10			# ... and for the DHAT run (valgrind is slow)

# lua_build DIR CC [ENV...]: a copy of the sources in DIR, make linux there.
lua_build() {
	local b=$1 cc=$2
	shift 2
	rm -rf "$b"
	cp -r "$SRC" "$b"
	(cd "$b" && env "$@" make linux CC="$cc -std=gnu99") >"$b/build.log" 2>&1
}

# lua_bt LUA_BENCH: bt.lua, then bt.lua compiled by luac (luac's report in
# luac.report).
lua_bt() {
	src/lua "$1" "$LUA_BENCH_N" &&
	env ALLOCTAG_REPORT="$PWD/luac.report" src/luac -o bt.luac "$1" &&
	env ALLOCTAG_REPORT=off src/lua bt.luac "$LUA_BENCH_N"
}

real_lua() {
	local name=real/lua SRC=$REAL/lua/src bench=$TOP/bench/bt.lua
	local P=$REAL/lua/plain T=$REAL/lua/tagged
	sources "$name" lua5.4 "$SRC" || return

	build_both "$name" lua_build "$TAGS/lua.h" ALLOCTAG_REPORT=off || return
	pass "$name: build with alloctag-cc"

	# bt.lua, directly and compiled by luac: the plain build's output.
	in_both bt lua_bt "$bench"
	if ! grep -q '^exit 0$' "$T/bt.out"; then
		fail "$name: bt.lua $LUA_BENCH_N, and compiled by luac" "$(logtail "$T/bt.out")"
	elif same_output "$name: bt.lua $LUA_BENCH_N, and compiled by luac" "$P/bt.out" "$T/bt.out"; then
		pass "$name: bt.lua $LUA_BENCH_N, and compiled by luac"
		note "output: $(head -n 1 "$T/bt.out"), as with the plain build"
	fi
	check_no_negative "$name: bt.lua and luac reports: no site negative" "$T/bt.report" "$T/luac.report"
	check_top_sites "$name: bt.lua report: top sites (by peak) are Lua code" \
		"$T/bt.report" 12 "$T/src" peak l_alloc luaC_newobj

	# Exact counts: DHAT counts the blocks of the same run of the plain build.
	dhat_and_report bt-dhat src/lua "$bench" $LUA_DHAT_N
	check_dhat "$name: bt.lua $LUA_DHAT_N: report = DHAT's count" "$T/bt-dhat.report" "$P/bt-dhat.dhat"

	lua_hooks_only "$name" "$bench"
}

# Only lua_Alloc opted in (tags/lua-alloc.h), no luaM_* tags: the indirect
# calls through frealloc in lmem.c are the sites, rather than the realloc()
# in l_alloc (lauxlib.c) that they all reach; and the C library's calls that
# make a FILE or its buffer (luaL_loadfilex's fopen, print's fwrite).
lua_hooks_only() {
	local name="$1: lua_Alloc calls only" H=$REAL/lua/hooks sites
	if ! lua_build "$H" "$REAL_CC" ALLOCTAG_TAGS="$TAGS/lua-alloc.h" ALLOCTAG_REPORT=off; then
		fail "$name" "$(logtail "$H/build.log")"
		return
	fi
	(cd "$H" && env $(report_env "$H/bt.report") src/lua "$2" 8 >/dev/null 2>&1)
	sites=$(report_rows "$H/bt.report" | cut -d' ' -f6- | grep -vx untagged | sort -u)
	if echo "$sites" | grep -q 'lmem.c:' && ! echo "$sites" | grep -qv 'lmem.c:\|lstate.c:\|lauxlib.c:.*resizebox\|callee:fopen$\|callee:fwrite$' &&
	   ! echo "$sites" | grep -q 'func:l_alloc'; then
		pass "$name"
		note "$(echo "$sites" | sed 's/ func:/ /' | tr '\n' ' ')"
	else
		fail "$name" "sites other than lmem.c's frealloc calls:" "$sites"
	fi
}
