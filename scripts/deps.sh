#!/bin/sh
# SPDX-License-Identifier: MIT
# Installs the Debian packages a make target needs, when they are missing and we can
# (root with apt-get). Usage: scripts/deps.sh test|bench|seed|deb. Never fails the build by itself: a
# test that needs a missing tool says so (and fails in CI, where everything must be present).
set -u
case "${1:-test}" in
    test)  pkgs="make gcc clang valgrind python3 libfuzzer-14-dev libclang-rt-14-dev qemu-user gcc-aarch64-linux-gnu libc6-dev-arm64-cross curl wrk tcpdump tcpflow nginx-light chromium libhttp-parser-dev libh2o-dev node-llhttp dpkg-dev cython3 python3-dev python3-setuptools python3-pytest python3-uvicorn python3-pytest-mock python3-multidict python3-yarl python3-async-timeout python3-frozenlist python3-aiosignal python3-charset-normalizer python3-attr python3-trustme python3-brotli g++ libssl-dev zlib1g-dev libyaml-dev pkg-config cmake meson ninja-build git man-db groff-base" ;;
    deb)   pkgs="dpkg-dev debhelper fakeroot lintian build-essential pkg-config cmake man-db groff-base git" ;;
    bench) pkgs="libhttp-parser-dev libh2o-dev node-llhttp dpkg-dev gnuplot-nox valgrind" ;;
    # make bench-seed's other-language peers: Go's net/http, Netty's HttpRequestDecoder
    seed)  pkgs="golang-go default-jdk-headless libnetty-java" ;;
    *) echo "usage: $0 test|bench|seed|deb" >&2; exit 2 ;;
esac
missing=""
for p in $pkgs; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
done
if [ -z "$missing" ]; then
    :
elif [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "installing:$missing"
    export DEBIAN_FRONTEND=noninteractive
    { apt-get update -qq && apt-get install -y -qq --no-install-recommends $missing; } >/tmp/simdhttp-apt.log 2>&1 \
        || { echo "apt-get failed (see /tmp/simdhttp-apt.log); going on without:$missing"; tail -n 5 /tmp/simdhttp-apt.log; }
else
    echo "note: missing Debian packages:$missing (run as root, or install them, for the full suite)"
fi
# picohttpparser's source for the bench's pico-native row (apt-get source h2o; needs dpkg-dev)
sh "$(dirname "$0")/../bench/peers.sh"
exit 0
