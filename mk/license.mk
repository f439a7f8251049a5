# SPDX-License-Identifier: MIT
# The license tag on every source file (tests/test_license.sh says which files count).
TEST_SCRIPTS += tests/test_license.sh
