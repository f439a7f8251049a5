#!/bin/sh
# SPDX-License-Identifier: MIT
# simdhttp's verdicts against http_desync_guardian's cases: tests/test_desync_anchor.py.
# Ends with "N passed, N failed".
BUILD=${BUILD:-build}
exec timeout 300 python3 tests/test_desync_anchor.py "$BUILD/simdhttp"
