# SPDX-License-Identifier: MIT
# SIMD scanner paths (owner: the SIMD part). Each ISA's copy of the parser core is its own
# translation unit with its own -m flags; everything else is built for the architecture's
# baseline. dispatch.c picks one path per process (CPUID + XGETBV). No -march here: a
# distribution build must run everywhere and still use the best path.
ifeq ($(ARCH),x86_64)
ISA_SRCS += $(foreach i,sse2 sse42 avx2 avx512,src/isa/$i/isa_$i.c)
ISAFLAGS_isa_sse2 = -msse2
ISAFLAGS_isa_sse42 = -msse4.2
ISAFLAGS_isa_avx2 = -mavx2 -mbmi -mbmi2 # every AVX2 CPU has BMI1/2 (dispatch.c checks them too)
ISAFLAGS_isa_avx512 = -mavx2 -mbmi -mbmi2 # + target attributes on its AVX-512 code (src/isa/avx512/)
endif
ifeq ($(ARCH),aarch64)
ISA_SRCS += src/isa/neon/isa_neon.c
endif

TEST_PROGS += tests/test_scan tests/test_guard tests/test_stage1

# The test programs of one build, without running them: tests/aarch64.sh cross-builds them
# (CC=aarch64-linux-gnu-gcc) and runs them under qemu-aarch64. The list goes to $(BUILD)/test-progs.
.PHONY: test-progs
test-progs: lib
	@$(MAKE) --no-print-directory $(addprefix $(BUILD)/,$(TEST_PROGS)) # all mk/*.mk read by now
	@echo $(TEST_PROGS) > $(BUILD)/test-progs

TEST_SCRIPTS += tests/aarch64.sh

# ---- measuring (docs/simd.md) ----
#   make scan-bench            ns/message of every path per corpus file, ratio to scalar
#   make scan-bench-callgrind  instructions per message, scalar vs AVX2 (valgrind)
#   make bench-native          the dispatched build vs a -march=native build with the path fixed
#                              at compile time (the only place -march appears; opt-in)
SCAN_BENCH_ARGS ?=
# the path bench-native fixes at compile time: this machine's default
BENCH_STATIC_ISA ?= SIMDHTTP_ISA_$(shell $(BUILD)/simdhttp --version 2>/dev/null | tr -d '()' | awk '{print toupper($$NF)}')
$(BUILD)/scan_bench: bench/scan_bench.c $(BUILD)/libsimdhttp.a
	$(CC) $(CFLAGS_ALL) $< $(BUILD)/libsimdhttp.a $(LDFLAGS_ALL) -o $@

.PHONY: scan-bench scan-bench-callgrind bench-native
scan-bench: $(BUILD)/scan_bench
	$(BUILD)/scan_bench $(SCAN_BENCH_ARGS)

scan-bench-callgrind: $(BUILD)/scan_bench
	sh bench/scan_callgrind.sh $(BUILD)/scan_bench

# 1. the same build with the path fixed at compile time (what run-time dispatch costs, alone)
# 2. the whole library built -march=native with the path fixed (what peers' #ifdef builds get)
bench-native: $(BUILD)/scan_bench $(BUILD)/simdhttp
	$(MAKE) --no-print-directory BUILD=build/static CFLAGS="-DSIMDHTTP_STATIC_ISA=$(BENCH_STATIC_ISA)" build/static/scan_bench
	$(MAKE) --no-print-directory BUILD=build/native CFLAGS="-march=native -DSIMDHTTP_NATIVE" build/native/scan_bench
	@echo "== A: dispatched ($$($(BUILD)/simdhttp --version 2>/dev/null || true)), B: same flags, path fixed at compile time"
	sh bench/scan_ab.sh $(BUILD)/scan_bench best build/static/scan_bench best 9
	@echo "== A: dispatched, B: -march=native, path fixed at compile time"
	sh bench/scan_ab.sh $(BUILD)/scan_bench best build/native/scan_bench best 9

# SSE4.2 string instructions vs compare+movemask, pshufb vs range compares (docs/simd.md)
$(BUILD)/scan_micro: bench/scan_micro.c $(wildcard src/isa/*/scan_*.h) $(BUILD)/libsimdhttp.a
	$(CC) $(CFLAGS_ALL) -msse4.2 $< $(BUILD)/libsimdhttp.a $(LDFLAGS_ALL) -o $@
.PHONY: scan-micro
scan-micro: $(BUILD)/scan_micro
	$(BUILD)/scan_micro
