/* SPDX-License-Identifier: MIT */
/*
 * picohttpparser's API, over simdhttp (libsimdhttp-picohttpparser): a program written for
 * picohttpparser compiles against this header unchanged and links this library instead.
 *
 * The same functions, structures and return conventions: bytes consumed (> 0), -1 for an
 * error, -2 for an incomplete input; *num_headers is the capacity in and the count out. What
 * differs (docs/compat.md has the list, each with its RFC section; tests/compat/
 * picohttpparser.known is the list the differential test holds the layer to):
 *   - simdhttp's strict RFC 9112 rules: what picohttpparser accepts but RFC 9112 refuses is
 *     -1 here (bare LF, obs-fold, a method or field name that is not a token, an empty
 *     request-target or one whose first byte is above 0x7f, HTTP versions other than 1.x, a
 *     Content-Length that is not a number or two that differ, both Content-Length and
 *     Transfer-Encoding, malformed chunk lines and trailer fields); bytes above 0x7f after a
 *     target's first byte are taken, as picohttpparser takes them;
 *   - field values exclude trailing whitespace (RFC 9112 section 5);
 *   - on -1 and -2 the outputs are picohttpparser's (what it parsed before it stopped), but
 *     past *num_headers the entry of the line it stopped in may hold that line's value (and,
 *     after a status-line without the SP before an empty reason, or empty lines before a
 *     start line, the array the fields the layer read); with last_len, picohttpparser's
 *     check comes first, and a call that fails it leaves the array untouched, as there;
 *   - struct phr_chunked_decoder is larger (it holds simdhttp's decoder): zero it before use,
 *     as picohttpparser asks; its public members behave as picohttpparser's (consume_trailer
 *     is read at the last chunk; bytes_left_in_chunk also holds a chunk line's size so far);
 *   - phr_decode_chunked bounds a chunk line (4096 bytes after the size) and, with
 *     consume_trailer, the trailer section (80 KiB): -1 past them (RFC 9112 7.1.1);
 *     phr_decode_chunked_set_max_chunk_ext and _set_max_trailer_size, below, set them;
 *   - phr_decode_chunked after the body's end is -1 (picohttpparser reads on as trailer lines).
 */
#ifndef picohttpparser_h
#define picohttpparser_h

#include <stddef.h>
#include <sys/types.h> /* ssize_t */

#include "simdhttp.h"

/* Set by this layer (not by picohttpparser): a program can tell which library it was built
 * against. */
#define PICOHTTPPARSER_SIMDHTTP 1

#ifdef __cplusplus
extern "C" {
#endif

/* One field line: spans into the caller's buffer. name == NULL marks the continuation of the
 * previous field (obs-fold); this layer refuses obs-fold, so it never returns one. */
struct phr_header {
    const char *name;
    size_t name_len;
    const char *value;
    size_t value_len;
};

/* Parse a request head at the start of buf[0..len). last_len is the len of the previous call
 * on the same (grown) buffer, or 0: then only the new bytes are examined until the head may
 * be complete. @return the head's length, -1 (error) or -2 (incomplete). */
int phr_parse_request(const char *buf, size_t len, const char **method, size_t *method_len,
                      const char **path, size_t *path_len, int *minor_version,
                      struct phr_header *headers, size_t *num_headers, size_t last_len);

/* The same for a response head. */
int phr_parse_response(const char *buf, size_t len, int *minor_version, int *status,
                       const char **msg, size_t *msg_len, struct phr_header *headers,
                       size_t *num_headers, size_t last_len);

/* The same for a bare block of field lines ending with an empty line (e.g. trailers). */
int phr_parse_headers(const char *buf, size_t len, struct phr_header *headers,
                      size_t *num_headers, size_t last_len);

/* The chunked decoder's state: zero it before the first call. consume_trailer is read when the
 * last chunk's line ends, so it may be set or cleared until then: 1, the trailer section is
 * checked and skipped; 0, the decoder stops before it and the caller may read it with
 * phr_parse_headers. */
struct phr_chunked_decoder {
    size_t bytes_left_in_chunk; /* out, after each call, as picohttpparser: in a chunk's data the
                                   bytes still due; in a chunk line the size's digits so far (then
                                   the size); else 0 (after -1: its value before the refused byte) */
    char consume_trailer;       /* in */
    char _state;                /* private: 0 until the first call */
    simdhttp_config _cfg;       /* private: the setters' limits (0: the defaults) */
    simdhttp_chunked _d;        /* private */
};

/* Decode buf[0..*bufsz) in place: the chunk data moves to buf[0..*bufsz) (*bufsz set to its
 * length). @return -2 (the body goes on: call again with the next bytes), -1 (error), or the
 * number of bytes after the body's end, moved to follow the data at buf + *bufsz. Once it
 * returned >= 0, every further call returns -1 (zero the decoder for the next body):
 * picohttpparser goes on reading lines, one per call without consume_trailer (unchecked, past
 * the trailer section's end too), or a whole further "trailer section" with it, which
 * swallows a pipelined request (RFC 9112 7.1: the chunked body ends with its trailer
 * section). Read the trailer section with phr_parse_headers instead. */
ssize_t phr_decode_chunked(struct phr_chunked_decoder *decoder, char *buf, size_t *bufsz);

/* @return 1 if the decoder stopped inside a chunk's data, else 0. */
int phr_decode_chunked_is_in_data(struct phr_chunked_decoder *decoder);

/* This layer's additions (picohttpparser's decoder has no limits; a program can test
 * PICOHTTPPARSER_SIMDHTTP): the decoder's two limits, in bytes, 0 for the default. Call them
 * after zeroing the decoder and before its first phr_decode_chunked (zeroing it for the next
 * body restores the defaults); a zeroed decoder has the defaults. Exceeding one is -1.
 *   max_chunk_ext: one chunk line's bytes after the size (its extensions), and a size's digits
 *     past the 16th; default 4096 (RFC 9112 7.1.1: a server ought to limit chunk extensions);
 *   max_trailer_size: with consume_trailer, the trailer section (its field lines and the empty
 *     line that ends it); default 81920 (80 KiB, simdhttp's head size).
 * Values of UINT32_MAX and above are UINT32_MAX: in effect no bound, as in picohttpparser. */
void phr_decode_chunked_set_max_chunk_ext(struct phr_chunked_decoder *decoder, size_t max);
void phr_decode_chunked_set_max_trailer_size(struct phr_chunked_decoder *decoder, size_t max);

#ifdef __cplusplus
}
#endif

#endif
