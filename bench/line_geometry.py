#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""How a head's field lines fall on stage 1's 64-byte blocks, per file:

    bench/line_geometry.py FILE...

For the first head of each FILE: its field lines, their mean length (CRLF included), how many
cross a 64-byte block boundary (blocks counted from the head's first byte, as stage 2 takes its
first block from the first field line: a line that starts in one block and ends in the next),
and how many 64-byte windows a walk needs that takes, from each line start, every whole line
that fits in 64 bytes at once (a line longer than 64 bytes is one window). Lines per window near
1 means a batch of lines from one block's masks (docs/benchmarks.md, "the design step") has
nothing to batch: each window holds one line."""
import sys


def geometry(data):
    head = data.split(b"\r\n\r\n", 1)[0] + b"\r\n"
    lines = head.split(b"\r\n")[:-1]
    start = len(lines[0]) + 2
    fields = [len(l) + 2 for l in lines[1:]]
    cross, pos = 0, start
    for n in fields:
        if (pos - start) // 64 != (pos - start + n - 1) // 64:
            cross += 1
        pos += n
    windows, i = 0, 0
    while i < len(fields):
        taken = 0
        while i < len(fields) and taken + fields[i] <= 64:
            taken += fields[i]
            i += 1
        if taken == 0:
            i += 1
        windows += 1
    return len(fields), sum(fields) / max(1, len(fields)), cross, windows


def main(argv):
    if len(argv) < 2:
        sys.stderr.write(__doc__)
        return 2
    print("%-24s %6s %9s %14s %8s %12s" % ("file", "lines", "mean len", "cross a block", "windows", "lines/window"))
    for path in argv[1:]:
        with open(path, "rb") as f:
            n, mean, cross, windows = geometry(f.read())
        print("%-24s %6d %9.1f %14d %8d %12.2f" % (path.rsplit("/", 1)[-1], n, mean, cross, windows,
                                                   n / max(1, windows)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
