#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The speed of a compat layer against the library it replaces, from one `simdhttp bench
--json-out` run that timed both (same program, same inputs, interleaved rounds):

    bench/compat_ratio.py JSON PEER LAYER TARGET [FILE...]

prints, per corpus file (FILEs: only those; default every request file, i.e. every file whose
name does not start with "response"), PEER's median ns per message / LAYER's (> 1: the layer is
faster), with the interval from the two medians' 95% intervals, and whether each reaches TARGET.
The last line says "target met" or "target missed"; the exit status is 0 either way (a missed
target is a measurement, not a failure)."""
import json
import sys


def main(argv):
    if len(argv) < 5:
        sys.stderr.write(__doc__)
        return 2
    path, peer, layer, target = argv[1], argv[2], argv[3], float(argv[4])
    only = set(argv[5:])
    files = json.load(open(path))['files']
    missed = []
    print('%s vs %s (ns/msg of %s / ns/msg of %s; target %.2fx on every request file)'
          % (layer, peer, peer, layer, target))
    for name, rows in files.items():
        if (only and name not in only) or (not only and name.startswith('response')):
            continue
        p, l = rows[peer], rows[layer]
        r = p['median_ns'] / l['median_ns']
        lo, hi = p['ci_low_ns'] / l['ci_high_ns'], p['ci_high_ns'] / l['ci_low_ns']
        ok = r >= target
        if not ok:
            missed.append(name)
        print('  %-22s %8.1f ns %8.1f ns   %5.2fx  [%4.2f, %4.2f]  %s'
              % (name, p['median_ns'], l['median_ns'], r, lo, hi, 'met' if ok else 'missed'))
    print('target %s%s' % ('missed on ' + ', '.join(missed) if missed else 'met', ''))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
