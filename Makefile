# SPDX-License-Identifier: MIT
# simdhttp: one plain distro-style build (no CPU-specific target flags). Per-ISA scanner units get their own -m
# flags; everything else is compiled for the baseline of the architecture.
#
#   make            library (static + shared), CLI, tests
#   make test       the whole suite: normal build, ASan+UBSan build, MemorySanitizer build,
#                   every SIMD path
#   make bench      the benchmark table on corpus/
#   make install PREFIX=/usr/local   (mk/install.mk: every directory variable, DESTDIR, uninstall)
#
# Component makefiles live in mk/*.mk (one per part: tests, simd, fields, bench, e2e, fuzz,
# install). The libraries built and installed are the list SHIP_LIBS (mk/install.mk).

CC      ?= cc
OPT     ?= -O2
BUILD   ?= build
SAN     ?=
PREFIX  ?= /usr/local
ARCH    := $(shell $(CC) -dumpmachine | cut -d- -f1)

WARN     = -Wall -Wextra -Werror
CFLAGS_ALL = -std=c11 $(OPT) -g $(WARN) -fPIC -fvisibility=hidden -Iinclude -Isrc $(CPPFLAGS) $(CFLAGS)
ifeq ($(SAN),1)
CFLAGS_ALL += -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
LDFLAGS_ALL = -fsanitize=address,undefined
endif
# MemorySanitizer (clang): every read of a byte nobody wrote is a report, with its origin.
ifeq ($(SAN),msan)
CFLAGS_ALL += -fsanitize=memory -fsanitize-memory-track-origins -fno-omit-frame-pointer
LDFLAGS_ALL = -fsanitize=memory
endif
LDFLAGS_ALL += $(LDFLAGS)

LIB_SRCS = src/parser.c src/dispatch.c src/head.c src/chunked.c src/tables.c src/verdict.c src/isa/scalar/isa_scalar.c
ISA_SRCS =
# Per-ISA flags: ISAFLAGS_<basename> (set in mk/simd.mk; e.g. ISAFLAGS_isa_avx2 for src/isa/avx2/isa_avx2.c)
LIB_OBJS = $(patsubst src/%.c,$(BUILD)/obj/%.o,$(LIB_SRCS) $(ISA_SRCS))
LIB_HDRS = include/simdhttp.h $(wildcard src/*.h src/isa/*/*.h)

CLI_SRCS = $(wildcard tools/*.c)
TEST_PROGS =
TEST_SCRIPTS =

.PHONY: all lib cli tests test test-one test-msan-one bench clean deps deps-bench
all: lib cli tests

-include mk/*.mk

LIB_OBJS = $(patsubst src/%.c,$(BUILD)/obj/%.o,$(LIB_SRCS) $(ISA_SRCS))
# Every library of SHIP_LIBS: lib<name>.a, lib<name>.so.VERSION and its two symlinks.
$(foreach l,$(SHIP_LIBS),$(eval $(call ship_lib_rules,$l)))

lib: $(foreach l,$(SHIP_LIBS),$(call ship_files,$l))
cli: $(BUILD)/simdhttp
tests: $(addprefix $(BUILD)/,$(TEST_PROGS))

$(BUILD)/obj/%.o: src/%.c $(LIB_HDRS) | $(BUILD)/obj
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) $(ISAFLAGS_$(notdir $*)) -c $< -o $@

$(BUILD)/obj $(BUILD)/tests $(BUILD)/tools:
	mkdir -p $@

# The CLI links the static library (it runs from the build tree); CLI_LINK=shared links
# libsimdhttp.so instead, as a distribution package does (debian/rules).
CLI_LINK ?= static
CLI_LIB = $(if $(filter shared,$(CLI_LINK)),$(BUILD)/libsimdhttp.so,$(BUILD)/libsimdhttp.a)
$(BUILD)/simdhttp: $(CLI_SRCS) $(wildcard tools/*.h) $(CLI_LIB)
	$(CC) $(CFLAGS_ALL) -Itools $(CLI_SRCS) $(if $(filter shared,$(CLI_LINK)),-L$(BUILD) -lsimdhttp,$(CLI_LIB)) $(LDFLAGS_ALL) $(CLI_LIBS) -lm -o $@

# Test programs: tests/<name>.c + tests/testlib.c, linked against the static library.
$(BUILD)/tests/%: tests/%.c tests/testlib.c tests/testlib.h tests/t_buf.h tests/t_rec.h $(BUILD)/libsimdhttp.a | $(BUILD)/tests
	$(CC) $(CFLAGS_ALL) -Itests $< tests/testlib.c $(BUILD)/libsimdhttp.a $(LDFLAGS_ALL) $(TEST_LIBS_$*) -o $@

# One build's suite (BUILD/SAN select which); `make test` runs it twice.
test-one: all
	BUILD=$(BUILD) sh tests/run.sh $(addprefix $(BUILD)/,$(TEST_PROGS)) $(TEST_SCRIPTS)

deps:
	@sh scripts/deps.sh test
deps-bench:
	@sh scripts/deps.sh bench

# The MemorySanitizer build's suite: the library, the CLI (it lists the SIMD paths) and every
# test program (they link the library and libc only), each program under every path the CPU
# has, and the two fuzz corpus replays. Left out: the scripts whose programs link uninstrumented
# code (Debian's llhttp, http-parser, picohttpparser/libh2o in the compat and bench checks;
# curl, nginx, Chromium in e2e), where MSan reports the peer's own stores as uninitialised,
# and the install/license/aarch64 checks, which do not depend on the build. The normal and
# ASan builds run those.
MSAN_SCRIPTS = tests/fuzz_replay.sh
test-msan-one: lib $(BUILD)/simdhttp $(addprefix $(BUILD)/,$(TEST_PROGS)) $(BUILD)/fuzz_replay $(BUILD)/fuzz_fields_replay
	BUILD=$(BUILD) sh tests/run.sh $(addprefix $(BUILD)/,$(TEST_PROGS)) $(MSAN_SCRIPTS)

# A build that fails to compile counts as one failure; the last line is the grand total.
test: deps
	@t=$$(mktemp); \
	$(MAKE) --no-print-directory test-one BUILD=build TOTALS=$$t || echo "0 1" >> $$t; \
	$(MAKE) --no-print-directory test-one BUILD=build/asan SAN=1 CC=clang TOTALS=$$t || echo "0 1" >> $$t; \
	$(MAKE) --no-print-directory test-msan-one BUILD=build/msan SAN=msan CC=clang TOTALS=$$t || echo "0 1" >> $$t; \
	sh tests/total.sh $$t; rc=$$?; rm -f $$t; exit $$rc

clean:
	rm -rf build
