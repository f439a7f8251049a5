#!/bin/sh
# SPDX-License-Identifier: MIT
# simdhttp audit on a loopback capture (tcpdump, tcpflow) of curl, wrk and crafted smuggling
# attempts against examples/server.c: tests/e2e/audit_capture.py. Ends with "N passed, N failed".
BUILD=${BUILD:-build}
export BUILD
exec timeout -k 10 180 python3 "$(dirname "$0")/audit_capture.py"
