# The plugin's files go one way (docs/DESIGN.md, "The plugin's files"): no
# two of them call each other, directly or through others.  A file calls
# another when it calls an alloctag_ function the other defines; the calls
# between files must make no cycle.
graph=$(python3 - "$TOP"/plugin/alloctag_*.c <<'PY'
import re, sys
src = {f.rsplit("/", 1)[1][len("alloctag_"):-2]: open(f).read() for f in sys.argv[1:]}
define = re.compile(r"^[A-Za-z_][A-Za-z_0-9 *]*?\b(alloctag_[a-z_0-9]+)\([^;{]*\)\s*\{", re.M | re.S)
owner = {name: f for f, text in src.items() for name in define.findall(text)}
calls = {f: sorted({owner[n] for n in owner if owner[n] != f and re.search(r"\b" + n + r"\s*\(", text)})
         for f, text in src.items()}
for f in sorted(calls):
    print("calls", f, " ".join(calls[f]))
state = {}
def cycle(f, path):
    state[f] = "open"
    for g in calls[f]:
        if state.get(g) == "open":
            return path[path.index(g):] + [g]
        if g not in state:
            c = cycle(g, path + [g])
            if c:
                return c
    state[f] = "done"
    return None
for f in sorted(calls):
    if f not in state:
        c = cycle(f, [f])
        if c:
            print("cycle", " -> ".join(c))
            break
PY
)
if [ -z "$graph" ]; then
	fail "layers/plugin: the files' calls" "no graph (python3?)"
elif echo "$graph" | grep -q '^cycle'; then
	fail "layers/plugin: the files' calls make no cycle" "$(echo "$graph" | grep '^cycle')" "$(echo "$graph" | grep '^calls')"
else
	pass "layers/plugin: the files' calls make no cycle ($(echo "$graph" | grep -c '^calls') files)"
fi
