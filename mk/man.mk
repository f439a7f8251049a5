# SPDX-License-Identifier: MIT
# The manual pages (man/): rendered, versioned and checked against the CLI and the header.
TEST_SCRIPTS += tests/test_man.sh
