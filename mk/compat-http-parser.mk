# SPDX-License-Identifier: MIT
# The http-parser 2.9 API over simdhttp (issue 12; docs/compat.md, /work/coord/COMPAT.md).
#   $(BUILD)/libsimdhttp-http-parser.a    the layer alone: link it with libsimdhttp.a
#   $(BUILD)/libsimdhttp-http-parser.so   the layer with the core inside, soname
#                                         libsimdhttp-http-parser.so.0, exporting http-parser's
#                                         API only (compat/http_parser/http_parser.map)
# Tests (make test): tests/compat/http_parser.sh runs tests/compat/diff.py on the events program
# built against Debian's libhttp-parser and against the layer, and the layer's unit test.

HP_DIR = compat/http_parser
HP_CFLAGS = -I$(HP_DIR)/include
HP_OBJ = $(BUILD)/obj/compat/http_parser.o
HP_LIBS = $(BUILD)/libsimdhttp-http-parser.a $(BUILD)/libsimdhttp-http-parser.so

# Built, installed and packaged like the main library (mk/install.mk: SHIP_LIBS): the .a is the
# layer alone (link it with libsimdhttp.a), the .so carries the core inside (soname
# libsimdhttp-http-parser.so.0); header in $(INCLUDEDIR)/simdhttp-http-parser/, pkg-config simdhttp-http-parser,
# CMake simdhttp::http_parser, Debian libsimdhttp-http-parser0 + libsimdhttp-http-parser-dev.
SHIP_LIBS += http_parser
SHIP_http_parser_NAME = simdhttp-http-parser
SHIP_http_parser_OBJS = $(HP_OBJ)
SHIP_http_parser_SO_OBJS = $(LIB_OBJS)
SHIP_http_parser_STATIC_DEPS = simdhttp
SHIP_http_parser_HDRS = $(HP_DIR)/include/http_parser.h
SHIP_http_parser_MAP = $(HP_DIR)/http_parser.map
SHIP_http_parser_DESC = http-parser 2.9 API on the simdhttp parser


.PHONY: compat-http-parser
compat-http-parser: $(HP_LIBS)

$(HP_OBJ): $(HP_DIR)/http_parser.c $(HP_DIR)/include/http_parser.h include/simdhttp.h src/method_names.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) $(HP_CFLAGS) -fvisibility=default -c $< -o $@

# The events program (written against http-parser's API only), twice.
HP_EVENTS = $(BUILD)/compat/http_parser_events_layer $(BUILD)/compat/http_parser_events_real
tests: $(HP_EVENTS) $(BUILD)/compat/test_http_parser
$(BUILD)/compat/http_parser_events_layer: tests/compat/http_parser_events.c tests/compat/events.h $(BUILD)/libsimdhttp-http-parser.a $(BUILD)/libsimdhttp.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) $(HP_CFLAGS) $< $(BUILD)/libsimdhttp-http-parser.a $(BUILD)/libsimdhttp.a $(LDFLAGS_ALL) -o $@
# Real http-parser (Debian libhttp-parser-dev); without it a stub that says so (the test fails
# in CI, skips elsewhere).
$(BUILD)/compat/http_parser_events_real: tests/compat/http_parser_events.c tests/compat/events.h
	@mkdir -p $(dir $@)
	@if [ -f /usr/include/http_parser.h ]; then \
	    echo "$(CC) ... $< -lhttp_parser -o $@"; \
	    $(CC) $(CFLAGS_ALL) $< $(LDFLAGS_ALL) -lhttp_parser -o $@; \
	else printf '#!/bin/sh\necho "libhttp-parser-dev is not installed" >&2\nexit 127\n' > $@; chmod +x $@; fi
# http_parser_parse_url on tests/compat/urls.txt, twice
tests: $(BUILD)/compat/http_parser_url_layer $(BUILD)/compat/http_parser_url_real
$(BUILD)/compat/http_parser_url_layer: tests/compat/http_parser_url.c $(BUILD)/libsimdhttp-http-parser.a $(BUILD)/libsimdhttp.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) $(HP_CFLAGS) $< $(BUILD)/libsimdhttp-http-parser.a $(BUILD)/libsimdhttp.a $(LDFLAGS_ALL) -o $@
$(BUILD)/compat/http_parser_url_real: tests/compat/http_parser_url.c
	@mkdir -p $(dir $@)
	@if [ -f /usr/include/http_parser.h ]; then \
	    echo "$(CC) ... $< -lhttp_parser -o $@"; \
	    $(CC) $(CFLAGS_ALL) $< $(LDFLAGS_ALL) -lhttp_parser -o $@; \
	else printf '#!/bin/sh\necho "libhttp-parser-dev is not installed" >&2\nexit 127\n' > $@; chmod +x $@; fi
$(BUILD)/compat/test_http_parser: tests/compat/test_http_parser.c tests/testlib.c $(BUILD)/libsimdhttp-http-parser.a $(BUILD)/libsimdhttp.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) $(HP_CFLAGS) -Itests $< tests/testlib.c $(BUILD)/libsimdhttp-http-parser.a $(BUILD)/libsimdhttp.a $(LDFLAGS_ALL) -o $@

TEST_SCRIPTS += tests/compat/http_parser.sh

# A real program unchanged: Debian's python-httptools source built against the layer, its own
# test suite, and uvicorn on it driven by curl, wrk, http.client and Chromium (normal build only).
TEST_SCRIPTS += tests/compat/httptools.sh

# uvicorn's requests/s with wrk on httptools built against the real http-parser and against the
# layer: same source, flags and app; interleaved rounds; medians (docs/compat.md).
.PHONY: bench-uvicorn
bench-uvicorn: lib
	sh tests/compat/httptools.sh --build real >/dev/null
	sh tests/compat/httptools.sh --build layer >/dev/null
	/usr/bin/python3 tests/compat/uvicorn_e2e.py --bench $(BUILD)/peers/httptools-real $(BUILD)/peers/httptools-layer

