#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Compare /proc/allocinfo of kernels built with the alloc_hooks() macros and
with the alloctag plugin, as captured from serial consoles by check-kernel.sh.

    compare-allocinfo.py --macro BOOT.log... --plugin BOOT.log... [--module NAME...]
    compare-allocinfo.py --macro BOOT.log... --plugin BOOT.log... --expect NAME=SOURCE

/proc/allocinfo 1.0 (Linux 6.12) and 2.0 (7.x: a line may end in "accurate:no",
kept as part of the tag) are read alike.

A tag is (file:line, module, function); the same tag can be listed more than
once (a static inline function of a header, one tag per object using it): tags
are compared as a multiset, and counters summed per tag.  Bytes and calls of a
tag may differ between the two kernels by no more than they differ between
boots of one kernel (what the boots given show for that tag); the tags of the
--module modules, whose allocations are deterministic, must be equal.
With --expect, the tags of module NAME in file SOURCE must be the lines of
SOURCE with a comment "allocinfo: N calls" (or "N calls, B bytes"), with those
counters in every boot, and carry the module's name.

Prints details, then one 'PASS: name' or 'FAIL: name' line per check.
"""
import argparse
import collections
import re
import sys

LINE = re.compile(r"^\s*(-?\d+)\s+(\d+)\s+(\S+):(\d+)\s+(?:\[(\S+)\]\s+)?func:(\S+)"
                  r"((?:\s+\w+:\S+)*)\s*$")
EXPECT = re.compile(r"allocinfo: (\d+) calls?(?:, (\d+) bytes)?")
BEGIN, END = "alloctag-check: allocinfo begin", "alloctag-check: allocinfo end"


class Boot:
    def __init__(self, path):
        self.path = path
        self.count = collections.Counter()      # tag -> how many times listed
        self.bytes = collections.Counter()
        self.calls = collections.Counter()
        self.complete = False
        self.junk = 0
        inside = False
        with open(path, errors="replace") as f:
            for raw in f:
                line = raw.replace("\r", "").rstrip("\n")
                if BEGIN in line:
                    inside = True
                elif END in line:
                    self.complete = inside
                    inside = False
                elif inside and line.strip() and not line.startswith(("allocinfo -", "#")):
                    m = LINE.match(line)
                    if not m:
                        self.junk += 1      # a kernel message in the middle
                        continue
                    b, c, file, lineno, mod, func, flags = m.groups()
                    tag = (file, int(lineno), mod or "", func + flags)
                    self.count[tag] += 1
                    self.bytes[tag] += int(b)
                    self.calls[tag] += int(c)

    def totals(self):
        return sum(self.bytes.values()), sum(self.calls.values())


def show(tag):
    file, line, mod, func = tag
    return "%s:%d%s func:%s" % (file, line, " [%s]" % mod if mod else "", func)


SUFFIX = ""


def spread_and_gap(mv, pv):
    """How far values vary between boots of one kernel, and apart between the two."""
    spread = max(max(mv) - min(mv), max(pv) - min(pv))
    return spread, max(min(pv) - max(mv), min(mv) - max(pv), 0)


def check(name, ok, results):
    results.append("%s: %s%s" % ("PASS" if ok else "FAIL", name, SUFFIX))
    return ok


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--macro", nargs="+", required=True)
    ap.add_argument("--plugin", nargs="+", required=True)
    ap.add_argument("--module", action="append", default=[],
                    help="a module whose tags must have equal counters")
    ap.add_argument("--no-counters", action="store_true",
                    help="compare the tags, not their counters (modules aside)")
    ap.add_argument("--name", help="added to the name of each check")
    ap.add_argument("--expect", metavar="MODULE=SOURCE",
                    help="the module's tags in SOURCE: its 'allocinfo: N calls' comments")
    args = ap.parse_args()
    global SUFFIX
    SUFFIX = " (%s)" % args.name if args.name else ""
    macro = [Boot(p) for p in args.macro]
    plugin = [Boot(p) for p in args.plugin]
    results = []

    for b in macro + plugin:
        if not b.complete or not b.count:
            print("%s: no complete /proc/allocinfo" % b.path)
        if b.junk:
            print("%s: %d lines in /proc/allocinfo not understood (console noise?)" % (b.path, b.junk))
    if not check("allocinfo captured", all(b.complete and b.count for b in macro + plugin), results):
        print("\n".join(results))
        return 1

    if args.expect:
        expect_module(args.expect, macro, plugin, results)
        print("\n".join(results))
        return 0 if all(r.startswith("PASS") for r in results) else 1

    # -- the set of tags
    m, p = macro[0], plugin[0]
    print("tags: %d with the macros (%d distinct), %d with the plugin (%d distinct)"
          % (sum(m.count.values()), len(m.count), sum(p.count.values()), len(p.count)))
    for kind, boots in (("macro", macro), ("plugin", plugin)):
        for b in boots[1:]:
            if b.count != boots[0].count:
                print("%s kernel: %s lists other tags than %s" % (kind, b.path, boots[0].path))
    same_kernel_stable = all(b.count == macro[0].count for b in macro) and \
        all(b.count == plugin[0].count for b in plugin)
    only_m = m.count - p.count
    only_p = p.count - m.count
    for tag, n in sorted(only_m.items()):
        print("  only with the macros: %s (x%d)" % (show(tag), n))
    for tag, n in sorted(only_p.items()):
        print("  only with the plugin: %s (x%d)" % (show(tag), n))
    mods = collections.Counter(t[2] for t in m.count if t[2])
    print("module tags: %s" % (", ".join("%s %d" % kv for kv in sorted(mods.items())) or "none"))
    check("tag set: same (file:line, module, function) multiset", not only_m and not only_p
          and same_kernel_stable, results)

    if not args.no_counters:
        compare_counters(macro, plugin, m, results)
    compare_modules(args.module, macro, plugin, m, results)
    print("\n".join(results))
    return 0 if all(r.startswith("PASS") for r in results) else 1


def compare_counters(macro, plugin, m, results):
    # -- counters per tag, against the boot-to-boot spread of that tag
    noisy, off = 0, []
    for tag in sorted(set(m.count) & set(plugin[0].count)):
        for what in ("bytes", "calls"):
            mv = [getattr(b, what)[tag] for b in macro]
            pv = [getattr(b, what)[tag] for b in plugin]
            spread, gap = spread_and_gap(mv, pv)
            noisy += spread > 0 and what == "calls"
            if gap > spread:
                off.append((tag, what, mv, pv))
    print("per tag: %d tags vary from boot to boot; %d counters differ beyond that"
          % (noisy, len(off)))
    for tag, what, mv, pv in off:
        print("  %s: %s macros %s, plugin %s" % (show(tag), what, mv, pv))
    check("bytes and calls per tag within boot-to-boot variation", not off, results)

    # -- totals
    mt = [b.totals() for b in macro]
    pt = [b.totals() for b in plugin]
    print("%-28s %14s %10s" % ("totals", "bytes", "calls"))
    for kind, boots, tots in (("macros", macro, mt), ("plugin", plugin, pt)):
        for b, (by, ca) in zip(boots, tots):
            print("%-28s %14d %10d" % ("%s boot %d" % (kind, boots.index(b) + 1), by, ca))
    ok = True
    for i, what in enumerate(("bytes", "calls")):
        spread, gap = spread_and_gap([t[i] for t in mt], [t[i] for t in pt])
        print("total %s: boot-to-boot spread %d, macros/plugin gap %d" % (what, spread, gap))
        ok &= gap <= spread
    check("total bytes and calls within boot-to-boot variation", ok, results)


def compare_modules(modules, macro, plugin, m, results):
    """Modules whose allocations are deterministic: equal counters everywhere."""
    for mod in modules:
        tags = [t for t in m.count if t[2] == mod]
        diff = [t for t in tags
                if len({(b.bytes[t], b.calls[t]) for b in macro + plugin}) != 1]
        for t in diff:
            print("  %s: macros %s, plugin %s" % (show(t),
                  [(b.bytes[t], b.calls[t]) for b in macro],
                  [(b.bytes[t], b.calls[t]) for b in plugin]))
        print("module %s: %d tags, %d calls" % (mod, len(tags), sum(m.calls[t] for t in tags)))
        check("module %s: %d tags, equal counters in every boot" % (mod, len(tags)),
              tags and not diff, results)


def expect_module(spec, macro, plugin, results):
    """The module's tags in its source: the annotated lines, their counters."""
    mod, source = spec.split("=", 1)
    want, block, blocks, depth = {}, {}, 0, []
    with open(source) as f:
        for n, line in enumerate(f, 1):
            if re.match(r"\s*#\s*if", line):
                blocks += 1
                depth.append(blocks)
            elif re.match(r"\s*#\s*endif", line) and depth:
                depth.pop()
            e = EXPECT.search(line)
            if e:
                want[n] = (int(e.group(1)), int(e.group(2)) if e.group(2) else None)
                block[n] = depth[-1] if depth else 0
    name = source.rsplit("/", 1)[-1]
    bad = []
    tagged = {t[1] for b in macro + plugin for t in b.count if t[0].rsplit("/", 1)[-1] == name}
    # Lines under #if in the source: expected all or none (not compiled for this kernel)
    for k in set(block.values()) - {0}:
        lines = [n for n in want if block[n] == k]
        if not tagged & set(lines):
            print("module %s: %s:%s under #if, not compiled here" % (
                mod, name, ",".join(map(str, lines))))
            for n in lines:
                del want[n]
    for kind, boots in (("macros", macro), ("plugin", plugin)):
        for i, b in enumerate(boots):
            where = "%s boot %d" % (kind, i + 1)
            tags = [t for t in b.count if t[0].rsplit("/", 1)[-1] == name]
            for t in tags:
                if t[2] != mod:
                    bad.append("%s: %s: not in module %s" % (where, show(t), mod))
            got = {t[1]: (b.calls[t], b.bytes[t]) for t in tags}
            for n in sorted(set(want) | set(got)):
                if n not in got:
                    bad.append("%s: %s:%d: no tag" % (where, name, n))
                elif n not in want:
                    bad.append("%s: %s:%d: a tag the source does not expect (%d calls, %d bytes)"
                               % (where, name, n, got[n][0], got[n][1]))
                elif got[n][0] != want[n][0] or want[n][1] not in (None, got[n][1]):
                    bad.append("%s: %s:%d: %d calls, %d bytes; expected %d calls%s"
                               % (where, name, n, got[n][0], got[n][1], want[n][0],
                                  "" if want[n][1] is None else ", %d bytes" % want[n][1]))
    for line in bad:
        print("  " + line)
    print("module %s: %d tags expected in %s, %d calls" % (mod, len(want), name,
                                                          sum(c for c, _ in want.values())))
    check("module %s: its tags in %s exactly as the source expects, in every boot of both"
          % (mod, name), bool(want) and not bad, results)


if __name__ == "__main__":
    sys.exit(main())
