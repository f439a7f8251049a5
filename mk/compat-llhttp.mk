# SPDX-License-Identifier: MIT
# The llhttp 9.x API over simdhttp (issue 11; docs/compat.md, include file compat/llhttp/include/llhttp.h).
#   $(BUILD)/libsimdhttp-llhttp.a    the layer alone: link it with libsimdhttp.a
#   $(BUILD)/libsimdhttp-llhttp.so   the layer with the core inside, soname libsimdhttp-llhttp.so.0,
#                                    exporting llhttp's API only (compat/llhttp/llhttp.map)
# Tests (make test): tests/compat/llhttp.sh runs the layer's unit test (built against the layer
# and against Debian's llhttp 8.1), llhttp's README usage example (extracted from Debian's
# node-llhttp at test time) against both, and tests/compat/diff.py on the events program built
# against both. The real llhttp is compiled here from /usr/share/llhttp (node-llhttp), never
# committed; without it the real builds are stubs that say so (a failure in CI, a skip elsewhere).

LL_DIR = compat/llhttp
LL_CFLAGS = -I$(LL_DIR)/include
LL_OBJ = $(BUILD)/obj/compat/llhttp.o
LL_LIBS = $(BUILD)/libsimdhttp-llhttp.a $(BUILD)/libsimdhttp-llhttp.so

# Built, installed and packaged like the main library (mk/install.mk: SHIP_LIBS): the .a is the
# layer alone (link it with libsimdhttp.a), the .so carries the core inside (soname
# libsimdhttp-llhttp.so.0); header in $(INCLUDEDIR)/simdhttp-llhttp/, pkg-config simdhttp-llhttp,
# CMake simdhttp::llhttp, Debian libsimdhttp-llhttp0 + libsimdhttp-llhttp-dev.
SHIP_LIBS += llhttp
SHIP_llhttp_NAME = simdhttp-llhttp
SHIP_llhttp_OBJS = $(LL_OBJ)
SHIP_llhttp_SO_OBJS = $(LIB_OBJS)
SHIP_llhttp_STATIC_DEPS = simdhttp
SHIP_llhttp_HDRS = $(LL_DIR)/include/llhttp.h
SHIP_llhttp_MAP = $(LL_DIR)/llhttp.map
SHIP_llhttp_DESC = llhttp 9.x API on the simdhttp parser

LL_REAL_SRC = /usr/share/llhttp
LL_REAL_INC = /usr/share/include/llhttp
LL_REAL_OBJS = $(BUILD)/compat/real-llhttp/llhttp.o $(BUILD)/compat/real-llhttp/api.o $(BUILD)/compat/real-llhttp/http.o

.PHONY: compat-llhttp
compat-llhttp: $(LL_LIBS)

$(LL_OBJ): $(LL_DIR)/llhttp.c $(LL_DIR)/include/llhttp.h include/simdhttp.h src/method_names.h src/internal.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) $(LL_CFLAGS) -fvisibility=default -c $< -o $@

# Real llhttp, from Debian's generated C (warnings are its own: -w).
$(BUILD)/compat/real-llhttp/%.o: $(LL_REAL_SRC)/%.c
	@mkdir -p $(dir $@)
	$(CC) $(filter-out $(WARN),$(CFLAGS_ALL)) -w -I$(LL_REAL_INC) -c $< -o $@

# Programs written against llhttp's API only, built against the layer and against the real one.
LL_TESTS = $(BUILD)/compat/llhttp_events_layer $(BUILD)/compat/llhttp_events_real \
           $(BUILD)/compat/test_llhttp_layer $(BUILD)/compat/test_llhttp_real \
           $(BUILD)/compat/llhttp_readme_layer $(BUILD)/compat/llhttp_readme_real