# make bench: the layer against the library it replaces (bench/compat_http_parser.c): one
# adapter (bench/peer_http_parser.c) built against Debian's libhttp_parser and against the
# layer (renamed layer_*), in the tables of `simdhttp bench`.
HP_BENCH = $(BUILD)/bench/compat_http_parser
$(BUILD)/bench/hp-layer.o: bench/peer_http_parser.c $(HP_DIR)/http_parser.c $(HP_DIR)/include/http_parser.h src/method_names.h tools/bench.h bench/peer_obj.sh | $(BUILD)/bench
	sh bench/peer_obj.sh $@ layer_ "$(CC) -std=c11 $(OPT) -fPIC -Iinclude -Isrc -Itools -I$(HP_DIR)/include" bench/peer_http_parser.c $(HP_DIR)/http_parser.c
$(HP_BENCH): bench/compat_http_parser.c $(BUILD)/bench/peer_http_parser.o $(BUILD)/bench/hp-layer.o tools/cli_bench.c tools/bench_rounds.c tools/bench_parsers.c tools/bench_stats.c tools/bench.h tools/bench_rounds.h $(BUILD)/libsimdhttp.a | $(BUILD)/bench
	$(CC) $(CFLAGS_ALL) -Itools $< tools/cli_bench.c tools/bench_rounds.c tools/bench_parsers.c tools/bench_stats.c $(BUILD)/bench/peer_http_parser.o \
	    $(BUILD)/bench/hp-layer.o $(BUILD)/libsimdhttp.a $(LDFLAGS_ALL) $(BENCH_HTTP_PARSER_LIB) -lm -pthread -o $@
.PHONY: bench-http-parser-layer
# (a new make after deps.sh: it finds the http-parser that deps.sh may just have installed)
bench-http-parser-layer:
	@sh scripts/deps.sh bench
	@$(MAKE) --no-print-directory bench-http-parser-layer-run
.PHONY: bench-http-parser-layer-run
ifneq ($(BENCH_HTTP_PARSER_LIB),)
bench-http-parser-layer-run: $(HP_BENCH)
	$(HP_BENCH) --parsers http-parser,hp-layer,simdhttp $(HP_BENCH_ARGS)
else
bench-http-parser-layer-run:
	@echo "note: libhttp-parser-dev is not installed: no http-parser layer table"
endif
bench: bench-http-parser-layer

# The differential fuzzer (fuzz/fuzz_http_parser.c): Debian's libhttp_parser.a with every
# symbol renamed real_* beside the layer in one program; fuzz/http_parser_side.c built against
# each header. make test replays fuzz/corpus through it (tests/compat/http_parser.sh);
# make fuzz-http-parser [FUZZ_TIME=300] runs libFuzzer.
HP_REAL_A := $(shell $(CC) -print-file-name=libhttp_parser.a)
ifneq ($(and $(filter /%,$(HP_REAL_A)),$(wildcard /usr/include/http_parser.h)),)
tests: $(BUILD)/compat/fuzz_http_parser_replay
$(BUILD)/compat/hp-real-renamed.o: $(HP_REAL_A)
	@mkdir -p $(@D)
	t=$$(mktemp -d) && (cd $$t && ar x $(HP_REAL_A)) && ld -r -o $$t/all.o $$t/*.o && \
	nm -g --defined-only $$t/all.o | awk 'NF == 3 { print $$3, "real_" $$3 }' > $$t/syms && \
	objcopy --redefine-syms=$$t/syms $$t/all.o $@ && rm -rf $$t
$(BUILD)/compat/hp_side_real.o: fuzz/http_parser_side.c fuzz/http_parser_side.h fuzz/http_parser_real.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) -Ifuzz -include fuzz/http_parser_real.h -c $< -o $@
$(BUILD)/compat/hp_side_layer.o: fuzz/http_parser_side.c fuzz/http_parser_side.h $(HP_DIR)/include/http_parser.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) -Ifuzz $(HP_CFLAGS) -DSIDE_RUN=layer_side_run -c $< -o $@
HP_FUZZ_OBJS = $(BUILD)/compat/hp_side_real.o $(BUILD)/compat/hp_side_layer.o $(BUILD)/compat/hp-real-renamed.o \
	$(BUILD)/libsimdhttp-http-parser.a $(BUILD)/libsimdhttp.a
$(BUILD)/compat/fuzz_http_parser_replay: fuzz/fuzz_http_parser.c fuzz/replay_main.c $(HP_FUZZ_OBJS)
	$(CC) $(CFLAGS_ALL) -Ifuzz fuzz/fuzz_http_parser.c fuzz/replay_main.c $(HP_FUZZ_OBJS) $(LDFLAGS_ALL) -o $@
$(BUILD)/compat/fuzz_http_parser: fuzz/fuzz_http_parser.c $(HP_FUZZ_OBJS)
	$(CC) $(CFLAGS_ALL) -Ifuzz -fsanitize=fuzzer fuzz/fuzz_http_parser.c $(HP_FUZZ_OBJS) $(LDFLAGS_ALL) -fsanitize=fuzzer -o $@
.PHONY: fuzz-http-parser
fuzz-http-parser:
	$(MAKE) --no-print-directory BUILD=$(FUZZ_DIR) SAN=1 CC=clang CFLAGS=-fsanitize=fuzzer-no-link $(FUZZ_DIR)/compat/fuzz_http_parser
	sh fuzz/run.sh $(FUZZ_DIR)/compat/fuzz_http_parser $(FUZZ_TIME) $(FUZZ_JOBS)
endif
