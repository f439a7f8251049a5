/* SPDX-License-Identifier: MIT */
/* What one side of fuzz/fuzz_http_parser.c saw: fuzz/http_parser_side.c, compiled once against
 * Debian's http-parser (symbols renamed real_*) and once against simdhttp's layer. */
#ifndef HTTP_PARSER_SIDE_H
#define HTTP_PARSER_SIDE_H
#include <stddef.h>
#include <stdint.h>

#define SIDE_MAX_MSGS 16
#define SIDE_MAX_STATES 1024
#define SIDE_BYTES 4096

typedef struct side_msg {
    unsigned method, status, major, minor;
    unsigned framing; /* F_CHUNKED | F_CONTENTLENGTH at headers complete */
    int headed, complete; /* on_headers_complete, on_message_complete seen */
    /* url, then per field: name '\0' value '\0' (values with SP/HTAB runs made one SP) */
    char head[SIDE_BYTES];
    size_t head_len, body_len;
    uint64_t body_hash;
    int truncated;
} side_msg;

/* Of every message, also past the first SIDE_MAX_MSGS: what the upgrade-split rule reads (an
 * upgrade request may come after 16 others, so its message must be known beyond msg[]) */
typedef struct side_state {
    unsigned framing;     /* as side_msg's */
    int headed, complete; /* as side_msg's */
} side_state;

typedef struct side_log {
    side_msg msg[SIDE_MAX_MSGS];
    side_state st[SIDE_MAX_STATES]; /* the first SIDE_MAX_STATES messages */
    int nmsgs;           /* messages begun */
    int error;           /* http_errno at the end (0: none) */
    const char *errname;
    size_t stopped;      /* bytes parsed when it stopped (error or upgrade), else the length */
    int upgrade;
} side_log;

/* type: 0 request, 1 response, 2 both; split: feed [0, split) then the rest (0: one call) */
void real_side_run(const uint8_t *data, size_t len, int type, size_t split, side_log *out);
void layer_side_run(const uint8_t *data, size_t len, int type, size_t split, side_log *out);
#endif
