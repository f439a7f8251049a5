/* SPDX-License-Identifier: MIT */
/* Library-internal declarations: states, per-ISA entry points, shared helpers. */
#ifndef SIMDHTTP_INTERNAL_H
#define SIMDHTTP_INTERNAL_H

#include <string.h>

#include "simdhttp.h"

#define SH_INTERNAL __attribute__((visibility("hidden")))

/* simdhttp_set_empty_spans: an option kept in _lenient's top bit (outside SIMDHTTP_LENIENT_ALL,
 * so no lenient setter or config reaches it) */
#define SH_OPT_EMPTY_SPANS (1u << 31)
/* What config.lenient may set: the lenient flags and the modes' rule */
#define SH_CONFIG_LENIENT (SIMDHTTP_LENIENT_ALL | SIMDHTTP_CLOSE_AFTER_AMBIGUOUS)

/* Parser states. Each is also a resume point after a callback paused the parser. */
enum {
    S_ERROR = 0,
    S_DEAD,           /* after a message that closes the connection */
    S_UPGRADED,       /* after PAUSED_UPGRADE, until resume_after_upgrade */
    S_MSG_START,      /* before a message: leading empty lines, then message begin */
    S_MSG_BEGUN,      /* on_message_begin done */
    S_DETECT,         /* BOTH: matching "HTTP/"; _idx bytes matched */
    S_METHOD,
    S_METHOD_END,     /* at the SP after the method */
    S_URL_START,
    S_URL,
    S_URL_END,        /* at the SP after the target */
    S_VERSION,        /* "HTTP/" DIGIT "." DIGIT; _idx bytes matched */
    S_VERSION_END,
    S_AFTER_VERSION,
    S_STATUS_CODE,    /* _idx digits matched */
    S_STATUS_CODE_END,
    S_STATUS_SP,
    S_REASON,
    S_REASON_END,
    S_LINE_END,       /* at CR or LF; then go to _next */
    S_LINE_LF,        /* after CR; then go to _next */
    S_FIELD_START,
    S_FOLD_WS,        /* obs-fold: skipping the continuation line's leading SP/HTAB */
    S_FIELD_NAME,
    S_NAME_END,       /* at ':' */
    S_OWS,
    S_FIELD_VALUE,
    S_VALUE_END,      /* at the CR/LF ending a value */
    S_HEAD_DONE,      /* after the empty line */
    S_BODY_CL,
    S_BODY_EOF,
    S_MSG_DONE,
    S_CHUNK_SIZE_START,
    S_CHUNK_SIZE,
    S_CHUNK_SIZE_COUNTED, /* a size that began with 0: _idx digits so far (up to 16) */
    S_CHUNK_SIZE_WS,
    S_EXT_NAME_START,
    S_EXT_NAME,
    S_EXT_NAME_END,
    S_EXT_AFTER_NAME,
    S_EXT_VALUE_START,
    S_EXT_VALUE,
    S_EXT_VALUE_END,
    S_EXT_AFTER_VALUE,
    S_CHUNK_HEADER,   /* chunk line done: on_chunk_header */
    S_CHUNK_DATA,
    S_CHUNK_DATA_END, /* expecting CRLF after chunk data */
    S_CHUNK_DONE,     /* on_chunk_complete */
    S_TRAILERS_DONE,  /* on_chunk_complete after the trailer section */
    /* With simdhttp_set_empty_spans only: S_REASON and S_CHUNK_DATA before their first byte,
     * where no span is open (SH_SPAN_WAS_OPEN) */
    S_REASON0,
    S_CHUNK_DATA0
};

/* Special fields (p->_hstate) */
/* _hstate: what a field's name means to framing. H_LOOKALIKE (from sh_classify_name only, never
 * in _hstate): a name of a framing name's length whose dash is another byte, maybe a lookalike */
enum { H_NONE = 0, H_CONTENT_LENGTH, H_TRANSFER_ENCODING, H_CONNECTION, H_UPGRADE, H_LOOKALIKE };

/* p->_te bits */
enum { TE_SEEN_CHUNKED = 1, TE_LAST_CHUNKED = 2 };

#define SH_ALWAYS_INLINE inline __attribute__((always_inline))

/* The entry points of each ISA's unit (src/isa/<isa>/isa_<isa>.c, which calls the generic
 * bodies sh_execute and sh_head of src/core.h), named literally so that a call leads to its
 * definition. */
SH_INTERNAL simdhttp_errno simdhttp__execute_scalar(simdhttp_parser *p, const char *data, size_t len);
SH_INTERNAL long simdhttp__head_scalar(simdhttp_head *h, simdhttp_type type, const char *buf, size_t len,
                                       const simdhttp_config *cfg, int fields);
#if defined(__x86_64__) || defined(_M_X64)
SH_INTERNAL simdhttp_errno simdhttp__execute_sse2(simdhttp_parser *p, const char *data, size_t len);
SH_INTERNAL long simdhttp__head_sse2(simdhttp_head *h, simdhttp_type type, const char *buf, size_t len,
                                     const simdhttp_config *cfg, int fields);
SH_INTERNAL simdhttp_errno simdhttp__execute_sse42(simdhttp_parser *p, const char *data, size_t len);
SH_INTERNAL long simdhttp__head_sse42(simdhttp_head *h, simdhttp_type type, const char *buf, size_t len,
                                      const simdhttp_config *cfg, int fields);
