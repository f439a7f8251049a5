# SPDX-License-Identifier: MIT
# The header field collection simdhttp_fields (owner: the fields part). See docs/fields.md.
LIB_SRCS += src/fields.c
TEST_PROGS += tests/test_fields

.PHONY: bench-fields
# Instruction counts need valgrind (callgrind); ns come from a plain -O2 run.
bench-fields: $(BUILD)/bench/bench_fields
	@mkdir -p bench/results
	$(BUILD)/bench/bench_fields --all bench/results/fields.json

$(BUILD)/bench/bench_fields: bench/bench_fields.c $(BUILD)/libsimdhttp.a
	@mkdir -p $(BUILD)/bench
	$(CC) $(CFLAGS_ALL) $< $(BUILD)/libsimdhttp.a $(LDFLAGS_ALL) -lm -o $@
TEST_LIBS_test_fields = -lpthread

# Built with the tests so it cannot rot; `make bench-fields` runs it.
tests: $(BUILD)/bench/bench_fields
