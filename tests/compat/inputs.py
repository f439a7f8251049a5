#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The inputs every compat layer is compared on (shared by tests/compat/diff.py and the layers).

Three sources (a fourth, blocks, on request), each input with an id, its raw bytes and how to
parse it:
  corpus/<file>.http                    type both, finish() at the end, strict
  cases/<file stem>/<case name slug>    tests/cases/*.txt: the input block decoded, with the
                                        case's type, lenient flags, eof and limits
  fuzz/<file>                           fuzz/corpus/*: the 10-byte header of fuzz/fuzz_diff.c
                                        gives type, eof and lenient flags; the rest is the input
  blocks/<file stem>/<case name slug>   tests/blocks/*.txt, types fields, chunked and
                                        chunked-consume (not in the default kinds)

Lenient flags use simdhttp's names (include/simdhttp.h, section 3); each layer's events program
maps them to its library's switches (or declines the input, see diff.py). Limits are kept for
programs whose API can set them; the others parse with their library's defaults.

As a script it writes the inputs out, for other tools and for reading:
    tests/compat/inputs.py [--kinds corpus,cases,fuzz] OUTDIR
gives OUTDIR/<id with '/' as '__'>.bin (raw bytes) and OUTDIR/index.tsv, one line per input:
    id  file  type  lenient(comma list or -)  eof(yes|no)  limits(k=v,... or -)
"""
import os
import re
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))

# simdhttp's lenient bits, in bit order (SIMDHTTP_LENIENT_*); the fuzz header stores them so.
LENIENT_BITS = ['headers', 'chunked_length', 'keep_alive', 'transfer_encoding', 'version',
                'data_after_close', 'optional_lf_after_cr', 'optional_cr_before_lf',
                'optional_crlf_after_chunk', 'spaces_after_chunk_size', 'obs_fold']
# simdhttp's modes (SIMDHTTP_MODE_*) as lenient names; defensive's close after an AMBIGUOUS
# message is a name no peer has, so a layer's program declines those inputs (skipped)
MODES = {'strict': [],
         'defensive': ['bare_lf', 'obs_fold', 'headers', 'target_obs_text', 'version',
                       'spaces_after_chunk_size', 'chunked_length', 'close_after_ambiguous'],
         'monitor': [n for n in LENIENT_BITS if n != 'data_after_close'] + ['field_bare_cr', 'target_obs_text']}
# bare_lf is simdhttp's other name for optional_cr_before_lf
LENIENT_ALIASES = {'bare_lf': 'optional_cr_before_lf'}


class Input:
    def __init__(self, id, data, type='both', lenient=(), eof=True, limits=None, where=''):
        self.id = id            # e.g. "cases/30-fields/fields-reject-sp-before-the-colon"
        self.data = data        # bytes
        self.type = type        # "request", "response" or "both"
        self.lenient = sorted(set(LENIENT_ALIASES.get(n, n) for n in lenient))
        self.eof = eof          # call finish() after the last byte
        self.limits = limits or {}  # max_head_size, max_fields, max_chunk_ext (simdhttp names)
        self.where = where      # file:line, for messages

    def __repr__(self):
        return 'Input(%s, %d bytes, %s, lenient=%s, eof=%s)' % (
            self.id, len(self.data), self.type, ','.join(self.lenient) or '-', self.eof)


def slug(name):
    return re.sub(r'[^a-z0-9]+', '-', name.lower()).strip('-')


def decode_line(line):
    """One input line of a case file: escapes \\r \\n \\t \\\\ \\xNN; a final '\\' is nothing."""
    out = bytearray()
    i = 0
    while i < len(line):
        c = line[i]
        if c != '\\':
            out += c.encode('latin-1')
            i += 1
            continue
        e = line[i + 1] if i + 1 < len(line) else ''
        if e == '':
            break
        if e == 'x':
            out.append(int(line[i + 2:i + 4], 16))
            i += 4
            continue
        out += {'r': b'\r', 'n': b'\n', 't': b'\t', '\\': b'\\'}[e]
        i += 2
    return bytes(out)


def case_inputs(root=ROOT, sub='cases'):
    """The inputs of tests/cases/*.txt (format: the comment at the top of tests/test_parser.c);
    with sub='blocks', of tests/blocks/*.txt (types fields, chunked and, with "trailers:
    consume", chunked-consume: for a layer whose library parses those alone)."""
    d = os.path.join(root, 'tests', sub)
    out = []
    for fn in sorted(os.listdir(d)):
        if not fn.endswith('.txt'):
            continue
        stem = fn[:-4]
        cur, mode = None, None
        with open(os.path.join(d, fn), encoding='latin-1') as f:
            for lineno, line in enumerate(f, 1):
                line = line.rstrip('\r\n')
                if line.startswith('==='):
                    cur = {'name': line[3:].strip(), 'type': 'request', 'lenient': [], 'eof': True,
                           'limits': {}, 'data': b'', 'where': '%s:%d' % (fn, lineno)}
                    out.append(cur)
                    mode = 'keys'
                elif mode == 'input':
                    if line == 'log:':
                        mode = 'log'
                    else:
                        cur['data'] += decode_line(line)
                elif mode == 'keys' and ':' in line and not line.startswith('#'):
                    k, v = (s.strip() for s in line.split(':', 1))
                    if k == 'input':
                        mode = 'input'
                    elif k == 'type':
                        cur['type'] = v + cur.get('suffix', '')
                    elif k == 'trailers' and v == 'consume':
                        cur['suffix'] = '-consume'
                        cur['type'] += cur['suffix']
                    elif k == 'lenient':
                        cur['lenient'] += [n for n in re.split(r'[,\s]+', v) if n]
                    elif k == 'mode':
                        cur['lenient'] += MODES[v]
                    elif k == 'eof':
                        cur['eof'] = v != 'no'
                    elif k.startswith('max_'):
                        cur['limits'][k] = int(v)
        for c in out:
            if 'id' not in c:
                c['id'] = '%s/%s/%s' % (sub, stem, slug(c['name']))
    return [Input(c['id'], c['data'], c['type'], c['lenient'], c['eof'], c['limits'], c['where'])
            for c in out]


def corpus_inputs(root=ROOT):
    d = os.path.join(root, 'corpus')
    return [Input('corpus/' + fn, open(os.path.join(d, fn), 'rb').read(), where=fn)
            for fn in sorted(os.listdir(d)) if fn.endswith('.http')]


def fuzz_inputs(root=ROOT, dir=None):
    """fuzz/corpus/*: b0 bits 0-1 type (0 request, 1 response, 2-3 both), bit 2 finish();
    b1 | b2 << 8 lenient bits. Limits, pauses and callback returns of the header are ignored:
    they exercise simdhttp's own API, not the one a layer offers. `dir`: another directory of
    inputs in that format (ids are still fuzz/<file>)."""
    d = dir or os.path.join(root, 'fuzz', 'corpus')
    out = []
    for fn in sorted(os.listdir(d)):
        raw = open(os.path.join(d, fn), 'rb').read()
        b = (raw[:10] + bytes(10))[:10]
        bits = b[1] | b[2] << 8
        out.append(Input('fuzz/' + fn, raw[10:], ['request', 'response', 'both', 'both'][b[0] & 3],
                         [n for i, n in enumerate(LENIENT_BITS) if bits >> i & 1],
                         bool(b[0] & 4), where=fn))
    return out


KINDS = {'corpus': corpus_inputs, 'cases': case_inputs, 'fuzz': fuzz_inputs,
         'blocks': lambda root=ROOT: case_inputs(root, 'blocks')}


def all_inputs(kinds=('corpus', 'cases', 'fuzz'), root=ROOT):
    return [i for k in kinds for i in KINDS[k](root)]


def main(argv):
    kinds = ['corpus', 'cases', 'fuzz']
    args = argv[1:]
    if len(args) >= 2 and args[0] == '--kinds':
        kinds = args[1].split(',')
        args = args[2:]
    if len(args) != 1:
        sys.stderr.write(__doc__)
        return 2
    outdir = args[0]
    os.makedirs(outdir, exist_ok=True)
    with open(os.path.join(outdir, 'index.tsv'), 'w') as idx:
        for i in all_inputs(kinds):
            fn = i.id.replace('/', '__') + '.bin'
            with open(os.path.join(outdir, fn), 'wb') as f:
                f.write(i.data)
            limits = ','.join('%s=%d' % kv for kv in sorted(i.limits.items())) or '-'
            idx.write('%s\t%s\t%s\t%s\t%s\t%s\n' % (i.id, fn, i.type, ','.join(i.lenient) or '-',
                                                    'yes' if i.eof else 'no', limits))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
