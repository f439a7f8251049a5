# SPDX-License-Identifier: MIT
# picohttpparser's API over simdhttp (owner: the picohttpparser layer; docs/compat.md).
#
#   libsimdhttp-picohttpparser.a       compat/picohttpparser/: picohttpparser.h and a thin
#                                      translation to the native API: link it with libsimdhttp.a
#   libsimdhttp-picohttpparser.so      the same with the core inside, soname .so.0, exporting
#                                      picohttpparser's API only (picohttpparser.map)
#   tests/compat/picohttpparser.sh     (make test) the layer against the real picohttpparser:
#                                      tests/compat/picohttpparser_events.c, written against
#                                      picohttpparser's API only, built twice and compared by
#                                      tests/compat/diff.py; picohttpparser's README loops built
#                                      and run against both (and installed, with pkg-config);
#                                      fuzz/fuzz_pico.c's replay
#                                      tests/compat/test_picohttpparser.c, the API's edges,
#                                      against both (each its own answer where they differ)
#   tests/compat/h2o.sh                (make test, the normal build) a real program unchanged:
#                                      Debian's h2o server built on the layer (its own
#                                      picohttpparser deleted) and on its own, served files,
#                                      raw requests and picohttpparser's test.c compared
#                                      (tests/compat/h2o.known)
#   make bench-h2o                     h2o's requests/s with wrk, on the layer and on its own
#                                      picohttpparser (part of make bench)
#   make fuzz-pico [FUZZ_TIME=300]     libFuzzer: the real picohttpparser and the layer in one
#                                      process (the real one's symbols renamed real_*)
#   make bench-picohttpparser-layer    the layer against picohttpparser -O3 -march=native, same
#                                      program, same inputs (bench/compat_picohttpparser.c; part
#                                      of make bench)
# The real picohttpparser is Debian's h2o source package (deps/picohttpparser), fetched into
# build/peers/ by bench/peers.sh from scripts/deps.sh (make test, make bench); never committed.

PICO_LAYER = compat/picohttpparser
PICO_LAYER_INC = -I$(PICO_LAYER)/include
PICO_REAL_SRC ?= build/peers/picohttpparser
PICO_HAVE_REAL := $(wildcard $(PICO_REAL_SRC)/picohttpparser.c)

# Built, installed and packaged like the main library (mk/install.mk: SHIP_LIBS): the .a is the
# layer alone, the .so carries the core (soname libsimdhttp-picohttpparser.so.0); header in
# $(INCLUDEDIR)/simdhttp-picohttpparser/, pkg-config simdhttp-picohttpparser, CMake
# simdhttp::picohttpparser, Debian libsimdhttp-picohttpparser0 + libsimdhttp-picohttpparser-dev.
SHIP_LIBS += picohttpparser
SHIP_picohttpparser_OBJS = $(BUILD)/compat/picohttpparser.o
SHIP_picohttpparser_SO_OBJS = $(LIB_OBJS)
SHIP_picohttpparser_STATIC_DEPS = simdhttp
SHIP_picohttpparser_HDRS = $(PICO_LAYER)/include/picohttpparser.h
SHIP_picohttpparser_MAP = $(PICO_LAYER)/picohttpparser.map
SHIP_picohttpparser_DESC = picohttpparser API on the simdhttp parser

$(BUILD)/compat/picohttpparser.o: $(PICO_LAYER)/picohttpparser.c $(PICO_LAYER)/include/picohttpparser.h \
		include/simdhttp.h src/internal.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) $(PICO_LAYER_INC) -c $< -o $@

# ---- proof against the real picohttpparser ----

PICO_EVENTS_DEPS = tests/compat/picohttpparser_events.c tests/compat/events.h
TEST_SCRIPTS += tests/compat/picohttpparser.sh
tests: $(BUILD)/compat/pico_events_layer

$(BUILD)/compat/pico_events_layer: $(PICO_EVENTS_DEPS) $(PICO_LAYER)/include/picohttpparser.h \
		$(BUILD)/libsimdhttp-picohttpparser.a $(BUILD)/libsimdhttp.a
	$(CC) $(CFLAGS_ALL) $(PICO_LAYER_INC) $< $(BUILD)/libsimdhttp-picohttpparser.a $(BUILD)/libsimdhttp.a \
		$(LDFLAGS_ALL) -o $@

# A real program unchanged: h2o 2.2.5's server from Debian's source package, built with cmake on
# the layer (deps/picohttpparser/picohttpparser.c and .h deleted) and on its own picohttpparser;
# picohttpparser's test.c, curl, raw requests and wrk on both (normal build only: the sanitizer
# builds skip it). Its build-deps are in scripts/deps.sh test.
TEST_SCRIPTS += tests/compat/h2o.sh

