# SPDX-License-Identifier: MIT
# Docs that match the code: README snippets compile and run, names in prose exist, the header's
# checkable statements hold (tests/test_docs.sh).
TEST_SCRIPTS += tests/test_docs.sh
