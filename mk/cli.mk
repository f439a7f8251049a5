# SPDX-License-Identifier: MIT
# The simdhttp command (owner: the CLI part). tools/*.c are built by the main Makefile;
# this adds the CLI's test script (compares `simdhttp parse` with tests/cli_oracle.py).
TEST_SCRIPTS += tests/test_cli.sh
TEST_SCRIPTS += tests/test_audit.sh
# make bench: the audit's speed per reading on the corpus (simdhttp audit --bench; docs/benchmarks.md).
.PHONY: bench-audit
bench-run: bench-audit
bench-audit: $(BUILD)/simdhttp
	$(BUILD)/simdhttp audit --bench corpus/*.http
TEST_SCRIPTS += tests/test_desync_anchor.sh