tests: $(LL_TESTS)
$(BUILD)/compat/llhttp_events_layer: tests/compat/llhttp_events.c $(BUILD)/libsimdhttp-llhttp.a $(BUILD)/libsimdhttp.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -DEVENTS_LLHTTP8_SWITCHES $(LL_CFLAGS) $< $(BUILD)/libsimdhttp-llhttp.a $(BUILD)/libsimdhttp.a $(LDFLAGS_ALL) -o $@
$(BUILD)/compat/test_llhttp_layer: tests/compat/test_llhttp.c tests/testlib.c $(BUILD)/libsimdhttp-llhttp.a $(BUILD)/libsimdhttp.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) $(LL_CFLAGS) -Itests $< tests/testlib.c $(BUILD)/libsimdhttp-llhttp.a $(BUILD)/libsimdhttp.a $(LDFLAGS_ALL) -o $@
$(BUILD)/compat/llhttp_readme_layer: tests/compat/llhttp_readme.c $(BUILD)/compat/llhttp_readme.inc $(BUILD)/libsimdhttp-llhttp.a $(BUILD)/libsimdhttp.a
	$(CC) $(CFLAGS_ALL) $(LL_CFLAGS) -I$(BUILD)/compat $< $(BUILD)/libsimdhttp-llhttp.a $(BUILD)/libsimdhttp.a $(LDFLAGS_ALL) -o $@
# The README's usage example: the C block under "## Usage" of Debian's copy.
LL_README = /usr/share/doc/node-llhttp/README.md.gz
$(BUILD)/compat/llhttp_readme.inc:
	@mkdir -p $(dir $@)
	if [ -f $(LL_README) ]; then zcat $(LL_README) | sed -n '/^## Usage/,/^## /p' | sed -n '/^```[Cc]/,/^```/p' | sed '1d;$$d' > $@; \
	else echo 'llhttp_errno_t err = HPE_OK; completed = -1; (void)handle_on_message_complete; /* no README (node-llhttp missing, or docs excluded) */' > $@; fi
ifneq ($(wildcard $(LL_REAL_SRC)/llhttp.c),)
$(BUILD)/compat/llhttp_readme_real: tests/compat/llhttp_readme.c $(BUILD)/compat/llhttp_readme.inc $(LL_REAL_OBJS)
	$(CC) $(CFLAGS_ALL) -I$(LL_REAL_INC) -I$(BUILD)/compat $< $(LL_REAL_OBJS) $(LDFLAGS_ALL) -o $@
