#!/usr/bin/env python3
"""Finds alloctag plot's chart and table in a screenshot (PNG), with the
standard library only.  Usage: png.py SCREENSHOT.png [stacked]

The page drawn from testsuite/tool/data/rise-and-fall.timeline: site a.c:10
holds 1 MiB from start to end (a flat line in the first palette colour),
b.c:20 rises to 500 KiB at the middle of the recording and falls back (the
second colour).  Prints what it found and "ok", or what is wrong; exits 1
if something is.  With "stacked", the page's #live-linear-stacked view: a.c:10
is an area (many rows of its colour across the plot), not a line.
"""
import struct
import sys
import zlib

SITE_A = (0x4E, 0x79, 0xA7)   # plot.c's palette[0]
SITE_B = (0xF2, 0x8E, 0x2B)   # palette[1]
TOTAL = (0x33, 0x33, 0x33)    # TOTAL_COLOR
AXIS = (0x88, 0x88, 0x88)     # the zero line
TABLE_HEADER = (0xDD, 0xE3, 0xEE)
EXPECTED_RATIO = 500 * 1024 / (1024 * 1024)   # b's peak over a's level


def read_png(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit("not a PNG")
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if depth != 8 or colour not in (2, 6) or interlace:
                sys.exit("unsupported PNG (depth %d, colour type %d)" % (depth, colour))
            channels = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, prev = [], bytearray(stride)
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b = prev[i]
            c = prev[i - channels] if i >= channels else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append([tuple(line[x * channels:x * channels + 3]) for x in range(width)])
        prev = line
    return rows


def near(p, colour, tolerance=6):
    return all(abs(p[i] - colour[i]) <= tolerance for i in range(3))


def main():
    rows = read_png(sys.argv[1])
    width = len(rows[0])
    problems = []

    def wide_rows(colour, fraction):
        return [y for y, row in enumerate(rows) if sum(near(p, colour) for p in row) >= fraction * width]

    if sys.argv[2:] == ["stacked"]:
        area = wide_rows(SITE_A, 0.6)
        print("a.c:10 fills %d rows across the plot" % len(area))
        if len(area) < 40:
            print("a.c:10 is not an area")
            return 1
        print("ok")
        return 0

    a_rows = wide_rows(SITE_A, 0.6)
    axis_rows = wide_rows(AXIS, 0.6)
    if not a_rows:
        problems.append("no flat line of site a.c:10")
    if not axis_rows:
        problems.append("no x axis")
    if problems:
        print("; ".join(problems))
        return 1
    y_a = sum(a_rows) / len(a_rows)
    y_axis = axis_rows[0]
    a_xs = [x for x, p in enumerate(rows[a_rows[0]]) if near(p, SITE_A)]
    x0, x1 = min(a_xs), max(a_xs)
    b_points = [(y, x) for y, row in enumerate(rows[:y_axis]) for x, p in enumerate(row) if near(p, SITE_B)]
    if not b_points:
        print("no line of site b.c:20")
        return 1
    top_y, top_x = min(b_points)
    ratio = (y_axis - top_y) / (y_axis - y_a)
    where = (top_x - x0) / (x1 - x0)
    print("a.c:10 at y=%.1f over x=%d..%d; x axis at y=%d; b.c:20 peaks at (%d, %d): %.3f of a's height, "
          "%.3f of the way" % (y_a, x0, x1, y_axis, top_x, top_y, ratio, where))
    if abs(ratio - EXPECTED_RATIO) > 0.03:
        problems.append("b's peak is %.3f of a's level, not %.3f" % (ratio, EXPECTED_RATIO))
    if abs(where - 0.5) > 0.02:
        problems.append("b's peak is %.3f of the way, not at the middle" % where)
    if not any(near(p, TOTAL) for row in rows[:int(y_a) - 40] for p in row[x0:x1]):
        problems.append("no line of the total above a's")
    table = [y for y in wide_rows(TABLE_HEADER, 0.5) if y > y_axis]
    if not table:
        problems.append("no table header below the chart")
    else:
        print("table header at y=%d..%d" % (table[0], table[-1]))
    print("; ".join(problems) if problems else "ok")
    return 1 if problems else 0


sys.exit(main())
