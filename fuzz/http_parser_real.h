/* SPDX-License-Identifier: MIT */
/* Included before Debian's http_parser.h when fuzz/http_parser_side.c is built for the real
 * library, whose symbols mk/compat-http-parser.mk renames real_*: the calls follow. */
#define http_parser_init real_http_parser_init
#define http_parser_execute real_http_parser_execute
#define http_errno_name real_http_errno_name
#define SIDE_RUN real_side_run
