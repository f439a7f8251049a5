#!/bin/sh
# SPDX-License-Identifier: MIT
# End-to-end tests against real clients and servers (docs/e2e.md). Run from the repo root with
# $BUILD set; ends with "N passed, N failed". The Python driver starts and stops every process
# itself; `timeout` bounds the whole run (SIGTERM lets the driver kill what it started).
BUILD=${BUILD:-build}
export BUILD
if ! command -v python3 >/dev/null 2>&1; then
    if [ "${CI:-}" = true ]; then
        echo "not ok - python3 is not installed (CI=true: a missing tool is a failure)"
        echo "0 passed, 1 failed"
        exit 1
    fi
    echo "skip - python3 is not installed: end-to-end tests skipped"
    echo "0 passed, 0 failed"
    exit 0
fi
exec timeout -k 10 240 python3 "$(dirname "$0")/e2e.py"
