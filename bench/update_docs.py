#!/usr/bin/env python3
"""Copy the tables of a benchmark run into docs/benchmarks.md.

Usage: python3 bench/update_docs.py [bench/results] [docs/benchmarks.md]
Replaces each block between <!-- bench:NAME --> and <!-- /bench:NAME --> with the matching
section of bench.txt (main, workload, scaling, streaming, threads, header) or instructions.txt
(instructions), verbatim. The prose (targets, profile) is written by hand from the same run.
"""
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
doc = open(doc_path).read()
for name, text in blocks.items():
    pat = re.compile(r"(<!-- bench:%s -->\n```\n).*?(\n```\n<!-- /bench:%s -->)" % (name, name), re.S)
    doc, n = pat.subn(lambda m: m.group(1) + text + m.group(2), doc)
    if n != 1:
        sys.exit(f"update_docs: block {name} found {n} times in {doc_path}")
open(doc_path, "w").write(doc)