SH_INTERNAL simdhttp_errno simdhttp__execute_avx2(simdhttp_parser *p, const char *data, size_t len);
SH_INTERNAL long simdhttp__head_avx2(simdhttp_head *h, simdhttp_type type, const char *buf, size_t len,
                                     const simdhttp_config *cfg, int fields);
SH_INTERNAL simdhttp_errno simdhttp__execute_avx512(simdhttp_parser *p, const char *data, size_t len);
SH_INTERNAL long simdhttp__head_avx512(simdhttp_head *h, simdhttp_type type, const char *buf, size_t len,
                                       const simdhttp_config *cfg, int fields);
#endif
#if defined(__aarch64__)
SH_INTERNAL simdhttp_errno simdhttp__execute_neon(simdhttp_parser *p, const char *data, size_t len);
SH_INTERNAL long simdhttp__head_neon(simdhttp_head *h, simdhttp_type type, const char *buf, size_t len,
                                     const simdhttp_config *cfg, int fields);
#endif

/* The cookie iterator's pair scan (src/isa/avx2/isa_avx2.c), through the dispatcher (src/dispatch.c:
 * 0, "scan it byte by byte", where the path chosen has none). v[0..vl), vl >= 32; the name's
 * end in the low 32 bits, the value's in the high. */
#if defined(__x86_64__) || defined(_M_X64)
SH_INTERNAL uint64_t simdhttp__cookie_pair_avx2(const uint8_t *v, uint32_t start, uint32_t vl);
#endif
SH_INTERNAL uint64_t simdhttp__cookie_pair(const uint8_t *v, uint32_t start, uint32_t vl);

/* parser.c */
SH_INTERNAL extern const simdhttp_callbacks simdhttp__no_callbacks;
/* The id of a method the core's inline classifier does not know (src/parser.c). */
SH_INTERNAL int simdhttp__method_lookup(const uint8_t *s, size_t n);

/* parser.c's setup, inline: the head API folds its constant arguments (about 20 instructions
 * per head). The members owned by init (tagged [init] at struct simdhttp_parser, with the public ones);
 * the rest are set by their owners (message begin, element begin) before anything reads them.
 * No whole-struct memset: its `rep stos` cost 8-13 ns per init or reset on the reference
 * machine, and init/reset run once per message in some servers; a memset would also hide a
 * missing owner from MemorySanitizer instead of fixing it. */
/* simdhttp__configure_head: the [init] members that the head API's parser reads
 * (simdhttp__head_ in src/core.h). That parser lives for one call and never reaches a
 * callback, a chunk line or reset(), so the members only those read (callbacks and their
 * results, the chunk line budget, the type to reset to) are left to
 * simdhttp__configure; MemorySanitizer reports a head path that comes to read one. */
static inline void simdhttp__configure_head(simdhttp_parser *p, simdhttp_type type, const simdhttp_config *cfg)
{
    /* content_length, flags, status_code, method, http_major, http_minor and upgrade 0, type
     * after: two stores instead of seven (init runs once per message in some servers) */
    _Static_assert(offsetof(simdhttp_parser, reasons) - offsetof(simdhttp_parser, content_length) ==
                       8 + 4 + 2 + 1 + 1 + 1 + 1 + 1 + 1,
                   "content_length up to reasons: those nine members, one byte of padding");
    memset(&p->content_length, 0, offsetof(simdhttp_parser, reasons) + 4 - offsetof(simdhttp_parser, content_length));
    p->type = (uint8_t)type;
    p->_lenient = cfg ? cfg->lenient & SH_CONFIG_LENIENT : 0;
    p->_max_head_size = cfg && cfg->max_head_size ? cfg->max_head_size : SIMDHTTP_DEFAULT_MAX_HEAD_SIZE;
    p->_max_fields = cfg && cfg->max_fields ? cfg->max_fields : SIMDHTTP_DEFAULT_MAX_FIELDS;
    p->_head_left = p->_max_head_size;
    p->_fields_left = p->_max_fields;
    p->_nread = 0;
    p->_error = SIMDHTTP_OK;
    p->_reason = NULL;
    p->_error_pos = NULL;
    p->_error_offset = 0;
    p->_state = S_MSG_START;
}

/* The callbacks a parser calls: cb, or none for NULL (init and simdhttp_set_callbacks) */
static inline void simdhttp__set_cb(simdhttp_parser *p, const simdhttp_callbacks *cb)
{
    p->_cb = cb ? cb : &simdhttp__no_callbacks;
}

static inline void simdhttp__configure(simdhttp_parser *p, simdhttp_type type,
                                       const simdhttp_callbacks *cb, const simdhttp_config *cfg)
{
    simdhttp__configure_head(p, type, cfg);
    simdhttp__set_cb(p, cb);
    p->_init_type = (uint8_t)type;
    /* (upgrade: 0 in simdhttp__configure_head) */
    p->_max_chunk_ext = cfg && cfg->max_chunk_ext ? cfg->max_chunk_ext : SIMDHTTP_DEFAULT_MAX_CHUNK_EXT;
    p->_pause_rc = cfg && cfg->pause_value ? cfg->pause_value : SIMDHTTP_PAUSE;
    p->_cb_rc = 0;
    p->_cb_which = 0;
}

/* dispatch.c: the path chosen once per process */
SH_INTERNAL simdhttp_isa simdhttp__isa(void);

#endif
