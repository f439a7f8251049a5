# SPDX-License-Identifier: MIT
# Benchmark suite (owner: the bench part). See docs/benchmarks.md.
#
#   make bench               the tables on corpus/*.http, simdhttp against its peers (a few
#                            minutes; BENCH_ARGS to change), by build/bench/compare
#   make bench-plots         SVG charts and data into bench/results/ (gnuplot)
#   make bench-instructions  callgrind instructions per message, every parser and file (valgrind;
#                            the AVX2 path), also into bench/results/instructions.txt
#   make bench-docs          README and docs/ tables from bench/results (bench/update_docs.py)
#   make bench-deps          apt-get install the peers, gnuplot and valgrind
#
# `simdhttp bench FILE...` (the installed CLI) times simdhttp alone: it links no peer. The
# comparison is build/bench/compare (bench/compare.c + the CLI's bench code + the peers), built
# at bench time from Debian packages; no peer's code is in this repository:
#   pico-native    picohttpparser from Debian's h2o source package (bench/peers.sh fetches it
#                  with apt-get source into build/peers/), -O3 -march=native
#   pico-O3        the same source at -O3 without -march (its scalar loops)
#   pico-libh2o    libh2o as Debian ships it (libh2o-dev), loaded at run time
#   llhttp-O3, llhttp-native   Debian's node-llhttp (/usr/share/llhttp/*.c), -O3 and -O3 -march=native
#   http-parser    Debian's libhttp-parser-dev
# A peer not found is left out of the tables with a one-line note.

BENCH_ARGS ?= --scaling
BENCH_RESULTS ?= bench/results
BENCH_FILES ?=
BENCH_PEER_DIR ?= build/peers

BENCH_LLHTTP_SRC ?= /usr/share/llhttp
BENCH_LLHTTP_INC ?= /usr/share/include/llhttp
BENCH_PICO_SRC = $(BENCH_PEER_DIR)/picohttpparser

# http-parser: its static archive when there is one.
BENCH_HTTP_PARSER_LIB := $(shell for l in -l:libhttp_parser.a -lhttp_parser; do \
	printf '\043include <http_parser.h>\nint main(void){return (int)http_parser_version() == 0;}\n' | \
	$(CC) -x c - $$l -o /dev/null 2>/dev/null && { echo "$$l"; break; }; done)
# libh2o: Debian's libh2o-dev ships libh2o.so (exports phr_*) but no header; loaded by soname.
BENCH_H2O_PATH := $(shell $(CC) -print-file-name=libh2o.so 2>/dev/null)
BENCH_PICO_SO := $(if $(filter /%,$(BENCH_H2O_PATH)),$(or $(shell objdump -p '$(BENCH_H2O_PATH)' 2>/dev/null | \
	awk '/SONAME/ {print $$2}'),libh2o.so))
BENCH_HAVE_LLHTTP := $(and $(wildcard $(BENCH_LLHTTP_SRC)/llhttp.c),$(wildcard $(BENCH_LLHTTP_INC)/llhttp.h))
BENCH_HAVE_PICO_SRC := $(wildcard $(BENCH_PICO_SRC)/picohttpparser.c)

# The peers' builds: their best flags, no sanitizer (their code is not under test here).
BENCH_PEER_CC = $(CC) -O3 -fPIC

COMPARE_SRCS = bench/compare.c bench/peer_list.c tools/cli_bench.c tools/bench_rounds.c tools/bench_parsers.c tools/bench_stats.c
COMPARE_OBJS =
COMPARE_DEFS =
COMPARE_LIBS = -lm -pthread
ifneq ($(BENCH_HTTP_PARSER_LIB),)
COMPARE_DEFS += -DHAVE_HTTP_PARSER
COMPARE_OBJS += $(BUILD)/bench/peer_http_parser.o
COMPARE_LIBS += $(BENCH_HTTP_PARSER_LIB)
endif
ifneq ($(BENCH_PICO_SO),)
COMPARE_DEFS += -DHAVE_PICO_DEB
COMPARE_OBJS += $(BUILD)/bench/peer_pico_libh2o.o
COMPARE_LIBS += -ldl
endif
ifneq ($(BENCH_HAVE_PICO_SRC),)
COMPARE_DEFS += -DHAVE_PICO_SRC
COMPARE_OBJS += $(BUILD)/bench/peer_pico_native.o $(BUILD)/bench/pico-native.o \
	$(BUILD)/bench/peer_pico_o3.o $(BUILD)/bench/pico-o3.o
