-- bench/bt.lua [N]: alloctag's own Lua workload (N = 14 by default), run by
-- make bench (bench/run: Lua 5.4 built plain, with alloctag-cc, with the
-- macro, under the heap profilers) and by make check-real
-- (testsuite/real/lua.sh: the plain and alloctag-cc builds must print the
-- same, their reports must match DHAT's count).
--
-- What it exercises in Lua's allocator (lua_Alloc, i.e. realloc and free):
--   binary trees  one tree of depth N that lives to the end, and for each
--                 even depth d from 4 to N, 2^(N - d + 4) trees of depth d
--                 built, walked and dropped: millions of small blocks (a
--                 table and its two-slot array per node, an empty table per
--                 leaf), freed in bursts by the garbage collector while the
--                 long-lived tree stays.
--   string churn  200000 strings "k<i>:xx...x" (i % 64 x's) of 4 to 71
--                 characters, made by string.format and string.rep (the
--                 short ones interned in Lua's string table, which grows by
--                 doubling), kept in a table grown by doubling (realloc of an
--                 ever larger block), then joined by table.concat into one
--                 string of 8 MB through a buffer that doubles too.
-- bt.lua 14 makes about 6.6 million allocations (6564163 blocks under DHAT,
-- Lua 5.4.4 built by make check-real) and peaks at about 39 MB of heap
-- (37.5 MiB, 282651 blocks live).  Under alloctag the biggest sites by peak
-- are lstring.c's createstrobj, lauxlib.c's resizebox and ltable.c's
-- luaH_resize and luaH_new.
--
-- It prints the nodes walked in the short-lived trees, the nodes of the
-- long-lived one and the length of the joined string; for 14:
-- 3123888	32767	7988894

local function tree(depth)		-- a node is {left, right}, a leaf {}
	if depth == 0 then return {} end
	return { tree(depth - 1), tree(depth - 1) }
end

local function nodes(t)
	if t[1] then return 1 + nodes(t[1]) + nodes(t[2]) end
	return 1
end

local n = tonumber(arg and arg[1]) or 14

local long_lived = tree(n)
local walked = 0
for depth = 4, n, 2 do
	for _ = 1, 1 << (n - depth + 4) do
		walked = walked + nodes(tree(depth))
	end
end

local strings = {}
for i = 1, 200000 do
	strings[#strings + 1] = string.format("k%d:%s", i, ("x"):rep(i % 64))
end

print(walked, nodes(long_lived), #table.concat(strings, ","))
