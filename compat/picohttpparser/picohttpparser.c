/* SPDX-License-Identifier: MIT */
/* picohttpparser's API over simdhttp's head API, field-block parser and chunked decoder: no
 * parsing here, only the translation of arguments and results (compat/picohttpparser/include/
 * picohttpparser.h says what differs from picohttpparser). last_len > 0 goes to the _continue
 * calls, which look at the new bytes only until the head may be complete; 0 (the first call on
 * a buffer, and most calls) to the plain ones, one call less. */
#include <limits.h>
#include <stddef.h>

#include "picohttpparser.h"

#define PHR_API __attribute__((visibility("default")))

/* The head API writes its fields straight into the caller's phr_header array: the two
 * structures are the same four members in the same order. */
_Static_assert(sizeof(struct phr_header) == sizeof(simdhttp_field) &&
                   offsetof(struct phr_header, name) == offsetof(simdhttp_field, name) &&
                   offsetof(struct phr_header, name_len) == offsetof(simdhttp_field, name_len) &&
                   offsetof(struct phr_header, value) == offsetof(simdhttp_field, value) &&
                   offsetof(struct phr_header, value_len) == offsetof(simdhttp_field, value_len),
               "struct phr_header and simdhttp_field differ");

/* picohttpparser has no limits but the caller's header array and the int it returns: the
 * head may be as long as an int counts, with as many fields as the array holds. */
static inline void setup(simdhttp_head *h, simdhttp_config *cfg, struct phr_header *headers,
                         size_t *num_headers)
{
    h->fields = (simdhttp_field *)(void *)headers;
    h->fields_cap = *num_headers;
    *cfg = (simdhttp_config){.max_head_size = INT_MAX,
                             .max_fields = *num_headers < UINT32_MAX ? (uint32_t)*num_headers : UINT32_MAX};
}

/* On -1 and -2 the outputs are as picohttpparser sets them on entry (it may leave partial
 * results; this layer leaves none). */
static inline int result(long r) { return r == SIMDHTTP_HEAD_INCOMPLETE ? -2 : -1; }

PHR_API int phr_parse_request(const char *buf, size_t len, const char **method, size_t *method_len,
                              const char **path, size_t *path_len, int *minor_version,
                              struct phr_header *headers, size_t *num_headers, size_t last_len)
{
    simdhttp_head h;
    simdhttp_config cfg;
    setup(&h, &cfg, headers, num_headers);
    long r = last_len ? simdhttp_parse_head_continue(&h, SIMDHTTP_REQUEST, buf, len, last_len, &cfg)
                      : simdhttp_parse_head(&h, SIMDHTTP_REQUEST, buf, len, &cfg);
    if (r <= 0) {
        *method = *path = NULL;
        *method_len = *path_len = 0;
        *minor_version = -1;
        *num_headers = 0;
        return result(r);
    }
    *method = h.method_str;
    *method_len = h.method_len;
    *path = h.target;
    *path_len = h.target_len;
    *minor_version = h.http_minor;
    *num_headers = h.num_fields;
    return (int)r;
}

PHR_API int phr_parse_response(const char *buf, size_t len, int *minor_version, int *status,
                               const char **msg, size_t *msg_len, struct phr_header *headers,
                               size_t *num_headers, size_t last_len)
{
    simdhttp_head h;
    simdhttp_config cfg;
    setup(&h, &cfg, headers, num_headers);
    long r = last_len ? simdhttp_parse_head_continue(&h, SIMDHTTP_RESPONSE, buf, len, last_len, &cfg)
                      : simdhttp_parse_head(&h, SIMDHTTP_RESPONSE, buf, len, &cfg);
    /* simdhttp accepts "HTTP/1.1 200" CRLF, as most clients do; RFC 9112 section 4's
     * grammar and picohttpparser want the SP before the (empty) reason-phrase */
    if (r > 0 && h.reason_len == 0 && h.reason[-1] != ' ') r = SIMDHTTP_HEAD_ERROR;
    if (r <= 0) {
        *minor_version = -1;
        *status = 0;
        *msg = NULL;
        *msg_len = 0;
        *num_headers = 0;
        return result(r);
    }
    *minor_version = h.http_minor;
    *status = h.status_code;
    *msg = h.reason;
    *msg_len = h.reason_len;
    *num_headers = h.num_fields;
    return (int)r;
}

PHR_API int phr_parse_headers(const char *buf, size_t len, struct phr_header *headers,
                              size_t *num_headers, size_t last_len)
{
    simdhttp_head h;
    simdhttp_config cfg;
    setup(&h, &cfg, headers, num_headers);
    long r = last_len ? simdhttp_parse_fields_continue(&h, buf, len, last_len, &cfg)
                      : simdhttp_parse_fields(&h, buf, len, &cfg);
    if (r <= 0) {
        *num_headers = 0;
        return result(r);
    }
    *num_headers = h.num_fields;
    return (int)r;
}

/* picohttpparser's decoder skips a chunk line's extensions and, with consume_trailer, the
 * trailer lines without a bound, and without the caller seeing the bytes to count them; the
 * layer bounds both (RFC 9112 7.1.1), with simdhttp's defaults for a zeroed decoder (0) or the
 * setters' values. The trailer section's field count is bounded by its size only. The config
 * lives in the decoder: a zeroed one is the defaults, and nothing is built per body. */
PHR_API ssize_t phr_decode_chunked(struct phr_chunked_decoder *decoder, char *buf, size_t *bufsz)
{
    if (!decoder->_state) { /* zero-filled by the caller: start */
        decoder->_cfg.max_fields = UINT32_MAX; /* the rest: zeroed, or set by the setters */
        simdhttp_chunked_init(&decoder->_d, &decoder->_cfg,
                              decoder->consume_trailer ? SIMDHTTP_CHUNKED_CONSUME_TRAILERS : 0);
        decoder->_state = 1;
    }
    long r = simdhttp_chunked_decode(&decoder->_d, buf, bufsz);
    decoder->bytes_left_in_chunk = (size_t)decoder->_d.chunk_left;
    return r == SIMDHTTP_CHUNKED_ERROR ? -1 : r; /* INCOMPLETE is -2, as picohttpparser's */
}

static uint32_t limit(size_t max) { return max < UINT32_MAX ? (uint32_t)max : UINT32_MAX; }

PHR_API void phr_decode_chunked_set_max_chunk_ext(struct phr_chunked_decoder *decoder, size_t max)
{
    decoder->_cfg.max_chunk_ext = limit(max);
}

PHR_API void phr_decode_chunked_set_max_trailer_size(struct phr_chunked_decoder *decoder, size_t max)
{
    decoder->_cfg.max_head_size = limit(max);
}

PHR_API int phr_decode_chunked_is_in_data(struct phr_chunked_decoder *decoder)
{
    return simdhttp_chunked_in_data(&decoder->_d);
}