# The API's edges (tests/compat/test_picohttpparser.c), against the layer and the real one.
tests: $(BUILD)/compat/test_pico_layer
$(BUILD)/compat/test_pico_layer: tests/compat/test_picohttpparser.c tests/testlib.c $(PICO_LAYER)/include/picohttpparser.h \
		$(BUILD)/libsimdhttp-picohttpparser.a $(BUILD)/libsimdhttp.a
	$(CC) $(CFLAGS_ALL) $(PICO_LAYER_INC) -Itests $< tests/testlib.c $(BUILD)/libsimdhttp-picohttpparser.a \
		$(BUILD)/libsimdhttp.a $(LDFLAGS_ALL) -o $@

# make fuzz-pico on a fresh clone: fetch the real source first (what make test and make bench do
# through scripts/deps.sh), then run with it in place (PICO_HAVE_REAL is read when make starts)
.PHONY: fuzz-pico
fuzz-pico:
	sh bench/peers.sh $(patsubst %/,%,$(dir $(PICO_REAL_SRC)))
	@test -f $(PICO_REAL_SRC)/picohttpparser.c || { echo "fuzz-pico: picohttpparser's source is missing ($(PICO_REAL_SRC)): the fuzzer compares the layer with it" >&2; exit 1; }
	$(MAKE) --no-print-directory fuzz-pico-run

ifneq ($(PICO_HAVE_REAL),)
tests: $(BUILD)/compat/pico_events_real $(BUILD)/compat/fuzz_pico_replay

# The real one: its own source and flags, no sanitizer (its code is not under test).
$(BUILD)/compat/pico-real.o: $(PICO_REAL_SRC)/picohttpparser.c
	@mkdir -p $(@D)
	$(CC) -O2 -fPIC -w -c $< -o $@

$(BUILD)/compat/pico_events_real: $(PICO_EVENTS_DEPS) $(BUILD)/compat/pico-real.o
	$(CC) $(CFLAGS_ALL) -I$(PICO_REAL_SRC) $< $(BUILD)/compat/pico-real.o $(LDFLAGS_ALL) -o $@
tests: $(BUILD)/compat/test_pico_real
$(BUILD)/compat/test_pico_real: tests/compat/test_picohttpparser.c tests/testlib.c $(BUILD)/compat/pico-real.o $(BUILD)/libsimdhttp.a
	$(CC) $(CFLAGS_ALL) -I$(PICO_REAL_SRC) -Itests $< tests/testlib.c $(BUILD)/compat/pico-real.o $(BUILD)/libsimdhttp.a \
		$(LDFLAGS_ALL) -o $@

# The real one renamed real_phr_* beside the layer in one program: the differential fuzzer.
$(BUILD)/compat/pico-real-renamed.o: $(PICO_REAL_SRC)/picohttpparser.c bench/peer_obj.sh
	@mkdir -p $(@D)
	sh bench/peer_obj.sh $@ real_ "$(CC) -O2 -fPIC" $<
PICO_FUZZ_DEPS = fuzz/fuzz_pico.c $(BUILD)/compat/pico-real-renamed.o $(PICO_LAYER)/include/picohttpparser.h \
	$(BUILD)/libsimdhttp-picohttpparser.a $(BUILD)/libsimdhttp.a
PICO_FUZZ_LINK = $(PICO_LAYER_INC) fuzz/fuzz_pico.c $(BUILD)/compat/pico-real-renamed.o \
	$(BUILD)/libsimdhttp-picohttpparser.a $(BUILD)/libsimdhttp.a $(LDFLAGS_ALL)
$(BUILD)/compat/fuzz_pico_replay: $(PICO_FUZZ_DEPS) fuzz/replay_main.c
	$(CC) $(CFLAGS_ALL) fuzz/replay_main.c $(PICO_FUZZ_LINK) -o $@
$(BUILD)/compat/fuzz_pico: $(PICO_FUZZ_DEPS)
	$(CC) $(CFLAGS_ALL) -fsanitize=fuzzer $(PICO_FUZZ_LINK) -fsanitize=fuzzer -o $@

.PHONY: fuzz-pico-run
fuzz-pico-run:
	$(MAKE) --no-print-directory BUILD=$(FUZZ_DIR) SAN=1 CC=clang CFLAGS=-fsanitize=fuzzer-no-link $(FUZZ_DIR)/compat/fuzz_pico
	sh fuzz/run.sh $(FUZZ_DIR)/compat/fuzz_pico $(FUZZ_TIME) $(FUZZ_JOBS)

# picohttpparser's README loops, extracted from the README of the same source package and
# compiled unchanged (warnings allowed: the README itself passes char ** for const char **).
PICO_README_CFLAGS = $(filter-out -Werror,$(CFLAGS_ALL)) -I$(BUILD)/compat/readme
$(BUILD)/compat/readme/readme_request.inc $(BUILD)/compat/readme/readme_chunked.inc: $(PICO_REAL_SRC)/README.md
	@mkdir -p $(@D)
	awk '/^```c$$/ {n++; inb = 1; next} /^```$$/ {inb = 0; next} inb && n == 1' $< > $(@D)/readme_request.inc
	awk '/^```c$$/ {n++; inb = 1; next} /^```$$/ {inb = 0; next} inb && n == 2' $< > $(@D)/readme_chunked.inc