endif
ifneq ($(BENCH_HAVE_LLHTTP),)
COMPARE_DEFS += -DHAVE_LLHTTP
COMPARE_OBJS += $(BUILD)/bench/peer_llhttp_o3.o $(BUILD)/bench/peer_llhttp_native.o \
	$(BUILD)/bench/llhttp-o3.o $(BUILD)/bench/llhttp-native.o
endif

$(BUILD)/bench:
	mkdir -p $@

# Relinked when the set of peers found changes (e.g. after make bench installed them): the stamp
# is rewritten when make starts if it is missing or holds another set. "Missing" is tested on its
# own: with no peer at all the set is empty, as is cat's output for a missing file, and the
# stamp would never be written (issue 34). The rule is the fallback should it vanish mid-run.
BENCH_PEERS_SIG := $(strip $(COMPARE_DEFS))
BENCH_STAMP_DIFF := $(shell mkdir -p $(BUILD)/bench && [ -f $(BUILD)/bench/peers.stamp ] \
	&& [ "$$(cat $(BUILD)/bench/peers.stamp)" = '$(BENCH_PEERS_SIG)' ] \
	|| echo '$(BENCH_PEERS_SIG)' > $(BUILD)/bench/peers.stamp)
$(BUILD)/bench/peers.stamp: | $(BUILD)/bench
	echo '$(BENCH_PEERS_SIG)' > $@

$(BUILD)/bench/compare: $(COMPARE_SRCS) tools/bench.h tools/cli.h $(COMPARE_OBJS) $(BUILD)/libsimdhttp.a \
		$(BUILD)/bench/peers.stamp | $(BUILD)/bench
	$(CC) $(CFLAGS_ALL) -Itools $(COMPARE_DEFS) $(COMPARE_SRCS) $(COMPARE_OBJS) $(BUILD)/libsimdhttp.a \
		$(LDFLAGS_ALL) $(COMPARE_LIBS) -o $@

# The adapters (our code: the project's warnings apply).
$(BUILD)/bench/peer_http_parser.o: bench/peer_http_parser.c tools/bench.h | $(BUILD)/bench
	$(CC) $(CFLAGS_ALL) -Itools -c $< -o $@
$(BUILD)/bench/peer_pico_libh2o.o: bench/peer_pico.c tools/bench.h | $(BUILD)/bench
	$(CC) $(CFLAGS_ALL) -Itools -DPICO_DEB -DBENCH_PICO_SO='"$(BENCH_PICO_SO)"' -c $< -o $@
$(BUILD)/bench/peer_pico_native.o: bench/peer_pico.c tools/bench.h $(BENCH_PICO_SRC)/picohttpparser.h | $(BUILD)/bench
	$(CC) $(CFLAGS_ALL) -Itools -I$(BENCH_PICO_SRC) -DPICO_SRC -c $< -o $@
$(BUILD)/bench/peer_pico_o3.o: bench/peer_pico.c tools/bench.h $(BENCH_PICO_SRC)/picohttpparser.h | $(BUILD)/bench
	$(CC) $(CFLAGS_ALL) -Itools -I$(BENCH_PICO_SRC) -DPICO_SRC -DPICO_O3 -c $< -o $@
$(BUILD)/bench/peer_llhttp_%.o: bench/peer_llhttp.c tools/bench.h | $(BUILD)/bench
	$(CC) $(CFLAGS_ALL) -Itools -I$(BENCH_LLHTTP_INC) -DLL_NATIVE=$(if $(filter native,$*),1,0) -c $< -o $@

