# SPDX-License-Identifier: MIT
TEST_SCRIPTS += tests/test_install.sh
