#!/bin/sh
# SPDX-License-Identifier: MIT
# Tests of `simdhttp audit` ($BUILD/simdhttp): tests/test_audit.py says what each case checks.
# Ends with "N passed, N failed".
BUILD=${BUILD:-build}
exec timeout 300 python3 tests/test_audit.py "$BUILD/simdhttp"
