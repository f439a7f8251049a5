# SPDX-License-Identifier: MIT
# End-to-end tests with real clients and servers (owner: the e2e part; see docs/e2e.md).
#
#   make examples   build/examples/server (the example server, examples/server.c)
#   make e2e        the end-to-end checks against curl, wrk, Python, Chromium, nginx
#
# The same script runs inside `make test` for each build (normal and ASan); it counts a
# missing tool as skipped outside CI and as a failure when CI=true.

E2E_BINS = $(BUILD)/examples/server $(BUILD)/e2e/headparse

.PHONY: examples e2e
examples: $(BUILD)/examples/server
tests: $(E2E_BINS)
TEST_SCRIPTS += tests/e2e/run.sh

$(BUILD)/examples $(BUILD)/e2e:
	mkdir -p $@

$(BUILD)/examples/%: examples/%.c include/simdhttp.h $(BUILD)/libsimdhttp.a | $(BUILD)/examples
	$(CC) $(CFLAGS_ALL) $< $(BUILD)/libsimdhttp.a $(LDFLAGS_ALL) -o $@

$(BUILD)/e2e/%: tests/e2e/%.c include/simdhttp.h $(BUILD)/libsimdhttp.a | $(BUILD)/e2e
	$(CC) $(CFLAGS_ALL) $< $(BUILD)/libsimdhttp.a $(LDFLAGS_ALL) -o $@

e2e: all $(E2E_BINS)
	BUILD=$(BUILD) sh tests/e2e/run.sh
TEST_SCRIPTS += tests/e2e/audit_capture.sh
