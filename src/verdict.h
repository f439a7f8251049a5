/* SPDX-License-Identifier: MIT */
/* Desync verdicts: each reason's tier, in one table (include/simdhttp.h lists the reasons;
 * docs/smuggling.md gives each one's RFC section and the attack it serves). src/verdict.c
 * names them; the core takes the set of reasons that close the connection in defensive mode
 * from it as a constant. */
#ifndef SIMDHTTP_VERDICT_H
#define SIMDHTTP_VERDICT_H

#include "internal.h"

#define SH_REASON_TABLE(R)              \
    R(BARE_LF, ACCEPTABLE)              \
    R(BARE_CR, SEVERE)                  \
    R(OBS_FOLD, AMBIGUOUS)              \
    R(WS_BEFORE_COLON, SEVERE)          \
    R(WS_BEFORE_FIELD, SEVERE)          \
    R(CTL_IN_VALUE, AMBIGUOUS)          \
    R(NUL, SEVERE)                      \
    R(BAD_FIELD_NAME, AMBIGUOUS)        \
    R(NO_COLON, SEVERE)                 \
    R(FRAMING_LOOKALIKE, AMBIGUOUS)     \
    R(EXTRA_SPACE, AMBIGUOUS)           \
    R(SPACE_IN_TARGET, AMBIGUOUS)       \
    R(TARGET_OBS_TEXT, ACCEPTABLE)      \
    R(BAD_TARGET, SEVERE)               \
    R(VERSION_MINOR, ACCEPTABLE)        \
    R(VERSION_MAJOR, AMBIGUOUS)         \
    R(CL_AND_TE, AMBIGUOUS)             \
    R(CL_DUPLICATE, ACCEPTABLE)         \
    R(CL_DIFFERENT, SEVERE)             \
    R(CL_INVALID, SEVERE)               \
    R(TE_NOT_CHUNKED, SEVERE)           \
    R(TE_CHUNKED_TWICE, SEVERE)         \
    R(TE_INVALID, SEVERE)               \
    R(TE_UNKNOWN_CODING, AMBIGUOUS)     \
    R(TE_IN_HTTP10, AMBIGUOUS)          \
    R(BODY_ON_GET, AMBIGUOUS)           \
    R(CHUNK_SIZE_WS, AMBIGUOUS)         \
    R(CHUNK_SIZE_INVALID, SEVERE)       \
    R(CHUNK_EXT_INVALID, SEVERE)        \
    R(CHUNK_DATA_NO_CRLF, SEVERE)       \
    R(DATA_AFTER_CLOSE, AMBIGUOUS)      \
    R(MALFORMED, SEVERE)

_Static_assert(SIMDHTTP_R_COUNT <= 32, "parser->reasons and head->reasons hold 32 reasons");
_Static_assert(SIMDHTTP_METHOD_COUNT <= 64, "SH_BODILESS (src/core.h) tests a method in 64 bits");

/* The reasons of tier AMBIGUOUS or SEVERE: a constant */
#define SH_REASON_CLOSES(name, tier) \
    | (SIMDHTTP_TIER_##tier >= SIMDHTTP_TIER_AMBIGUOUS ? (uint32_t)SIMDHTTP_REASON_BIT(SIMDHTTP_R_##name) : 0u)
#define SH_CLOSING_REASONS (0u SH_REASON_TABLE(SH_REASON_CLOSES))

/* The parser stopped with an error (p->_error, p->_reason) at byte `at` (-1: past the input):
 * the verdict (p->reasons, and h->reasons for the head API) gets what a strict reading refused
 * (nothing for an error that is no deviation of the message: a callback's, an argument's). */
SH_INTERNAL void simdhttp__refusal(simdhttp_parser *p, simdhttp_head *h, int at);

#endif
