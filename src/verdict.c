/* SPDX-License-Identifier: MIT */
/* Desync verdicts: each reason's name and tier (the table is src/verdict.h), and the reason of
 * a refusal. */
#include <string.h>

#include "verdict.h"

#define R(name, tier) [SIMDHTTP_R_##name] = {#name, SIMDHTTP_TIER_##tier},
static const struct {
    const char *name;
    simdhttp_tier tier;
} reasons[SIMDHTTP_R_COUNT] = {SH_REASON_TABLE(R)};
#undef R

const char *simdhttp_tier_name(simdhttp_tier tier)
{
    static const char *const names[] = {"COMPLIANT", "ACCEPTABLE", "AMBIGUOUS", "SEVERE"};
    return (unsigned)tier < 4 ? names[tier] : NULL;
}

const char *simdhttp_reason_name(simdhttp_reason reason)
{
    return (unsigned)reason < SIMDHTTP_R_COUNT ? reasons[reason].name : NULL;
}

simdhttp_tier simdhttp_reason_tier(simdhttp_reason reason)
{
    return (unsigned)reason < SIMDHTTP_R_COUNT ? reasons[reason].tier : SIMDHTTP_TIER_SEVERE;
}

simdhttp_tier simdhttp_reasons_tier(uint64_t mask)
{
    simdhttp_tier t = SIMDHTTP_TIER_COMPLIANT;
    for (unsigned r = 0; r < SIMDHTTP_R_COUNT; r++)
        if ((mask >> r & 1) && reasons[r].tier > t) t = reasons[r].tier;
    return t;
}

/* What a strict reading refused: the error's code, its text (p->_reason: the core's own
 * sentences, fixed strings) and the byte it stopped at. Only what the parser holds at the error
 * is read, so that the reason does not depend on how the stream was split. */
static uint32_t refusal(const simdhttp_parser *p, int at)
{
    const char *why = p->_reason;
#define HAS(text) (why && strstr(why, text))
#define BIT(r) ((uint32_t)SIMDHTTP_REASON_BIT(SIMDHTTP_R_##r))
    switch (p->_error) {
    case SIMDHTTP_E_CR_EXPECTED: return HAS("chunk data") ? BIT(CHUNK_DATA_NO_CRLF) : BIT(BARE_LF);
    case SIMDHTTP_E_LF_EXPECTED: return BIT(BARE_CR);
    case SIMDHTTP_E_UNEXPECTED_SPACE:
        if (HAS("obs-fold")) return BIT(OBS_FOLD);
        if (HAS("field name and")) return BIT(WS_BEFORE_COLON);
        if (HAS("first field line")) return BIT(WS_BEFORE_FIELD);
        return BIT(EXTRA_SPACE);
    case SIMDHTTP_E_INVALID_HEADER_VALUE: return at == 0 ? BIT(NUL) : BIT(CTL_IN_VALUE);
    case SIMDHTTP_E_INVALID_HEADER_TOKEN:
        if (at == 0) return BIT(NUL);
        if (at == '\r' || at == '\n' || HAS("no ':'")) return BIT(NO_COLON);
        return BIT(BAD_FIELD_NAME);
    case SIMDHTTP_E_INVALID_URL: return at >= 0x80 ? BIT(TARGET_OBS_TEXT) : BIT(BAD_TARGET);
    case SIMDHTTP_E_INVALID_VERSION:
        if (HAS("major version")) return BIT(VERSION_MAJOR);
        if (at == ' ' || at == '\t') return BIT(EXTRA_SPACE);
        if (at >= 0x80) return BIT(TARGET_OBS_TEXT);
        /* a request-line's third element that does not start "HTTP/": the target went on
         * past a SP (a hop that splits at the last SP reads another target) */
        if (p->type == SIMDHTTP_REQUEST && p->_idx == 0 && HAS("\"HTTP/\"") && at > ' ' && at < 0x7f && at != 'H')
            return BIT(SPACE_IN_TARGET);
        return BIT(MALFORMED);
    case SIMDHTTP_E_UNEXPECTED_CONTENT_LENGTH: return HAS("Transfer-Encoding") ? BIT(CL_AND_TE) : BIT(CL_DIFFERENT);
    case SIMDHTTP_E_INVALID_CONTENT_LENGTH: return BIT(CL_INVALID);
    case SIMDHTTP_E_INVALID_TRANSFER_ENCODING:
        if (HAS("final transfer coding")) return BIT(TE_NOT_CHUNKED);
        if (HAS("more than once")) return BIT(TE_CHUNKED_TWICE);
        return BIT(TE_INVALID);
    case SIMDHTTP_E_INVALID_CHUNK_SIZE:
    case SIMDHTTP_E_INVALID_CHUNK_EXTENSION:
        if (HAS("whitespace at the end")) return BIT(CHUNK_SIZE_WS);
        return p->_error == SIMDHTTP_E_INVALID_CHUNK_SIZE ? BIT(CHUNK_SIZE_INVALID) : BIT(CHUNK_EXT_INVALID);
    case SIMDHTTP_E_CLOSED_CONNECTION: return BIT(DATA_AFTER_CLOSE);
    case SIMDHTTP_E_INVALID_METHOD:
    case SIMDHTTP_E_INVALID_STATUS:
    case SIMDHTTP_E_HEADER_OVERFLOW:
    case SIMDHTTP_E_TOO_MANY_HEADERS:
    case SIMDHTTP_E_CHUNK_EXTENSIONS_OVERFLOW: return BIT(MALFORMED);
    default: return 0; /* a callback's error, a pause, an argument: no deviation */
    }
#undef BIT
#undef HAS
}

void simdhttp__refusal(simdhttp_parser *p, simdhttp_head *h, int at)
{
    p->reasons |= refusal(p, at);
    if (h) h->reasons = p->reasons;
}
