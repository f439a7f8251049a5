# SPDX-License-Identifier: MIT
# Benchmark suite (owner: the bench part): simdhttp bench against picohttpparser and http-parser.
#
#   make bench               the tables on corpus/*.http (a few minutes; BENCH_ARGS to change)
#   make bench-plots         SVG charts and data into bench/results/ (gnuplot)
#   make bench-instructions  callgrind instructions per message, every parser and file (valgrind)
#   make bench-deps          apt-get install the peers, gnuplot and valgrind
#
# Peers are found at build time and linked into the CLI when present; without them the CLI
# builds and runs the simdhttp rows and prints a one-line note per missing peer.

BENCH_ARGS ?= --scaling
BENCH_RESULTS ?= bench/results
BENCH_FILES ?=

# http-parser: Debian libhttp-parser-dev. Its static archive when there is one, so the
# installed CLI needs no extra shared library.
BENCH_HTTP_PARSER_LIB := $(shell for l in -l:libhttp_parser.a -lhttp_parser; do \
	printf '\043include <http_parser.h>\nint main(void){return (int)http_parser_version() == 0;}\n' | \
	$(CC) -x c - $$l -o /dev/null 2>/dev/null && { echo "$$l"; break; }; done)
# picohttpparser: Debian libh2o-dev ships libh2o.so (exports phr_*) but no header. The CLI
# dlopen()s it by soname at run time, so it does not depend on libh2o's TLS/libuv stack.
BENCH_H2O_PATH := $(shell $(CC) -print-file-name=libh2o.so 2>/dev/null)
BENCH_PICO_SO := $(if $(filter /%,$(BENCH_H2O_PATH)),$(or $(shell objdump -p '$(BENCH_H2O_PATH)' 2>/dev/null | \
	awk '/SONAME/ {print $$2}'),libh2o.so))

ifneq ($(BENCH_HTTP_PARSER_LIB),)
$(BUILD)/simdhttp: private CFLAGS_ALL += -DHAVE_HTTP_PARSER
CLI_LIBS += $(BENCH_HTTP_PARSER_LIB)
endif
ifneq ($(BENCH_PICO_SO),)
$(BUILD)/simdhttp: private CFLAGS_ALL += -DHAVE_PICOHTTPPARSER -DBENCH_PICO_SO='"$(BENCH_PICO_SO)"'
CLI_LIBS += -ldl
endif
CLI_LIBS += -pthread

# Every parser does the same work on every corpus file; the statistics match known values;
# --json output parses. No timing is asserted.
TEST_SCRIPTS += bench/check.sh

# The peers and tools as Debian packages (needs root and apt-get); run it, then `make bench`.
BENCH_DEB = libhttp-parser-dev libh2o-dev gnuplot-nox valgrind
bench-deps:
	@command -v apt-get >/dev/null || { echo "bench-deps: no apt-get; install http-parser and libh2o (picohttpparser) by hand"; exit 1; }
	apt-get install -y $(BENCH_DEB)

# The CLI is rebuilt when the set of peers found changes (e.g. after they were installed).
BENCH_PEERS_SIG := $(BENCH_HTTP_PARSER_LIB)|$(BENCH_PICO_SO)
BENCH_STAMP_DIFF := $(shell mkdir -p $(BUILD) && [ "$$(cat $(BUILD)/peers.stamp 2>/dev/null)" = '$(BENCH_PEERS_SIG)' ] \
	|| echo '$(BENCH_PEERS_SIG)' > $(BUILD)/peers.stamp)
$(BUILD)/simdhttp: $(BUILD)/peers.stamp

.PHONY: bench bench-run bench-plots bench-instructions bench-deps
# `make bench` on a fresh machine: install the peers first (root + apt-get; otherwise a note),
# then a new make run, which finds them and links them in.
bench:
	@sh scripts/deps.sh bench
	@$(MAKE) --no-print-directory bench-run
bench-run: $(BUILD)/simdhttp
	$(BUILD)/simdhttp bench $(BENCH_ARGS)

bench-plots: $(BUILD)/simdhttp
	mkdir -p $(BENCH_RESULTS)
	$(BUILD)/simdhttp bench --scaling --json-out $(BENCH_RESULTS)/bench.json --plot-data $(BENCH_RESULTS) | tee $(BENCH_RESULTS)/bench.txt
	gnuplot -e "dir='$(BENCH_RESULTS)'" bench/plots.gp
	@ls -1 $(BENCH_RESULTS)/*.svg

bench-instructions: $(BUILD)/simdhttp
	sh bench/instructions.sh $(BUILD)/simdhttp $(BENCH_FILES)