$(BUILD)/compat/llhttp_events_real: tests/compat/llhttp_events.c $(LL_REAL_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -I$(LL_REAL_INC) $< $(LL_REAL_OBJS) $(LDFLAGS_ALL) -o $@
$(BUILD)/compat/test_llhttp_real: tests/compat/test_llhttp.c tests/testlib.c $(LL_REAL_OBJS) $(BUILD)/libsimdhttp.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -I$(LL_REAL_INC) -Itests $< tests/testlib.c $(LL_REAL_OBJS) $(BUILD)/libsimdhttp.a $(LDFLAGS_ALL) -o $@
else
$(BUILD)/compat/llhttp_events_real $(BUILD)/compat/test_llhttp_real $(BUILD)/compat/llhttp_readme_real:
	@mkdir -p $(dir $@)
	printf '#!/bin/sh\necho "node-llhttp is not installed" >&2\nexit 127\n' > $@; chmod +x $@
endif

TEST_SCRIPTS += tests/compat/llhttp.sh

# A real program unchanged: Debian's python-aiohttp 3.8.4 source, its C parser built against
# libsimdhttp-llhttp.so with none of its vendored llhttp, and its own parser and 127.0.0.1
# client/server tests (tests/compat/aiohttp.sh, tests/compat/aiohttp.known; normal build only).
TEST_SCRIPTS += tests/compat/aiohttp.sh

# make bench: the layer against llhttp 8.1 -O3, the same program in one process
# (bench/compat_llhttp.c; both sides' symbols renamed by bench/peer_obj.sh). The layer is built
# as the library ships (the project's flags), llhttp at its best (-O3).
#   make bench-llhttp-layer             the table (also part of make bench)
#   make bench-llhttp-layer-callgrind   instructions per message, each side (valgrind)
LL_BENCH = $(BUILD)/bench/compat_llhttp
.PHONY: bench-llhttp-layer bench-llhttp-layer-callgrind
bench-run: bench-llhttp-layer
ifneq ($(wildcard $(LL_REAL_SRC)/llhttp.c),)
bench-llhttp-layer: $(LL_BENCH)
	$(LL_BENCH) corpus/*.http
bench-llhttp-layer-callgrind: $(LL_BENCH)
	sh bench/compat_llhttp_callgrind.sh $(LL_BENCH) corpus/*.http
else
bench-llhttp-layer bench-llhttp-layer-callgrind:
	@echo "note: node-llhttp is not installed: no llhttp layer table"
endif
$(BUILD)/bench/compat-llhttp-real.o: bench/peer_obj.sh | $(BUILD)/bench
	sh bench/peer_obj.sh $@ real_ "$(BENCH_PEER_CC) -I$(LL_REAL_INC)" $(addprefix $(LL_REAL_SRC)/,llhttp.c api.c http.c)
$(BUILD)/bench/compat-llhttp-layer.o: $(LL_DIR)/llhttp.c $(LL_DIR)/include/llhttp.h include/simdhttp.h src/method_names.h src/internal.h bench/peer_obj.sh | $(BUILD)/bench
	sh bench/peer_obj.sh $@ layer_ "$(CC) $(CFLAGS_ALL) $(LL_CFLAGS)" $<
$(BUILD)/bench/compat_llhttp_%.o: bench/compat_llhttp.c tools/bench.h $(LL_DIR)/include/llhttp.h include/simdhttp.h | $(BUILD)/bench
	$(CC) $(CFLAGS_ALL) -Itools $(if $(filter real,$*),-I$(LL_REAL_INC),$(LL_CFLAGS)) -DSIDE=$* -c $< -o $@
$(LL_BENCH): bench/compat_llhttp.c tools/bench.h $(BUILD)/bench/compat_llhttp_real.o $(BUILD)/bench/compat_llhttp_layer.o \
		$(BUILD)/bench/compat-llhttp-real.o $(BUILD)/bench/compat-llhttp-layer.o $(BUILD)/libsimdhttp.a
	$(CC) $(CFLAGS_ALL) -Itools -DSIDE_MAIN $< $(filter %.o,$^) $(BUILD)/libsimdhttp.a $(LDFLAGS_ALL) -o $@

# The differential fuzzer (fuzz/fuzz_llhttp.c): the events program twice in one process, real
# llhttp's and the layer's symbols renamed (bench/peer_obj.sh + a macro header made from nm).
#   $(BUILD)/compat/fuzz_llhttp_replay   replay and blind mutation (fuzz/replay_main.c); run by
#                                        tests/compat/llhttp.sh in make test
#   make fuzz-llhttp [FUZZ_TIME=300] [FUZZ_JOBS=n]  libFuzzer (clang, ASan+UBSan) via fuzz/run.sh,
#                                        new units in build/fuzz/llhttp-corpus; differing
#                                        inputs go to build/fuzz/llhttp-diverge, then diff.py
LLF = $(BUILD)/compat/fuzz
LLF_OBJS = $(LLF)/events-real.o $(LLF)/events-layer.o $(LLF)/llhttp-real.o $(LLF)/llhttp-layer.o
$(LLF)/llhttp-real.o: bench/peer_obj.sh
	@mkdir -p $(dir $@)
	sh bench/peer_obj.sh $@ real_ "$(CC) $(filter-out $(WARN),$(CFLAGS_ALL)) -I$(LL_REAL_INC)" $(addprefix $(LL_REAL_SRC)/,llhttp.c api.c http.c)
$(LLF)/llhttp-layer.o: $(LL_DIR)/llhttp.c $(LL_DIR)/include/llhttp.h include/simdhttp.h src/method_names.h src/internal.h bench/peer_obj.sh
	@mkdir -p $(dir $@)
	sh bench/peer_obj.sh $@ layer_ "$(CC) $(CFLAGS_ALL) $(LL_CFLAGS)" $<
$(LLF)/%-names.h: $(LLF)/llhttp-%.o
	nm -g --defined-only $< | awk '$$3 ~ /^$*_/ { n = substr($$3, length("$*_") + 1); print "#define " n " " $$3 }' > $@
$(LLF)/events-%.o: tests/compat/llhttp_events.c tests/compat/events.h $(LLF)/%-names.h $(LL_DIR)/include/llhttp.h
	$(CC) $(CFLAGS_ALL) -Wno-unused-function -DEVENTS_NO_MAIN -DEVENTS_LLHTTP8_SWITCHES -DEVENTS_LOG_FN=$*_llhttp_events_log \
	    -include $(LLF)/$*-names.h $(if $(filter real,$*),-I$(LL_REAL_INC),$(LL_CFLAGS)) -Itests/compat -c $< -o $@
ifneq ($(wildcard $(LL_REAL_SRC)/llhttp.c),)
tests: $(BUILD)/compat/fuzz_llhttp_replay
$(BUILD)/compat/fuzz_llhttp_replay: fuzz/fuzz_llhttp.c fuzz/replay_main.c $(LLF_OBJS) $(BUILD)/libsimdhttp.a
	$(CC) $(CFLAGS_ALL) fuzz/fuzz_llhttp.c fuzz/replay_main.c $(LLF_OBJS) $(BUILD)/libsimdhttp.a $(LDFLAGS_ALL) -o $@
endif
$(BUILD)/fuzz_llhttp: fuzz/fuzz_llhttp.c $(LLF_OBJS) $(BUILD)/libsimdhttp.a
	$(CC) $(CFLAGS_ALL) -fsanitize=fuzzer fuzz/fuzz_llhttp.c $(LLF_OBJS) $(BUILD)/libsimdhttp.a $(LDFLAGS_ALL) -fsanitize=fuzzer -o $@
.PHONY: fuzz-llhttp
# the two events programs diff.py runs at the end (built by make test too, but a fresh clone
# that runs only this target has neither)
fuzz-llhttp: $(BUILD)/compat/llhttp_events_real $(BUILD)/compat/llhttp_events_layer
	$(MAKE) --no-print-directory BUILD=$(FUZZ_DIR) SAN=1 CC=clang CFLAGS=-fsanitize=fuzzer-no-link $(FUZZ_DIR)/fuzz_llhttp
	mkdir -p $(FUZZ_DIR)/llhttp-diverge
	LLHTTP_FUZZ_DIVERGE=$(abspath $(FUZZ_DIR)/llhttp-diverge) FUZZ_CORPUS=$(FUZZ_DIR)/llhttp-corpus \
	    sh fuzz/run.sh $(FUZZ_DIR)/fuzz_llhttp $(FUZZ_TIME) $(FUZZ_JOBS)
	python3 tests/compat/diff.py --real $(BUILD)/compat/llhttp_events_real --layer $(BUILD)/compat/llhttp_events_layer \
	    --known tests/compat/llhttp.known --fuzz-dir $(FUZZ_DIR)/llhttp-diverge --splits 16
.SECONDARY: $(LLF)/real-names.h $(LLF)/layer-names.h

# What the layer costs a real program (also part of make bench): aiohttp 3.8.4's C
# HttpRequestParser, built from Debian's source on the layer and on its vendored llhttp 6.0.6
# (tests/compat/aiohttp.sh --build), fed the corpus requests; interleaved rounds, medians, the
# ratio (bench/aiohttp_parser.py). Without the source or its Python packages: a note.
AIOHTTP_BENCH_FILES = corpus/get-4h.http corpus/get-32h.http corpus/browser-get.http corpus/seed-simple.http \
                      corpus/pipelined-16.http corpus/post-10k.http
.PHONY: bench-aiohttp
bench-run: bench-aiohttp
bench-aiohttp: $(LL_LIBS)
	@if l=$$(sh tests/compat/aiohttp.sh --build layer 2>/dev/null | tail -n 1) && [ -d "$$l" ] && \
	    v=$$(sh tests/compat/aiohttp.sh --build vendored 2>/dev/null | tail -n 1) && [ -d "$$v" ]; then \
	    /usr/bin/python3 bench/aiohttp_parser.py --layer "$$l" --vendored "$$v" $(AIOHTTP_BENCH_FILES); \
	else echo "bench-aiohttp: aiohttp's source or its Python packages are missing (scripts/deps.sh test; apt-get source python-aiohttp): no table"; fi
