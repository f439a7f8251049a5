#!/bin/sh
# SPDX-License-Identifier: MIT
# Every tracked source file carries the project's license tag: `SPDX-License-Identifier: MIT` on
# line 1, or on line 2 right after a `#!` line. A source file is one whose name says code or
# build logic (below) or one that starts with `#!`; data (corpus/, fuzz/corpus*/, bench/results/,
# tests/desync/cases/: raw messages, no comment syntax), Markdown, JSON, SVG and the Debian
# metadata formats without comments are not.
set -u
cd "$(dirname "$0")/.." || exit 1
pass=0; fail=0
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    files=$(git ls-files)
else
    files=$(find . -path ./build -prune -o -path ./.git -prune -o -type f -print | sed 's|^\./||')
fi
needs_tag() {
    case "$1" in
        corpus/*|fuzz/corpus/*|fuzz/corpus-fields/*|bench/results/*|tests/desync/cases/*) return 1 ;;
        debian/changelog|debian/copyright|debian/source/format|debian/*.lintian-overrides) return 1 ;;
        *.c|*.h|*.sh|*.py|*.mk|*.cmake|*.in|*.gp|*.lua|*.map|*.ld|*.dict|*.go|*.java) return 0 ;;
        Makefile|*/Makefile|CMakeLists.txt|*/CMakeLists.txt|meson.build|*/meson.build|meson_options.txt) return 0 ;;
        tests/cases/*.txt|tests/blocks/*.txt|tests/desync/*.txt|debian/*|.ci/*|.gitignore) return 0 ;;
    esac
    [ "$(head -c 2 "$1" 2>/dev/null)" = "#!" ]
}
n=0
for f in $files; do
    [ -f "$f" ] || continue
    needs_tag "$f" || continue
    n=$((n + 1))
    if head -n 1 "$f" | grep -q '^#!'; then line=$(sed -n 2p "$f"); else line=$(sed -n 1p "$f"); fi
    case "$line" in
        *"SPDX-License-Identifier: MIT"*) pass=$((pass + 1)) ;;
        *) fail=$((fail + 1))
           echo "not ok - $f: no 'SPDX-License-Identifier: MIT' on line 1 (line 2 after a #! line);" \
                "add e.g. '/* SPDX-License-Identifier: MIT */' or '# SPDX-License-Identifier: MIT'" ;;
    esac
done
[ -f LICENSE ] && grep -q '^MIT License' LICENSE && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "not ok - LICENSE missing or not MIT"; }
[ "$n" -gt 50 ] && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "not ok - only $n source files found"; }
echo "$pass passed, $fail failed"
