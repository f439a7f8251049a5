# SPDX-License-Identifier: MIT
# The head API on a growing buffer, simdhttp_parse_head_continue (docs/head-api.md).
#   make bench-head-continue   callgrind instructions (valgrind) and interleaved timings: a
#                              64 KiB head in one parse_head call vs 10-byte steps through
#                              parse_head_continue (and through parse_head again, the quadratic way)
$(BUILD)/bench/head_continue: bench/head_continue.c include/simdhttp.h $(BUILD)/libsimdhttp.a
	@mkdir -p $(BUILD)/bench
	$(CC) $(CFLAGS_ALL) $< $(BUILD)/libsimdhttp.a $(LDFLAGS_ALL) -o $@

# built with the tests so it cannot rot; the test of linearity is tests/test_head_continue
tests: $(BUILD)/bench/head_continue

.PHONY: bench-head-continue
bench-head-continue: $(BUILD)/bench/head_continue
	sh bench/head_continue.sh $(BUILD)/bench/head_continue
