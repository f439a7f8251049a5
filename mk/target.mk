# SPDX-License-Identifier: MIT
# The request-target splitter (include/simdhttp.h section 7; owner: the http-parser layer).
LIB_SRCS += src/target.c
TEST_PROGS += tests/test_target
