#!/bin/sh
# SPDX-License-Identifier: MIT
# Sums the per-build counts written by tests/run.sh and prints the final line.
p=0; f=0
while read -r a b; do p=$((p + a)); f=$((f + b)); done < "$1"
echo "$p passed, $f failed"
[ "$f" -eq 0 ]
