#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Where a head's instructions go, by part of the head API (AVX2, callgrind):

    bench/head_cost.py [SIMDHTTP] FILE...

Runs `SIMDHTTP bench --instructions --parsers simdhttp-head FILE` (default build/simdhttp)
under callgrind for each FILE, annotates the dump by source line, and sums the instructions per
message by the function each line belongs to (inlined code counts where its source is), then
by part: the benchmark's loop, call and set-up, the start line, stage 1, the field lines, the
framing decision (the head's end), SIMD intrinsics (stage 1's and the scanners', not told
apart) and the rest. Needs valgrind; AVX2 is forced (valgrind has no AVX-512)."""
import os
import re
import subprocess
import sys
import tempfile

PARTS = [
    ("benchmark loop", lambda f, fn: f.startswith("tools/")),
    ("call and set-up", lambda f, fn: f in ("src/dispatch.c", "src/internal.h") or f.startswith("src/isa/")
     and not ("stage1" in f or "scan" in f) or fn in ("sh_head", "sh_head_enter", "sh_core", "sh_head_leave")),
    ("start line", lambda f, fn: fn in ("sh_start_line", "sh_load32", "sh_load64", "sh_method_end",
                                        "sh_version_status") or "scan" in f),
    ("stage 1", lambda f, fn: "stage1" in f or fn == "sh_block_at"),
    ("field lines", lambda f, fn: fn.startswith(("sh_field", "sh_ows", "sh_ctz64", "sh_classify", "sh_special",
                                                 "sh_walk", "sh_lookalike"))),
    ("framing decision, head end", lambda f, fn: fn in ("sh_head_framing", "sh_head_done", "sh_keep")),
    ("SIMD intrinsics", lambda f, fn: f.endswith("intrin.h")),
]


def functions(path):
    """(first line, name) of each function defined in a C file, by a line-start regex."""
    out = []
    try:
        with open(path) as f:
            for no, line in enumerate(f, 1):
                line = re.sub(r"__attribute__\(\(.*?\)\)\s*", "", line)
                m = re.match(r"^(?:static\s+)?(?:[A-Za-z_][\w\s\*\(\)]*?\s\**)?([A-Za-z_]\w*)\(", line)
                if m and not line.startswith((" ", "\t", "#")) and m.group(1) not in ("if", "for", "while",
                                                                                       "switch", "return"):
                    out.append((no, m.group(1)))
    except OSError:
        pass
    return out


def by_function(annotated):
    sums, cur, line, fns = {}, None, 0, []
    for text in annotated.splitlines():
        m = re.match(r"-- Auto-annotated source: (\S+)", text)
        if m:
            cur = m.group(1)
            cur = cur[len(os.getcwd()) + 1:] if cur.startswith(os.getcwd() + "/") else cur
            fns, line = functions(cur), 0
            continue
        m = re.match(r"-- line (\d+) -", text)
        if m:
            line = int(m.group(1))
            continue
        m = re.match(r"^ *([0-9,]+|\.) ", text)
        if "=> " in text or "events annotated" in text:  # a call's inclusive cost; the total
            continue
        if cur is None or not m or not line:
            continue
        if m.group(1) != ".":
            fn = "?"
            for first, name in fns:
                if first <= line:
                    fn = name
            key = (cur, fn)
            sums[key] = sums.get(key, 0) + int(m.group(1).replace(",", ""))
        line += 1
    return sums


def main(argv):
    args = argv[1:]
    binary = "build/simdhttp"
    if args and os.access(args[0], os.X_OK) and not args[0].endswith(".http"):
        binary = args.pop(0)
    if not args:
        sys.stderr.write(__doc__)
        return 2
    for path in args:
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "cg")
            subprocess.run(["valgrind", "--tool=callgrind", "--collect-atstart=no", "--callgrind-out-file=" + out,
                            binary, "bench", "--instructions", "--parsers", "simdhttp-head", path],
                           env=dict(os.environ, SIMDHTTP_ISA="avx2"), stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, check=True)
            dump = os.path.join(d, "cg.1")  # the one dump: the measured loop
            with open(dump) as f:
                desc = re.search(r"simdhttp-bench\|parse\|simdhttp-head\|[^|]*\|(\d+)", f.read())
            msgs = int(desc.group(1))
            ann = subprocess.run(["callgrind_annotate", "--auto=yes", "--threshold=100", dump],
                                 capture_output=True, text=True, check=True).stdout
        sums = by_function(ann)
        parts = {name: 0 for name, _ in PARTS}
        parts["rest"] = 0
        rest = {}
        for (f, fn), n in sums.items():
            for name, test in PARTS:
                if test(f, fn):
                    parts[name] += n
                    break
            else:
                parts["rest"] += n
                rest[fn] = rest.get(fn, 0) + n
        total = sum(parts.values())
        print("%s: %.0f instructions per message" % (os.path.basename(path), total / msgs))
        for name, n in parts.items():
            print("  %-28s %6.0f" % (name, n / msgs))
        if rest:
            print("  (rest: %s)" % ", ".join("%s %.0f" % (k, v / msgs) for k, v in
                                           sorted(rest.items(), key=lambda kv: -kv[1]) if v / msgs >= 1))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
