/* SPDX-License-Identifier: MIT */
/* The chunked decoder: the streaming parser started in its chunk-size state, with three
 * callbacks. Chunk data is moved down to the decoded end (in place: it never moves up); the
 * parser pauses at the end of the body, which tells where the bytes after it begin. No second
 * chunk parser: every rule, limit and error code is the core's (src/core.h). */
#include <stdint.h>
#include <string.h>

#include "internal.h"

/* Moves n <= 16 bytes from src down to dst: every byte loaded before any is stored, so the
 * two may overlap, as in memmove. Small chunks are most chunks; the call to memmove was a
 * third of the decoder's instructions per 1-byte chunk. */
static inline void move_small(char *dst, const char *src, size_t n)
{
    uint64_t a, b;
    uint32_t c, e;
    uint16_t f, g;
    if (n >= 8) {
        memcpy(&a, src, 8), memcpy(&b, src + n - 8, 8);
        memcpy(dst, &a, 8), memcpy(dst + n - 8, &b, 8);
    } else if (n >= 4) {
        memcpy(&c, src, 4), memcpy(&e, src + n - 4, 4);
        memcpy(dst, &c, 4), memcpy(dst + n - 4, &e, 4);
    } else if (n >= 2) {
        memcpy(&f, src, 2), memcpy(&g, src + n - 2, 2);
        memcpy(dst, &f, 2), memcpy(dst + n - 2, &g, 2);
    } else if (n) {
        *dst = *src;
    }
}

static int on_body(simdhttp_parser *p, const char *at, size_t n)
{
    simdhttp_chunked *d = p->data;
    char *dst = d->_dst;
    d->_dst = dst + n; /* first: nothing is live across the call to memmove */
    if (dst != at) {
        if (n <= 16)
            move_small(dst, at, n);
        else
            memmove(dst, at, n);
    }
    return 0;
}

/* the last chunk ("0" CRLF): stop before its trailer section, which the caller reads */
static int on_last_chunk(simdhttp_parser *p) { return p->content_length ? 0 : SIMDHTTP_PAUSE; }

static int on_end(simdhttp_parser *p)
{
    (void)p;
    return SIMDHTTP_PAUSE;
}

static const simdhttp_callbacks keep_trailers = {
    .on_body = on_body, .on_chunk_header = on_last_chunk, .on_message_complete = on_end};
static const simdhttp_callbacks consume_trailers = {.on_body = on_body, .on_message_complete = on_end};

void simdhttp_chunked_init(simdhttp_chunked *d, const simdhttp_config *cfg, unsigned options)
{
    simdhttp_config c = cfg ? *cfg : (simdhttp_config){0};
    c.pause_value = 0; /* our callbacks pause with SIMDHTTP_PAUSE, whatever cfg says */
    simdhttp_init(&d->_p, SIMDHTTP_REQUEST,
                  options & SIMDHTTP_CHUNKED_CONSUME_TRAILERS ? &consume_trailers : &keep_trailers, &c);
    d->_p.data = d;
    d->_p._state = S_CHUNK_SIZE_START;
    d->_p.flags = SIMDHTTP_F_CHUNKED | SIMDHTTP_F_TRANSFER_ENCODING;
    d->_dst = NULL;
    d->_end = 0;
    d->chunk_left = 0;
    d->error = SIMDHTTP_OK;
    d->error_reason = NULL;
    d->error_offset = 0;
}

long simdhttp_chunked_decode(simdhttp_chunked *d, char *buf, size_t *len)
{
    size_t n = *len;
    *len = 0;
    if (d->_end) {
        d->error = SIMDHTTP_E_INVALID_ARGUMENT;
        d->error_reason = "the chunked body already ended";
        d->error_offset = d->_p._nread;
    }
    if (d->error) return SIMDHTTP_CHUNKED_ERROR;
    if (!n) return SIMDHTTP_CHUNKED_INCOMPLETE;
    d->_dst = buf;
    simdhttp_errno e = simdhttp_execute(&d->_p, buf, n);
    *len = (size_t)(d->_dst - buf);
    d->chunk_left = d->_p._state == S_CHUNK_DATA ? d->_p.content_length : 0;
    if (e == SIMDHTTP_OK) return SIMDHTTP_CHUNKED_INCOMPLETE;
    if (e == SIMDHTTP_E_PAUSED) { /* the end of the body */
        const char *rest = simdhttp_get_error_pos(&d->_p);
        size_t left = (size_t)(buf + n - rest);
        memmove(buf + *len, rest, left);
        d->_end = 1;
        d->chunk_left = 0;
        return (long)left;
    }
    d->error = e;
    d->error_reason = simdhttp_get_error_reason(&d->_p);
    d->error_offset = simdhttp_get_error_offset(&d->_p);
    return SIMDHTTP_CHUNKED_ERROR;
}

int simdhttp_chunked_in_data(const simdhttp_chunked *d)
{
    return !d->_end && !d->error && d->_p._state == S_CHUNK_DATA;
}