PICO_README_INC = $(BUILD)/compat/readme/readme_request.inc $(BUILD)/compat/readme/readme_chunked.inc
tests: $(BUILD)/compat/pico_readme_real $(BUILD)/compat/pico_readme_layer
$(BUILD)/compat/pico_readme_real: tests/compat/pico_readme.c $(PICO_README_INC) $(BUILD)/compat/pico-real.o
	$(CC) $(PICO_README_CFLAGS) -I$(PICO_REAL_SRC) $< $(BUILD)/compat/pico-real.o $(LDFLAGS_ALL) -o $@ 2> $@.log \
		|| { cat $@.log; exit 1; }
$(BUILD)/compat/pico_readme_layer: tests/compat/pico_readme.c $(PICO_README_INC) $(PICO_LAYER)/include/picohttpparser.h \
		$(BUILD)/libsimdhttp-picohttpparser.a $(BUILD)/libsimdhttp.a
	$(CC) $(PICO_README_CFLAGS) $(PICO_LAYER_INC) $< $(BUILD)/libsimdhttp-picohttpparser.a $(BUILD)/libsimdhttp.a \
		$(LDFLAGS_ALL) -o $@ 2> $@.log || { cat $@.log; exit 1; }
endif

# ---- make bench: the layer against picohttpparser -O3 -march=native ----
# One adapter (bench/peer_pico.c) built against the real picohttpparser (the bench's pico-native)
# and against the layer (with the layer, every symbol renamed layer_), in the tables of
# `simdhttp bench` (bench/compat_picohttpparser.c). The layer is built as the library ships.
# bench/compat_ratio.py then prints pico-native's ns / the layer's per request file against the
# issue's target (1.3x). PICO_BENCH_ARGS: e.g. --time 0.5 --runs 41 FILE...
PICO_BENCH = $(BUILD)/bench/compat_picohttpparser
PICO_AS_NATIVE = $(foreach f,parse_request parse_response parse_headers decode_chunked decode_chunked_is_in_data,-Dphr_$(f)=native_phr_$(f))
.PHONY: bench-picohttpparser-layer
ifneq ($(PICO_HAVE_REAL),)
$(BUILD)/bench/pico-layer.o: bench/peer_pico.c $(PICO_LAYER)/picohttpparser.c $(PICO_LAYER)/include/picohttpparser.h \
		tools/bench.h include/simdhttp.h src/internal.h bench/peer_obj.sh | $(BUILD)/bench
	sh bench/peer_obj.sh $@ layer_ "$(CC) -std=c11 $(OPT) -fPIC -Iinclude -Isrc -Itools $(PICO_LAYER_INC) -DPICO_SRC $(PICO_AS_NATIVE)" \
		bench/peer_pico.c $(PICO_LAYER)/picohttpparser.c
$(PICO_BENCH): bench/compat_picohttpparser.c $(BUILD)/bench/peer_pico_native.o $(BUILD)/bench/pico-native.o \
		$(BUILD)/bench/pico-layer.o tools/cli_bench.c tools/bench_rounds.c tools/bench_parsers.c tools/bench_stats.c tools/bench.h tools/bench_rounds.h \
		$(BUILD)/libsimdhttp.a | $(BUILD)/bench
	$(CC) $(CFLAGS_ALL) -Itools $< tools/cli_bench.c tools/bench_rounds.c tools/bench_parsers.c tools/bench_stats.c $(filter %.o,$^) \
		$(BUILD)/libsimdhttp.a $(LDFLAGS_ALL) -lm -pthread -o $@
tests: $(PICO_BENCH)
bench-picohttpparser-layer: $(PICO_BENCH)
	$(PICO_BENCH) --parsers pico-native,pico-layer --json-out $(BUILD)/bench/compat_picohttpparser.json $(PICO_BENCH_ARGS)
	python3 bench/compat_ratio.py $(BUILD)/bench/compat_picohttpparser.json pico-native pico-layer 1.3
else
bench-picohttpparser-layer:
	@echo "note: picohttpparser's source is missing (bench/peers.sh): no picohttpparser layer table"
endif
bench-run: bench-picohttpparser-layer

# What the layer costs a real program (also part of make bench): h2o's requests/s with wrk on
# 127.0.0.1, built on the layer and on its own picohttpparser (tests/compat/h2o.sh --bench:
# interleaved rounds, medians, the ratio). H2O_BENCH_ARGS: ROUNDS SECONDS (default 5 5).
# Without the source, wrk or h2o's build-deps (scripts/deps.sh test): a note.
.PHONY: bench-h2o
bench-run: bench-h2o
bench-h2o: lib
	@BUILD=$(BUILD) sh tests/compat/h2o.sh --bench $(H2O_BENCH_ARGS)
