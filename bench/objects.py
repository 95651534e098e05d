# bench/objects.py: an allocation-heavy Python workload for bench/run (make
# bench), run by Debian's /usr/bin/python3 with the runtime preloaded.
# Python serves objects of up to 512 bytes from its own pools (pymalloc);
# what reaches malloc is larger: strings, lists' and dicts' arrays, and the
# pools' 256 KiB arenas.  So the workload makes both: a table of records
# with string fields of 20 to 2000 characters, rebuilt and replaced in
# rounds (churn), and a tree of dicts and lists built then dropped whole.
# Deterministic: its own generator; the output is a checksum.
import sys

state = 0x2545F4914F6CDD1D


def rand(n):
    global state
    state = (state * 6364136223846793005 + 1442695040888963407) & 0xFFFFFFFFFFFFFFFF
    return (state >> 33) % n


def record(i):
    return {
        "id": i,
        "name": "n%d-" % i * (1 + rand(12)),
        "body": "x" * (20 + rand(1980)),
        "tags": [str(rand(1000)) for _ in range(rand(8))],
    }


def churn(rounds, size):
    table = [record(i) for i in range(size)]
    total = 0
    for r in range(rounds):
        for _ in range(size // 4):
            j = rand(size)
            total += len(table[j]["body"])
            table[j] = record(r * size + j)
    return total + sum(len(t["name"]) for t in table)


def tree(depth, fan):
    if depth == 0:
        return ["leaf" * (1 + rand(300))]
    return {str(k): tree(depth - 1, fan) for k in range(fan)}


def weight(t):
    if isinstance(t, list):
        return sum(len(s) for s in t)
    return sum(weight(v) for v in t.values())


scale = int(sys.argv[1]) if len(sys.argv) > 1 else 1
total = churn(20 * scale, 20000)
for _ in range(scale):
    total += weight(tree(6, 8))
print("objects: checksum", total)