# The peers themselves, from the packages' sources, symbols renamed per build (bench/peer_obj.sh).
$(BUILD)/bench/pico-native.o: $(BENCH_PICO_SRC)/picohttpparser.c bench/peer_obj.sh | $(BUILD)/bench
	sh bench/peer_obj.sh $@ native_ "$(BENCH_PEER_CC) -march=native" $<
$(BUILD)/bench/pico-o3.o: $(BENCH_PICO_SRC)/picohttpparser.c bench/peer_obj.sh | $(BUILD)/bench
	sh bench/peer_obj.sh $@ o3_ "$(BENCH_PEER_CC)" $<
$(BUILD)/bench/llhttp-o3.o: bench/peer_obj.sh | $(BUILD)/bench
	sh bench/peer_obj.sh $@ o3_ "$(BENCH_PEER_CC) -I$(BENCH_LLHTTP_INC)" $(addprefix $(BENCH_LLHTTP_SRC)/,llhttp.c api.c http.c)
$(BUILD)/bench/llhttp-native.o: bench/peer_obj.sh | $(BUILD)/bench
	sh bench/peer_obj.sh $@ native_ "$(BENCH_PEER_CC) -march=native -I$(BENCH_LLHTTP_INC)" $(addprefix $(BENCH_LLHTTP_SRC)/,llhttp.c api.c http.c)

# Every parser does the same work on every corpus file (simdhttp bench --check, and the same
# for build/bench/compare with the peers found); statistics match known values; --json output
# parses. No timing is asserted.
TEST_SCRIPTS += bench/check.sh
# make, make bench and make test without the peers (tests/test_build_peers.sh: make -n in a
# temporary BUILD with every peer hidden).
TEST_SCRIPTS += tests/test_build_peers.sh
tests: $(BUILD)/bench/compare

# The peers and tools as Debian packages (needs root and apt-get); then `make bench`.
BENCH_DEB = libhttp-parser-dev libh2o-dev node-llhttp dpkg-dev gnuplot-nox valgrind
bench-deps:
	@command -v apt-get >/dev/null || { echo "bench-deps: no apt-get; install the peers by hand (docs/benchmarks.md)"; exit 1; }
	apt-get install -y $(BENCH_DEB)
	sh bench/peers.sh $(BENCH_PEER_DIR)

.PHONY: bench bench-run bench-plots bench-instructions bench-docs bench-deps
# `make bench` on a fresh machine: install the peers first (root + apt-get; otherwise a note),
# then a new make run, which finds them and builds them in.
bench:
	@sh scripts/deps.sh bench # also fetches picohttpparser's source (bench/peers.sh)
	@$(MAKE) --no-print-directory bench-run
bench-run: $(BUILD)/bench/compare
	$(BUILD)/bench/compare $(BENCH_ARGS)

bench-plots: $(BUILD)/bench/compare
	mkdir -p $(BENCH_RESULTS)
	$(BUILD)/bench/compare --scaling --json-out $(BENCH_RESULTS)/bench.json --plot-data $(BENCH_RESULTS) | tee $(BENCH_RESULTS)/bench.txt
	gnuplot -e "dir='$(BENCH_RESULTS)'" bench/plots.gp
	@ls -1 $(BENCH_RESULTS)/*.svg

# The AVX2 path, as docs/benchmarks.md quotes it (valgrind hides AVX-512 anyway); into a temporary
# file first, so a failed run leaves the last good table in place.
bench-instructions: $(BUILD)/bench/compare
	mkdir -p $(BENCH_RESULTS)
	SIMDHTTP_ISA=avx2 sh bench/instructions.sh $(BUILD)/bench/compare $(BENCH_FILES) > $(BENCH_RESULTS)/instructions.txt.new
	mv $(BENCH_RESULTS)/instructions.txt.new $(BENCH_RESULTS)/instructions.txt
	cat $(BENCH_RESULTS)/instructions.txt

bench-docs:
	python3 bench/update_docs.py $(BENCH_RESULTS)
