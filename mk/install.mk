TEST_SCRIPTS += tests/test_install.sh
