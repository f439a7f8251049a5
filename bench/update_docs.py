#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Copy the tables of a benchmark run into docs/benchmarks.md, and compute its targets table.

Usage: python3 bench/update_docs.py [bench/results] [docs/benchmarks.md]
Replaces each block between <!-- bench:NAME --> and <!-- /bench:NAME --> with the matching
section of bench.txt (main, workload, scaling, streaming, threads, header) or instructions.txt
(instructions), verbatim; and the block <!-- bench:targets --> (a Markdown table, no code
fence) from bench.json and instructions.txt. The profile prose is written by hand.
"""
import json
import re
import sys

results = sys.argv[1] if len(sys.argv) > 1 else "bench/results"
doc_path = sys.argv[2] if len(sys.argv) > 2 else "docs/benchmarks.md"
bench = open(f"{results}/bench.txt").read().rstrip("\n")
instr = open(f"{results}/instructions.txt").read().rstrip("\n")


def section(start, end=None):
    a = bench.index(start)
    b = bench.index(end, a) if end else len(bench)
    return bench[a:b].rstrip("\n")


blocks = {
    "main": section("\n\n", "\nWorkload:").strip("\n"),
    "workload": section("Workload:", "Scaling: ns per message against the number"),
    "scaling": section("Scaling: ns per message against the number", "Streaming:"),
    "streaming": section("Streaming:", "Threads:"),
    "threads": section("Threads:"),
    "instructions": instr,
}


def instr_table(title):
    """{file: {parser: instructions per message}} of one table of instructions.txt."""
    lines = instr.split("\n")
    i = next(k for k, l in enumerate(lines) if l.startswith(title))
    cols = lines[i + 1].split()[1:]
    out = {}
    for l in lines[i + 2:]:
        if not l.strip():
            break
        f, *v = l.split()
        out[f] = {c: (None if x == "-" else int(x)) for c, x in zip(cols, v)}
    return out


def targets():
    d = json.load(open(f"{results}/bench.json"))
    files, wl = d["files"], d["workload"]
    ins = instr_table("whole message")

    def pico(f):
        r = files[f]
        p, h = r["picohttpparser"], r["simdhttp-head"]
        return p, p["median_ns"] / h["median_ns"]

    def yes(ok):
        return "yes" if ok else "**no**"

    rows = ["| target (issue 5) | measured in this run | met (median) |", "|---|---|---|"]
    for f in ("browser-get.http", "get-32h.http"):
        if f not in files or "picohttpparser" not in files[f]:
            continue
        p, ph = pico(f)
        rows.append(f"| simdhttp >= 3x picohttpparser on {f} | {p['ratio_to_simdhttp']:.2f}x "
                    f"[{p['ratio_ci_low']:.2f}, {p['ratio_ci_high']:.2f}] (streaming API); head API "
                    f"{ph:.2f}x ({p['median_ns']:.1f} / {files[f]['simdhttp-head']['median_ns']:.1f} ns) "
                    f"| {yes(p['ratio_to_simdhttp'] >= 3)} |")
    other = [f for f in files if f in wl and f not in ("browser-get.http", "get-32h.http")
             and "picohttpparser" in files[f]]
    if other:
        parts = [f"{f.replace('.http', '')} {pico(f)[0]['ratio_to_simdhttp']:.2f}x "
                 f"[{pico(f)[0]['ratio_ci_low']:.2f}, {pico(f)[0]['ratio_ci_high']:.2f}]" for f in other]
        heads = [f"{pico(f)[1]:.2f}x" for f in other]
        ok = all(pico(f)[0]["ratio_to_simdhttp"] >= 2 for f in other)
        rows.append(f"| simdhttp >= 2x picohttpparser on every other request file | "
                    f"{', '.join(parts)}; head API: {', '.join(heads)} | {yes(ok)} |")
    b = ins.get("browser-get.http")
    if b:
        rows.append(f"| <= 1,500 instructions per message on browser-get.http | {b['simdhttp']:,} "
                    f"(streaming; AVX2 under valgrind); {b['simdhttp-head']:,} (head API); "
                    f"picohttpparser {b.get('picohttpparser') or '-':,} | {yes(b['simdhttp'] <= 1500)} |")
    w = wl.get("seed-simple.http")
    if w:
        s_ = w["simdhttp"]
        rows.append(f"| method + User-Agent + cookie workload < 60 ns on seed-simple.http | "
                    f"{s_['median_ns']:.1f} ns [{s_['ci_low_ns']:.1f}, {s_['ci_high_ns']:.1f}] "
                    f"(parser + simdhttp_fields + cookie iterator); head API and a field loop "
                    f"{w['simdhttp-head']['median_ns']:.1f} ns; picohttpparser "
                    f"{w['picohttpparser']['median_ns']:.1f} ns | {yes(s_['median_ns'] < 60)} |")
    return "\n".join(rows)


doc = open(doc_path).read()
pat = re.compile(r"(<!-- bench:targets -->\n).*?(\n<!-- /bench:targets -->)", re.S)
doc, n = pat.subn(lambda m: m.group(1) + targets() + m.group(2), doc)
if n != 1:
    sys.exit(f"update_docs: block targets found {n} times in {doc_path}")
for name, text in blocks.items():
    pat = re.compile(r"(<!-- bench:%s -->\n```\n).*?(\n```\n<!-- /bench:%s -->)" % (name, name), re.S)
    doc, n = pat.subn(lambda m: m.group(1) + text + m.group(2), doc)
    if n != 1:
        sys.exit(f"update_docs: block {name} found {n} times in {doc_path}")
open(doc_path, "w").write(doc)
