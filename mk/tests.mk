# SPDX-License-Identifier: MIT
# Core parser tests (owner: the tests part).
#   test_parser: the rule cases in tests/cases/*.txt (whole, every split, byte by byte, head API)
#                and every corpus file; `build/tests/test_parser NAME` runs the cases matching NAME
#   test_api:    pause/resume, user errors, reset, skip-body, upgrade, names, head API details
#   test_state:  no result depends on dirty memory, a dirty stack or where a parser was reset
#   test_blocks: simdhttp_parse_fields and the chunked decoder on tests/blocks/*.txt (whole,
#                every prefix / every piece size) and their API edges
#   test_head_continue: parse_head_continue never re-reads the prefix (guard pages), agrees with parse_head
#   test_fastpaths: the chunk-size and chunk-data-CRLF fast paths, max_chunk_ext and framing
#                fields through on_header, on inputs around their thresholds (every split, pause)
TEST_PROGS += tests/test_smoke tests/test_parser tests/test_api tests/test_on_header tests/test_fastpaths tests/test_head_lookup tests/test_state tests/test_blocks tests/test_head_continue
