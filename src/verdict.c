/* SPDX-License-Identifier: MIT */
/* Desync verdicts: each reason's name and tier, in one table (include/simdhttp.h lists the
 * reasons; docs/smuggling.md gives each one's RFC section and the attack it serves). */
#include "simdhttp.h"

#define R(name, tier) [SIMDHTTP_R_##name] = {#name, SIMDHTTP_TIER_##tier}
static const struct {
    const char *name;
    simdhttp_tier tier;
} reasons[SIMDHTTP_R_COUNT] = {
    R(BARE_LF, ACCEPTABLE),
    R(BARE_CR, SEVERE),
    R(OBS_FOLD, AMBIGUOUS),
    R(WS_BEFORE_COLON, SEVERE),
    R(WS_BEFORE_FIELD, SEVERE),
    R(CTL_IN_VALUE, AMBIGUOUS),
    R(NUL, SEVERE),
    R(BAD_FIELD_NAME, AMBIGUOUS),
    R(NO_COLON, SEVERE),
    R(FRAMING_LOOKALIKE, AMBIGUOUS),
    R(EXTRA_SPACE, AMBIGUOUS),
    R(SPACE_IN_TARGET, AMBIGUOUS),
    R(TARGET_OBS_TEXT, ACCEPTABLE),
    R(BAD_TARGET, SEVERE),
    R(VERSION_MINOR, ACCEPTABLE),
    R(VERSION_MAJOR, AMBIGUOUS),
    R(CL_AND_TE, AMBIGUOUS),
    R(CL_DUPLICATE, ACCEPTABLE),
    R(CL_DIFFERENT, SEVERE),
    R(CL_INVALID, SEVERE),
    R(TE_NOT_CHUNKED, SEVERE),
    R(TE_CHUNKED_TWICE, SEVERE),
    R(TE_INVALID, SEVERE),
    R(TE_UNKNOWN_CODING, AMBIGUOUS),
    R(TE_IN_HTTP10, AMBIGUOUS),
    R(BODY_ON_GET, AMBIGUOUS),
    R(CHUNK_SIZE_WS, AMBIGUOUS),
    R(CHUNK_SIZE_INVALID, SEVERE),
    R(CHUNK_EXT_INVALID, SEVERE),
    R(CHUNK_DATA_NO_CRLF, SEVERE),
    R(DATA_AFTER_CLOSE, AMBIGUOUS),
    R(MALFORMED, SEVERE),
};
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
