# SPDX-License-Identifier: MIT
# Differential fuzzing (owner: the fuzz part). docs/fuzzing.md says what it checks and what it found.
#   make fuzz [FUZZ_TIME=300] [FUZZ_JOBS=n]  libFuzzer (clang), FUZZ_JOBS parallel jobs of
#                                            FUZZ_TIME seconds each; new inputs in build/fuzz/corpus
#   make fuzz-replay                         replay fuzz/corpus/ through the plain-build driver
#                                            (build/fuzz_replay -t SECONDS adds blind mutation)
#   make fuzz-bin                            only build build/fuzz/fuzz_diff
#   make fuzz-neon [FUZZ_TIME=300]           the NEON path: fuzz_replay cross-built for aarch64
#                                            under qemu, corpus replay then FUZZ_TIME seconds of
#                                            blind mutation (fuzz/neon.sh)
#   make fuzz-fields [FUZZ_TIME=300] [FUZZ_JOBS=n]  the second harness, fuzz/fuzz_fields.c: the
#                                            cookie iterator, simdhttp_fields and the lookups,
#                                            parse_fields, the chunked decoder; libFuzzer from
#                                            fuzz/corpus-fields, new units in build/fuzz/fields-corpus
#   make fuzz-fields-bin, make fuzz-fields-replay   its binary; its corpus through the plain build
# make test runs tests/fuzz_replay.sh: the replay in every build; blind mutation in the plain
# build (x86-64 paths) and in its aarch64 cross build under qemu (NEON); a short fresh libFuzzer
# run (FUZZ_TEST_TIME seconds, default 25) in the sanitizer build; the same script replays
# fuzz/corpus-fields through fuzz_fields_replay in every build, then a few seconds of blind
# mutation (not under MSan), natively and on NEON.

FUZZ_TIME ?= 300
FUZZ_JOBS ?= $(shell nproc 2>/dev/null || echo 1)
FUZZ_DIR = build/fuzz

TEST_SCRIPTS += tests/fuzz_replay.sh
tests: $(BUILD)/fuzz_replay $(BUILD)/fuzz_fields_replay

# The harness with a main() that replays files: any compiler, any build (fuzz/replay_main.c).
$(BUILD)/fuzz_replay: fuzz/fuzz_diff.c fuzz/fuzz_common.h tests/t_buf.h tests/t_rec.h fuzz/replay_main.c include/simdhttp.h $(BUILD)/libsimdhttp.a
	$(CC) $(CFLAGS_ALL) fuzz/fuzz_diff.c fuzz/replay_main.c $(BUILD)/libsimdhttp.a $(LDFLAGS_ALL) -o $@

# The libFuzzer binary, built by fuzz-bin in its own tree (library with coverage + ASan/UBSan).
$(BUILD)/fuzz_diff: fuzz/fuzz_diff.c fuzz/fuzz_common.h tests/t_buf.h tests/t_rec.h include/simdhttp.h $(BUILD)/libsimdhttp.a
	$(CC) $(CFLAGS_ALL) -fsanitize=fuzzer fuzz/fuzz_diff.c $(BUILD)/libsimdhttp.a $(LDFLAGS_ALL) -fsanitize=fuzzer -o $@

# The same two for fuzz/fuzz_fields.c.
$(BUILD)/fuzz_fields_replay: fuzz/fuzz_fields.c fuzz/fuzz_common.h tests/t_buf.h fuzz/replay_main.c include/simdhttp.h $(BUILD)/libsimdhttp.a
	$(CC) $(CFLAGS_ALL) fuzz/fuzz_fields.c fuzz/replay_main.c $(BUILD)/libsimdhttp.a $(LDFLAGS_ALL) -o $@
$(BUILD)/fuzz_fields: fuzz/fuzz_fields.c fuzz/fuzz_common.h tests/t_buf.h include/simdhttp.h $(BUILD)/libsimdhttp.a
	$(CC) $(CFLAGS_ALL) -fsanitize=fuzzer fuzz/fuzz_fields.c $(BUILD)/libsimdhttp.a $(LDFLAGS_ALL) -fsanitize=fuzzer -o $@

.PHONY: fuzz fuzz-bin fuzz-replay fuzz-neon fuzz-fields fuzz-fields-bin fuzz-fields-replay
fuzz-bin:
	$(MAKE) --no-print-directory BUILD=$(FUZZ_DIR) SAN=1 CC=clang CFLAGS=-fsanitize=fuzzer-no-link $(FUZZ_DIR)/fuzz_diff

fuzz: fuzz-bin
	sh fuzz/run.sh $(FUZZ_DIR)/fuzz_diff $(FUZZ_TIME) $(FUZZ_JOBS)

fuzz-replay: $(BUILD)/fuzz_replay
	./$(BUILD)/fuzz_replay fuzz/corpus

fuzz-neon:
	sh fuzz/neon.sh $(FUZZ_TIME)

fuzz-fields-bin:
	$(MAKE) --no-print-directory BUILD=$(FUZZ_DIR) SAN=1 CC=clang CFLAGS=-fsanitize=fuzzer-no-link $(FUZZ_DIR)/fuzz_fields

fuzz-fields: fuzz-fields-bin
	FUZZ_CORPUS=$(FUZZ_DIR)/fields-corpus FUZZ_SEEDS=fuzz/corpus-fields FUZZ_DICT=fuzz/fields.dict \
	    sh fuzz/run.sh $(FUZZ_DIR)/fuzz_fields $(FUZZ_TIME) $(FUZZ_JOBS)

fuzz-fields-replay: $(BUILD)/fuzz_fields_replay
	./$(BUILD)/fuzz_fields_replay fuzz/corpus-fields

# A change to the core against another commit's core (fuzz/fuzz_core_vs.c, fuzz/vs.sh): the
# streaming log in pieces with pauses, the head API's, the whole stream's error and reason.
#   make fuzz-vs [FUZZ_VS_REV=HEAD] [FUZZ_VS_TIME=1200] [FUZZ_VS_JOBS=1]
FUZZ_VS_REV ?= HEAD
.PHONY: fuzz-vs
fuzz-vs:
	sh fuzz/vs.sh $(FUZZ_VS_REV) $(or $(FUZZ_VS_TIME),1200) $(or $(FUZZ_VS_JOBS),1)
