# SPDX-License-Identifier: MIT
"""What the llhttp layer costs a real program: aiohttp 3.8.4's C HttpRequestParser (Debian's
source, built by tests/compat/aiohttp.sh) fed the corpus requests, once built on the layer and
once on its own vendored llhttp 6.0.6. Each build runs in its own process (both are the package
"aiohttp"), interleaved round by round; each round feeds every file whole, again and again for
about --time seconds, and reports ns per message. Prints the medians and vendored / layer.

    python3 bench/aiohttp_parser.py --layer DIR --vendored DIR [--rounds N] [--time S] FILE...

The parse includes aiohttp's own work per message (its Python objects: RawRequestMessage,
CIMultiDict, URL), which the layer does not change: the ratio is what a real program sees.
"""
import argparse
import json
import statistics
import subprocess
import sys

WORKER = r"""
import asyncio, json, sys, time
sys.path.insert(0, sys.argv[1])
from aiohttp._http_parser import HttpRequestParser
loop = asyncio.new_event_loop()
class Protocol:  # what the parser calls on it (a server's protocol; no I/O here)
    transport = None
    def __getattr__(self, name):
        return lambda *a, **k: None
protocol = Protocol()
out = {}
budget = float(sys.argv[2])
for path in sys.argv[3:]:
    data = open(path, 'rb').read()
    def one():
        p = HttpRequestParser(protocol, loop, 2 ** 16, max_line_size=8190, max_field_size=8190)
        msgs, _, _ = p.feed_data(data)
        return len(msgs)
    n = one()
    if not n:
        continue
    reps, t0 = 0, time.perf_counter()
    while True:
        for _ in range(50):
            one()
        reps += 50
        t = time.perf_counter() - t0
        if t >= budget:
            break
    out[path] = t * 1e9 / (reps * n)
print(json.dumps(out))
"""


def run(build, budget, files):
    p = subprocess.run([sys.executable, '-c', WORKER, build, str(budget)] + files,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=600)
    if p.returncode != 0:
        raise SystemExit('aiohttp_parser: the worker on %s failed:\n%s' % (build, p.stderr.decode()[-2000:]))
    return json.loads(p.stdout)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--layer', required=True)
    ap.add_argument('--vendored', required=True)
    ap.add_argument('--rounds', type=int, default=5)
    ap.add_argument('--time', type=float, default=0.2, help='seconds per file per round')
    ap.add_argument('files', nargs='+')
    a = ap.parse_args()
    res = {'layer': {}, 'vendored': {}}
    for _ in range(a.rounds):  # interleaved: the VM's slow phases hit both builds alike
        for kind in ('vendored', 'layer'):
            for f, ns in run(getattr(a, kind), a.time, a.files).items():
                res[kind].setdefault(f, []).append(ns)
    print('aiohttp 3.8.4 HttpRequestParser (C), ns per message, median of %d interleaved rounds' % a.rounds)
    print('%-28s %12s %12s %8s' % ('file', 'vendored', 'layer', 'ratio'))
    for f in a.files:
        if f not in res['layer']:
            continue
        v, l = statistics.median(res['vendored'][f]), statistics.median(res['layer'][f])
        print('%-28s %12.1f %12.1f %7.2fx' % (f.split('/')[-1], v, l, v / l))
    print('(ratio: vendored llhttp 6.0.6 / the layer; above 1 the layer is faster)')


if __name__ == '__main__':
    main()
