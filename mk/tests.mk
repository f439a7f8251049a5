# Core parser tests (owner: the tests part).
TEST_PROGS += tests/test_smoke
