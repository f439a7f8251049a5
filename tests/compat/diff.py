#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Differential runner shared by the compat layers (docs/compat.md; the layout in COMPAT terms:
one events program per layer, built twice: against the real library and against the layer).

    tests/compat/diff.py --real PROG --layer PROG --known FILE
                         [--kinds corpus,cases,fuzz] [--fuzz-dir DIR] [--only SUBSTR] [--splits N] [-v]

runs both builds of a layer's events program on every input of tests/compat/inputs.py (the
corpus, the inputs of tests/cases/*.txt, fuzz/corpus) at several chunkings, compares their event
logs chunking by chunking, and fails on every difference that FILE does not list. The last line
is "N passed, N failed" (tests/run.sh reads it); one input is one test.

Chunkings, per input of length L: 0 (the whole input in one call), 1 (byte by byte), 7, and
two pieces split at every offset (L <= 256), or at about --splits (default 64) offsets spread
evenly over a longer input (`--splits 0`: every offset of every input).

---- The events program's contract (each layer's tests/compat/<name>_events.c) ----
    PROG [-t request|response|both] [-l NAME,NAME...] [-n] -c SPEC[,SPEC...] FILE
  -t  message type (default both)
  -l  lenient flags by simdhttp's names (inputs.py); a program whose library cannot express one
      of them exits with status 3 and no output: the input is skipped (counted and reported),
      except a fuzz input, which runs again without lenient flags (the fuzzer chose them)
  -n  do not signal the end of the stream after the last byte (default: do, e.g. llhttp_finish)
  -c  chunkings: "N" feeds pieces of N bytes (0: the whole input at once), "@K" feeds two pieces,
      [0, K) and [K, L)
      (a program may take more forms; --extra-specs passes them: the http-parser program's "sN"
      is "N" with settings that alternate piece by piece, see tests/compat/http_parser_events.c;
      the llhttp program's "zSPEC" is SPEC with an execute() of no bytes after each piece)
  It prints, for each chunking in order, a line "=== chunking SPEC" and then its event log: one
  line per callback or result; spans with their absolute offset and their bytes escaped,
  consecutive pieces of one span merged (so a log does not depend on the chunking unless the
  library's behaviour does: a zero-length call is a line of its own, and llhttp makes one where
  a buffer's first byte ends a span open at its start); the last line the final result (error
  name and absolute offset).
  Exit status 0 (3: declined). Anything else, or no output, is a failure.
  Lines starting "partial " (what a call that did not finish left in the library's outputs:
  picohttpparser's -1 and -2, one line per call) are a second log, compared line by line as far
  as both builds' go (one may make fewer calls: an error reported sooner, which the result
  lines show); no known difference excuses one, but for a "partial: yes" entry where the lines
  agree up to their first " past[" (the outputs the API defines agree; entries of an array
  past its count differ).

---- The known-differences file (tests/compat/<name>.known) ----
    # comments and blank lines are ignored
    === a short title of the difference
    inputs: GLOB [GLOB...]      fnmatch patterns over input ids (e.g. cases/10-request-line/*)
    real: REGEX                 re.search on the real library's first differing line
    layer: REGEX                re.search on the layer's first differing line
    rfc: RFC 9112 section 6.1   the section that says the layer (simdhttp) is right
    why: free text, one line
    fuzz-only: yes              (optional) seen only in a differential fuzzer's finds
    pause-only: yes             (optional) applies to --pauses runs only (and must be seen there)
    partial: yes                (optional) matches "partial " lines only, and only where the two
                                differ past the first " past[" (what a call left past its count)
A chunking whose logs differ passes if one entry matches the input id and both first differing
lines ("<end>" when a log is shorter). Every entry must match at least once in a full run (no
--only, all kinds): a difference that went away must leave the file too (an entry marked
fuzz-only is exempt: its inputs come from --fuzz-dir).
"""
import argparse
import fnmatch
import os
import re
import subprocess
import tempfile
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import inputs as inputs_mod  # noqa: E402

DECLINED = 3
PARTIAL = 'partial '
partials_compared = 0


class Known:
    def __init__(self, title, where):
        self.title, self.where = title, where
        self.inputs, self.real, self.layer, self.rfc, self.why = [], None, None, '', ''
        self.fuzz_only = self.pause_only = self.partial = False
        self.used = 0

    def matches(self, input_id, real_line, layer_line, paused=False, partial=False):
        return (partial == self.partial and (paused or not self.pause_only) and any(fnmatch.fnmatchcase(input_id, g) for g in self.inputs)
                and self.real.search(real_line) is not None
                and self.layer.search(layer_line) is not None)


def load_known(path):
    entries, cur, errors = [], None, []
    with open(path, encoding='utf-8') as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip('\n')
            if not line.strip() or line.lstrip().startswith('#'):
                continue
            if line.startswith('==='):
                cur = Known(line[3:].strip(), '%s:%d' % (path, n))
                entries.append(cur)
                continue
            key, _, val = line.partition(':')
            key, val = key.strip(), val.strip()
            if cur is None or key not in ('inputs', 'real', 'layer', 'rfc', 'why', 'fuzz-only', 'pause-only', 'partial'):
                errors.append('%s:%d: unexpected line' % (path, n))
            elif key == 'inputs':
                cur.inputs += val.split()
            elif key == 'fuzz-only':
                cur.fuzz_only = val == 'yes'
            elif key == 'pause-only':
                cur.pause_only = val == 'yes'
            elif key == 'partial':
                cur.partial = val == 'yes'
            elif key in ('real', 'layer'):
                setattr(cur, key, re.compile(val))
            else:
                setattr(cur, key, val)
    for e in entries:
        if not e.inputs or e.real is None or e.layer is None or not e.rfc:
            errors.append('%s: entry "%s" needs inputs, real, layer and rfc' % (e.where, e.title))
    return entries, errors


def chunkings(length, max_splits):
    specs = ['0', '1', '7']
    if length <= 256 or max_splits == 0:
        specs += ['@%d' % k for k in range(1, length)]
    elif length > 1:
        step = max(1, length // max_splits)
        specs += ['@%d' % k for k in range(step, length, step)]
    return specs


def run(prog, inp, specs, tmpfile, extra=()):
    cmd = [prog, '-t', inp.type, '-c', ','.join(specs)] + list(extra)
    if inp.lenient:
        cmd += ['-l', ','.join(inp.lenient)]
    if not inp.eof:
        cmd.append('-n')
    cmd.append(tmpfile)
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)
    except subprocess.TimeoutExpired:
        return None, 'timed out: %s' % ' '.join(cmd)
    if p.returncode == DECLINED:
        return DECLINED, None
    if p.returncode != 0 or not p.stdout:
        return None, 'exit %d: %s\n%s' % (p.returncode, ' '.join(cmd),
                                          p.stderr.decode('utf-8', 'replace')[-2000:])
    return p.stdout.decode('latin-1'), None


def blocks(out):
    """{spec: [lines]} from a program's output."""
    res, cur = {}, None
    for line in out.split('\n'):
        if line.startswith('=== chunking '):
            cur = res.setdefault(line[len('=== chunking '):], [])
        elif cur is not None and line:
            cur.append(line)
    return res


def first_difference(a, b):
    for i in range(max(len(a), len(b))):
        x = a[i] if i < len(a) else '<end>'
        y = b[i] if i < len(b) else '<end>'
        if x != y:
            return i, x, y
    return None


def segments(log):
    """[(partial lines, the line after them, its index)] of a log, the last line "<end>"."""
    res, cur = [], []
    for k, x in enumerate(log + ['<end>']):
        if x.startswith(PARTIAL):
            cur.append(x)
        else:
            res.append((cur, x, k))
            cur = []
    return res


PAST = ' past['


def first_difference_partial(real, layer, excuse=lambda x, y: False):
    """The first difference (index in real, real's line, layer's line, whether partial lines
    differ), or None: the other lines as first_difference compares them; before each, the
    partial lines as far as both logs have them (two that agree up to their first PAST and
    that excuse(real's, layer's) accepts count as the same)."""
    global partials_compared
    rs, ls = segments(real), segments(layer)
    for n in range(max(len(rs), len(ls))):
        rp, rx, k = rs[n] if n < len(rs) else ([], '<end>', len(real))
        lp, lx, _ = ls[n] if n < len(ls) else ([], '<end>', len(layer))
        partials_compared += min(len(rp), len(lp))
        for j in range(min(len(rp), len(lp))):
            if rp[j] != lp[j] and not (rp[j].split(PAST)[0] == lp[j].split(PAST)[0] and excuse(rp[j], lp[j])):
                return k - len(rp) + j, rp[j], lp[j], True
        if rx != lx:
            return k, rx, lx, False
        if rx == '<end>':
            return None
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--real', required=True)
    ap.add_argument('--layer', required=True)
    ap.add_argument('--known', required=True)
    ap.add_argument('--kinds', default=None, help='default corpus,cases,fuzz (none with --fuzz-dir)')
    ap.add_argument('--fuzz-dir', action='append', default=[],
                    help='more inputs in fuzz/corpus format (e.g. a differential fuzzer\'s finds)')
    ap.add_argument('--only', default=None, help='only inputs whose id contains this')
    ap.add_argument('--splits', type=int, default=64, help='split points for long inputs (0: every offset)')
    ap.add_argument('--tmp', default=None, help='scratch file (default: next to --layer)')
    ap.add_argument('-v', action='store_true', help='name every input and chunking tried')
    ap.add_argument('--extra-specs', default='', help='chunkings added to every input (comma-separated)')
    ap.add_argument('--pauses', type=int, default=0,
                    help='also run each input with a pause at event k, for k < PAUSES (the programs\' -p k), '
                         'until neither log pauses')
    ap.add_argument('--pause-specs', default='0', help='the chunkings of the --pauses runs (default: whole)')
    a = ap.parse_args()

    known, errors = load_known(a.known)
    passed = failed = skipped = 0
    for e in errors:
        print('FAIL known file: ' + e)
        failed += 1
    kinds = [k for k in (a.kinds if a.kinds is not None else '' if a.fuzz_dir else 'corpus,cases,fuzz').split(',') if k]
    # one scratch file per run: two runs over one layer program (make test and make
    # fuzz-llhttp's replay, say) must not feed each other's inputs
    if a.tmp:
        tmp = a.tmp
    else:
        fd, tmp = tempfile.mkstemp(prefix=os.path.basename(a.layer) + '.', suffix='.input')
        os.close(fd)
    extra = [i for d in a.fuzz_dir for i in inputs_mod.fuzz_inputs(dir=d)]
    for inp in inputs_mod.all_inputs(kinds) + extra:
        if a.only and a.only not in inp.id:
            continue
        with open(tmp, 'wb') as f:
            f.write(inp.data)
        specs = chunkings(len(inp.data), a.splits) + [x for x in a.extra_specs.split(',') if x]
        real, err = run(a.real, inp, specs, tmp)
        if real == DECLINED and inp.id.startswith('fuzz/'):
            # the fuzzer chose those flags at random: the input is as good a test without them
            inp.lenient = []
            real, err = run(a.real, inp, specs, tmp)
        layer, err2 = (None, None) if err else run(a.layer, inp, specs, tmp)
        if err or err2:
            print('FAIL %s (%s): %s' % (inp.id, inp.where, err or err2))
            failed += 1
            continue
        if real == DECLINED or layer == DECLINED:
            if real != layer:
                print('FAIL %s: only one build declined its options' % inp.id)
                failed += 1
            else:
                skipped += 1
                if a.v:
                    print('skip %s: lenient %s not expressible' % (inp.id, ','.join(inp.lenient)))
            continue
        rb, lb = blocks(real), blocks(layer)
        runs = [(spec, rb, lb) for spec in specs]
        for k in range(a.pauses):
            # a pause at the k-th event, resumed at once: the same events, the same position
            pspecs = a.pause_specs.split(',')
            pr, e1 = run(a.real, inp, pspecs, tmp, ['-p', str(k)])
            pl, e2 = (None, None) if e1 else run(a.layer, inp, pspecs, tmp, ['-p', str(k)])
            if e1 or e2:
                break
            pbr, pbl = blocks(pr), blocks(pl)
            runs += [('%s/p%d' % (spec, k), {'%s/p%d' % (spec, k): pbr.get(spec, [])},
                      {'%s/p%d' % (spec, k): pbl.get(spec, [])}) for spec in pspecs]
            if 'pause off=' not in pr and 'pause off=' not in pl:
                break
        bad = None
        for spec, rb, lb in runs:
            rl, ll = rb.get(spec, ['<no log>']), lb.get(spec, ['<no log>'])
            def excuse(x, y, spec=spec):
                entry = next((k for k in known if k.matches(inp.id, x, y, '/p' in spec, partial=True)), None)
                if entry:
                    entry.used += 1
                    if a.v:
                        print('known partial %s @%s: %s | %s | %s' % (inp.id, spec, entry.title, x, y))
                return entry is not None
            d = first_difference_partial(rl, ll, excuse)
            if d is None:
                continue
            i, x, y, is_partial = d
            if is_partial:
                bad = (spec, i, x, y)
                break
            entry = next((k for k in known if k.matches(inp.id, x, y, '/p' in spec)), None)
            if entry:
                entry.used += 1
                if a.v:
                    print('known %s @%s: %s' % (inp.id, spec, entry.title))
                continue
            bad = (spec, i, x, y)
            break
        if bad:
            spec, i, x, y = bad
            ctx = rb.get(spec, [])[max(0, i - 3):i]
            print('FAIL %s (%s) %r, chunking %s, line %d:' % (inp.id, inp.where, inp, spec, i + 1))
            for c in ctx:
                print('     ' + c)
            print('  real:  ' + x)
            print('  layer: ' + y)
            failed += 1
        else:
            passed += 1
    if os.path.exists(tmp):
        os.remove(tmp)
    full = not a.only and set(kinds) >= {'corpus', 'cases', 'fuzz'} and not a.fuzz_dir
    for k in known:
        if (k.fuzz_only or (k.pause_only and not a.pauses)) and not k.used and not a.v:
            continue
        if a.v or (full and not k.used):
            print('%s known difference "%s" (%s): seen in %d chunkings' % (
                'FAIL' if full and not k.used else 'note', k.title, k.where, k.used))
        if full and not k.used:
            failed += 1
    print('%s: %d inputs skipped (lenient flags the library cannot express)' % (
        os.path.basename(a.known), skipped))
    if partials_compared:
        print('%d partial lines compared (the outputs after a call that did not finish)' % partials_compared)
    print('%d passed, %d failed' % (passed, failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
