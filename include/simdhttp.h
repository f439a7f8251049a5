/* SPDX-License-Identifier: MIT */
/*
 * simdhttp: a strict, streaming HTTP/1.0 and HTTP/1.1 parser with run-time selected SIMD.
 *
 * This header is the manual. Read it top to bottom:
 *   1. Versions and the SIMD path in use
 *   2. Errors
 *   3. Lenient flags (all off by default) and limits
 *   4. The streaming parser (callback API, in the spirit of llhttp)
 *   5. The zero-copy head API (one call, in the spirit of picohttpparser), a bare block of
 *      field lines, and the chunked-body decoder that follows a head
 *   6. The header field collection (simdhttp_fields)
 *   7. The request-target splitter (RFC 9112 section 3.2, RFC 3986)
 *
 * Rules are RFC 9112 (HTTP/1.1 message syntax) and RFC 9110 (semantics). Every byte offset
 * reported by this library is absolute: counted from the first byte ever given to the parser
 * (or to simdhttp_parse_head) since init or reset.
 *
 * Thread safety: a parser, a head or a fields object belongs to one thread at a time. Different
 * parsers share nothing (the SIMD path is chosen once per process, race-free).
 */
#ifndef SIMDHTTP_H
#define SIMDHTTP_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32)
#define SIMDHTTP_API
#else
#define SIMDHTTP_API __attribute__((visibility("default")))
#endif

/* ===================================================================================== */
/* 1. Versions and the SIMD path                                                          */
/* ===================================================================================== */

#define SIMDHTTP_VERSION_MAJOR 0
#define SIMDHTTP_VERSION_MINOR 1
#define SIMDHTTP_VERSION_PATCH 0
#define SIMDHTTP_VERSION_STRING "0.1.0"

/* @return the library version, e.g. "0.1.0". */
SIMDHTTP_API const char *simdhttp_version(void);

/* The scanner paths. All are compiled into every build of the library for its architecture;
 * one is chosen once per process, at the first parse, from CPUID/XGETBV (x86-64) or the
 * architecture (aarch64 always has NEON). The environment variable SIMDHTTP_ISA=<name>
 * (names below) forces a path; a path the CPU lacks is refused: simdhttp_isa_name() then
 * returns the path actually used and simdhttp_isa_error() says why the request was refused. */
typedef enum simdhttp_isa {
    SIMDHTTP_ISA_SCALAR = 1, /* portable C: the reference every other path is tested against */
    SIMDHTTP_ISA_SSE2 = 2,
    SIMDHTTP_ISA_SSE42 = 3,
    SIMDHTTP_ISA_AVX2 = 4,
    SIMDHTTP_ISA_AVX512 = 5, /* AVX-512BW */
    SIMDHTTP_ISA_NEON = 6
} simdhttp_isa;

/* @return the path in use ("scalar", "sse2", "sse42", "avx2", "avx512", "neon"). */
SIMDHTTP_API const char *simdhttp_isa_name(void);
/* @return the path in use. */
SIMDHTTP_API simdhttp_isa simdhttp_isa_get(void);
/* @return NULL, or why SIMDHTTP_ISA was refused (unknown name, or the CPU/OS lacks it). */
SIMDHTTP_API const char *simdhttp_isa_error(void);
/* @return 1 if this CPU and OS can run path `isa`, else 0. */
SIMDHTTP_API int simdhttp_isa_supported(simdhttp_isa isa);
/* Force a path for the whole process (tests and benchmarks). Not thread-safe against parses
 * running at the same time. @return 0, or -1 (and nothing changes) if the CPU lacks it. */
SIMDHTTP_API int simdhttp_isa_set(simdhttp_isa isa);
/* @return the name of `isa`, or NULL for an unknown value. */
SIMDHTTP_API const char *simdhttp_isa_to_name(simdhttp_isa isa);

/* ===================================================================================== */
/* 2. Errors                                                                              */
/* ===================================================================================== */

/* Every rejection has one of these codes, a reason string and an absolute byte offset: the
 * offset of the first byte that made the input invalid (for a limit: the first byte past it;
 * for end of input: the total length). The offset does not depend on how the input was split
 * into execute() calls. (PAUSED and USER are not parse errors: their offset is the first byte
 * not consumed after the callback that stopped the parser, so it follows the spans it got.)
 * docs/limits.md lists every limit and bound. simdhttp_errno_name() returns the name without
 * the "SIMDHTTP_E_" prefix, e.g. "INVALID_METHOD" (the CLI prints that name). */
typedef enum simdhttp_errno {
    SIMDHTTP_OK = 0,
    SIMDHTTP_E_PAUSED = 1,              /* a callback returned SIMDHTTP_PAUSE; see resume() */
    SIMDHTTP_E_PAUSED_UPGRADE = 2,      /* Upgrade/CONNECT/101: the rest of the bytes are not HTTP */
    SIMDHTTP_E_USER = 3,                /* a callback returned another non-zero value */
    SIMDHTTP_E_INVALID_METHOD = 4,      /* method is not a token, or empty */
    SIMDHTTP_E_INVALID_URL = 5,         /* request-target empty or has a byte outside VCHAR */
    SIMDHTTP_E_INVALID_VERSION = 6,     /* not "HTTP/" DIGIT "." DIGIT, or major not 1 (a higher
                                           minor, HTTP/1.2, is processed as 1.1: RFC 9110 2.5) */
    SIMDHTTP_E_INVALID_STATUS = 7,      /* status code not 3 digits in 100..999, bad reason byte */
    SIMDHTTP_E_UNEXPECTED_SPACE = 8,    /* SP/HTAB where RFC 9112 forbids it (before ':', obs-fold,
                                           before the first field line, extra SP in a start line) */
    SIMDHTTP_E_INVALID_HEADER_TOKEN = 9, /* field name empty, not a token, or no ':' */
    SIMDHTTP_E_INVALID_HEADER_VALUE = 10, /* CTL (other than HTAB), DEL or NUL in a field value */
    SIMDHTTP_E_CR_EXPECTED = 11,        /* LF without CR before it (see lenient bare_lf) */
    SIMDHTTP_E_LF_EXPECTED = 12,        /* CR not followed by LF */
    SIMDHTTP_E_INVALID_CONTENT_LENGTH = 13, /* not 1*DIGIT, or over 2^64-1 */
    SIMDHTTP_E_UNEXPECTED_CONTENT_LENGTH = 14, /* Content-Length with Transfer-Encoding, or two
                                                  Content-Length fields that differ */
    SIMDHTTP_E_INVALID_TRANSFER_ENCODING = 15, /* request whose final coding is not chunked,
                                                  chunked applied twice, malformed list */
    SIMDHTTP_E_INVALID_CHUNK_SIZE = 16, /* not 1*HEXDIG, overflow, or junk after the size */
    SIMDHTTP_E_INVALID_CHUNK_EXTENSION = 17, /* malformed chunk-ext (name, '=', quoted-string) */
    SIMDHTTP_E_HEADER_OVERFLOW = 18,    /* head (or trailer section) larger than max_head_size */
    SIMDHTTP_E_TOO_MANY_HEADERS = 19,   /* more field lines than max_fields (or head->fields_cap) */
    SIMDHTTP_E_CHUNK_EXTENSIONS_OVERFLOW = 20, /* a chunk line over max_chunk_ext (its extensions,
                                                  or its size's leading zeros past 16 digits) */
    SIMDHTTP_E_INVALID_EOF_STATE = 21,  /* finish() in the middle of a message */
    SIMDHTTP_E_CLOSED_CONNECTION = 22,  /* bytes after a message that closes the connection */
    SIMDHTTP_E_INVALID_ARGUMENT = 23    /* misuse of the API (e.g. NULL data with len > 0);
                                           execute() on a paused parser is not one: it returns
                                           SIMDHTTP_E_PAUSED again */
} simdhttp_errno;

#define SIMDHTTP_ERRNO_COUNT 24

/* @return "INVALID_METHOD" etc. (the enum name without "SIMDHTTP_E_"; "OK" for SIMDHTTP_OK). */
SIMDHTTP_API const char *simdhttp_errno_name(simdhttp_errno err);
/* @return a short generic description of the code. */
SIMDHTTP_API const char *simdhttp_errno_reason(simdhttp_errno err);

/* ===================================================================================== */
/* 3. Lenient flags and limits                                                            */
/* ===================================================================================== */

/* Lenient flags, all off by default. The names are those of llhttp's
 * llhttp_set_lenient_<name>(); obs_fold, field_bare_cr and bare_lf are simdhttp's own. The bit
 * values do not all match llhttp's LENIENT_*, and `headers` is narrower: it admits bytes in
 * field values only, where llhttp's also lets a space follow the start line or precede a
 * field's colon. Each one reopens an attack that the strict default closes: enable one only for
 * traffic you know needs it. */
enum simdhttp_lenient {
    /* Allow any byte but CR, LF and NUL in field values. Reopens: header injection into
     * downstream systems that treat control bytes as separators. */
    SIMDHTTP_LENIENT_HEADERS = 1u << 0,
    /* Allow Content-Length together with Transfer-Encoding (chunked wins, CL is ignored, and
     * the connection closes after the message: RFC 9112 6.1). Reopens: request smuggling
     * (CL.TE) through a front end that trusts Content-Length. */
    SIMDHTTP_LENIENT_CHUNKED_LENGTH = 1u << 1,
    /* Keep parsing after any message that closes the connection: "Connection: close", an
     * HTTP/1.0 message without keep-alive, and the messages whose framing RFC 9112 6.1 calls
     * faulty (HTTP/1.0 with Transfer-Encoding; Content-Length with Transfer-Encoding under
     * chunked_length). Reopens: response queue poisoning behind proxies that close, and
     * request smuggling after a faulty message that another hop framed differently. */
    SIMDHTTP_LENIENT_KEEP_ALIVE = 1u << 2,
    /* Allow a request whose final transfer coding is not chunked (its body then runs until
     * the connection closes). Reopens: TE.TE smuggling via obfuscated codings. */
    SIMDHTTP_LENIENT_TRANSFER_ENCODING = 1u << 3,
    /* Accept any major version, "HTTP/" DIGIT "." DIGIT (treated as 1.1 from 1.1 up, 2.0
     * and above included; below 1.1 as 1.0). Without it HTTP/1.x is accepted, any x (a
     * minor above 1 is processed as 1.1 and http_minor reports it). Reopens: version
     * confusion between hops. */
    SIMDHTTP_LENIENT_VERSION = 1u << 4,
    /* Silently skip bytes after a message that closes the connection, instead of failing
     * with CLOSED_CONNECTION. Reopens: hides a pipelined request a peer may still act on. */
    SIMDHTTP_LENIENT_DATA_AFTER_CLOSE = 1u << 5,
    /* Accept a CR not followed by LF as a line end (start line, field lines, chunk lines).
     * Reopens: smuggling through hops that see a CR alone as an ordinary byte. */
    SIMDHTTP_LENIENT_OPTIONAL_LF_AFTER_CR = 1u << 6,
    /* Accept LF without CR as a line end everywhere (start line, field lines, end of head,
     * chunk lines). Reopens: smuggling through hops that need CRLF (RFC 9112 section 2.2
     * allows a recipient to accept a bare LF; this library does not unless asked). */
    SIMDHTTP_LENIENT_OPTIONAL_CR_BEFORE_LF = 1u << 7,
    /* Accept chunk data not followed by CRLF. Reopens: chunk boundary desynchronisation. */
    SIMDHTTP_LENIENT_OPTIONAL_CRLF_AFTER_CHUNK = 1u << 8,
    /* Accept SP/HTAB right before the line end of a chunk line ("5 \r\n", "5;a \r\n").
     * BWS before ';' and around '=' of chunk extensions ("5 ;a", "5; a = b") is RFC 9112
     * 7.1.1's grammar and always accepted. Reopens: chunk-size confusion with hops that stop
     * at the space. */
    SIMDHTTP_LENIENT_SPACES_AFTER_CHUNK_SIZE = 1u << 9,
    /* Accept obs-fold (a field line continued by a line starting with SP/HTAB). The streaming
     * API delivers the fold as one SP inside the value; the head API returns each continuation
     * line as an extra field with name == NULL, name_len == 0. Reopens: header smuggling
     * through hops that treat the continuation as a new field. */
    SIMDHTTP_LENIENT_OBS_FOLD = 1u << 10,
    /* Accept a CR not followed by LF as the end of a field line (only there: not the start
     * line, not the empty line that ends the head, not chunk lines; the byte after the CR
     * begins the next line). llhttp's lenient headers accepts it. Reopens: header smuggling
     * through hops that read the lone CR as part of the value (RFC 9112 section 2.2: a
     * recipient must reject it or replace it with SP). */
    SIMDHTTP_LENIENT_FIELD_BARE_CR = 1u << 11,
    /* Accept bytes 0x80-0xFF in a request-target after its first byte (raw UTF-8 from clients
     * that do not percent-encode, as llhttp and http-parser accept by default; RFC 9112
     * section 3.2 and RFC 3986 allow only ASCII there). SP, HTAB and CTLs stay refused: they
     * change the request-line's structure. Reopens: a target that hops decode or normalise
     * differently (an access rule on one spelling, the resource on another). */
    SIMDHTTP_LENIENT_TARGET_OBS_TEXT = 1u << 12
};
/* bare_lf is the same switch as optional_cr_before_lf, under the name RFC 9112 uses. */
#define SIMDHTTP_LENIENT_BARE_LF SIMDHTTP_LENIENT_OPTIONAL_CR_BEFORE_LF
#define SIMDHTTP_LENIENT_ALL 0x1fffu

/* Modes (docs/smuggling.md, "Modes"): three values for config.lenient (or simdhttp_set_mode),
 * each a set of the lenient flags above, chosen by the tiers of the deviations they admit
 * (simdhttp_reason below). Wherever a strict reading of a message exists, every mode frames it
 * the same way; the modes differ only in what they refuse and in when the connection closes.
 *   STRICT     every deviation the core refuses is refused (the default, 0).
 *   DEFENSIVE  ACCEPTABLE and AMBIGUOUS deviations that still frame one way are accepted (bare
 *              LF, obs-fold, control bytes in values, raw bytes >= 0x80 in a target, another
 *              major version, SP/HTAB at a chunk line's end, Content-Length with chunked);
 *              SEVERE ones stay refused; a message with an AMBIGUOUS (or worse) reason closes
 *              the connection after it (SIMDHTTP_CLOSE_AFTER_AMBIGUOUS).
 *   MONITOR    whatever can be framed at all is accepted (every lenient flag but
 *              data_after_close); the verdict says what was accepted. */
/* Not a lenient flag but a rule, in config.lenient's bits above the flags: a message with a
 * reason of tier AMBIGUOUS or SEVERE closes the connection after it (SIMDHTTP_F_CLOSE_AFTER;
 * should_keep_alive 0; the bytes after it are CLOSED_CONNECTION). */
#define SIMDHTTP_CLOSE_AFTER_AMBIGUOUS (1u << 16)
#define SIMDHTTP_MODE_STRICT 0u
#define SIMDHTTP_MODE_DEFENSIVE                                                                          \
    (SIMDHTTP_LENIENT_BARE_LF | SIMDHTTP_LENIENT_OBS_FOLD | SIMDHTTP_LENIENT_HEADERS |                     \
     SIMDHTTP_LENIENT_TARGET_OBS_TEXT | SIMDHTTP_LENIENT_VERSION | SIMDHTTP_LENIENT_SPACES_AFTER_CHUNK_SIZE | \
     SIMDHTTP_LENIENT_CHUNKED_LENGTH | SIMDHTTP_CLOSE_AFTER_AMBIGUOUS)
#define SIMDHTTP_MODE_MONITOR (SIMDHTTP_LENIENT_ALL & ~(unsigned)SIMDHTTP_LENIENT_DATA_AFTER_CLOSE)

/* @return the flag for a name ("headers", "chunked_length", ..., "obs_fold", "bare_lf"), or
 * 0 for an unknown name (and for NULL). */
SIMDHTTP_API unsigned simdhttp_lenient_from_name(const char *name, size_t len);
/* @return the name of a single flag bit, or NULL. */
SIMDHTTP_API const char *simdhttp_lenient_name(unsigned flag);

/* Desync verdicts (docs/smuggling.md, "Verdicts"). A message's tier says how far hops can
 * disagree on its framing; each reason is one named deviation, mapped to one tier by one
 * table (src/verdict.c), with its RFC section and the attack it serves. A message's tier is
 * the highest tier of its reasons; a message without reasons is COMPLIANT. The parser sets
 * them as it reads (parser->reasons, head->reasons), only on the paths that handle a
 * deviation; `simdhttp audit` reads captures with them. */
typedef enum simdhttp_tier {
    SIMDHTTP_TIER_COMPLIANT = 0,  /* RFC 9112 and 9110 as written */
    SIMDHTTP_TIER_ACCEPTABLE = 1, /* a deviation that every hop frames alike */
    SIMDHTTP_TIER_AMBIGUOUS = 2,  /* hops may read it differently: close the connection after it */
    SIMDHTTP_TIER_SEVERE = 3      /* its framing cannot be trusted: refuse it */
} simdhttp_tier;

typedef enum simdhttp_reason {
    SIMDHTTP_R_BARE_LF,              /* LF without CR ends a line (RFC 9112 2.2) */
    SIMDHTTP_R_BARE_CR,              /* CR without LF (RFC 9112 2.2) */
    SIMDHTTP_R_OBS_FOLD,             /* a field line continued by SP/HTAB (RFC 9112 5.2) */
    SIMDHTTP_R_WS_BEFORE_COLON,      /* SP/HTAB between a field name and ':' (RFC 9112 5.1) */
    SIMDHTTP_R_WS_BEFORE_FIELD,      /* SP/HTAB before the first field line (RFC 9112 2.2) */
    SIMDHTTP_R_CTL_IN_VALUE,         /* a control byte (not NUL) in a field value (RFC 9110 5.5) */
    SIMDHTTP_R_NUL,                  /* NUL in a field name or value (RFC 9110 5.5) */
    SIMDHTTP_R_BAD_FIELD_NAME,       /* a field name empty or not a token (RFC 9110 5.1) */
    SIMDHTTP_R_NO_COLON,             /* a field line without ':' (RFC 9112 5): skipped by some hops,
                                        joined to a name by others */
    SIMDHTTP_R_FRAMING_LOOKALIKE,    /* a name whose letters are a framing field's, other bytes
                                        aside ("Content_Length", "Transfer---Encoding") (RFC 9110 5.1) */
    SIMDHTTP_R_EXTRA_SPACE,          /* more than one SP between request-line elements (RFC 9112 3) */
    SIMDHTTP_R_SPACE_IN_TARGET,      /* SP inside the request-target: a hop that splits at the last
                                        SP reads another target (RFC 9112 3.2) */
    SIMDHTTP_R_TARGET_OBS_TEXT,      /* bytes >= 0x80 in the request-target (RFC 9112 3.2) */
    SIMDHTTP_R_BAD_TARGET,           /* a control byte, or nothing, as the request-target (RFC 9112 3.2) */
    SIMDHTTP_R_VERSION_MINOR,        /* HTTP/1.x, x > 1: processed as 1.1 (RFC 9110 2.5) */
    SIMDHTTP_R_VERSION_MAJOR,        /* an HTTP major version other than 1 (RFC 9112 2.3) */
    SIMDHTTP_R_CL_AND_TE,            /* Content-Length with Transfer-Encoding (RFC 9112 6.1) */
    SIMDHTTP_R_CL_DUPLICATE,         /* two equal Content-Length fields (RFC 9110 8.6) */
    SIMDHTTP_R_CL_DIFFERENT,         /* Content-Length fields that differ (RFC 9110 8.6) */
    SIMDHTTP_R_CL_INVALID,           /* Content-Length not 1*DIGIT, a list, or over 2^64-1 (RFC 9110 8.6) */
    SIMDHTTP_R_TE_NOT_CHUNKED,       /* a request whose final coding is not chunked (RFC 9112 6.3) */
    SIMDHTTP_R_TE_CHUNKED_TWICE,     /* chunked applied more than once (RFC 9112 6.1) */
    SIMDHTTP_R_TE_INVALID,           /* Transfer-Encoding not a list of codings (RFC 9112 6.1) */
    SIMDHTTP_R_TE_UNKNOWN_CODING,    /* a coding other than chunked, gzip, deflate, compress (RFC 9112 7) */
    SIMDHTTP_R_TE_IN_HTTP10,         /* Transfer-Encoding in an HTTP/1.0 message (RFC 9112 6.1) */
    SIMDHTTP_R_BODY_ON_GET,          /* Content-Length or Transfer-Encoding on GET, HEAD, OPTIONS
                                        or TRACE (RFC 9110 9.3.1) */
    SIMDHTTP_R_CHUNK_SIZE_WS,        /* SP/HTAB at the end of a chunk line (RFC 9112 7.1) */
    SIMDHTTP_R_CHUNK_SIZE_INVALID,   /* a chunk size not 1*HEXDIG, or over 2^64-1 (RFC 9112 7.1) */
    SIMDHTTP_R_CHUNK_EXT_INVALID,    /* a malformed chunk extension (RFC 9112 7.1.1) */
    SIMDHTTP_R_CHUNK_DATA_NO_CRLF,   /* chunk data not followed by CRLF (RFC 9112 7.1) */
    SIMDHTTP_R_DATA_AFTER_CLOSE,     /* bytes after a message that closes the connection (RFC 9112 9.6) */
    SIMDHTTP_R_MALFORMED,            /* anything else no reading can frame (a bad method, status,
                                        version syntax, a limit) */
    SIMDHTTP_R_COUNT                 /* one past the last reason */
} simdhttp_reason;
/* A message's reasons: bit r for simdhttp_reason r. */
#define SIMDHTTP_REASON_BIT(r) (1ull << (r))

/* @return "COMPLIANT" ... "SEVERE", or NULL for a value out of range. */
SIMDHTTP_API const char *simdhttp_tier_name(simdhttp_tier tier);
/* @return the reason's name without "SIMDHTTP_R_" ("BARE_LF"), or NULL out of range. */
SIMDHTTP_API const char *simdhttp_reason_name(simdhttp_reason reason);
/* @return the reason's tier (SIMDHTTP_TIER_SEVERE out of range). */
SIMDHTTP_API simdhttp_tier simdhttp_reason_tier(simdhttp_reason reason);
/* @return the highest tier of the reasons in mask (bits SIMDHTTP_REASON_BIT), COMPLIANT for 0. */
SIMDHTTP_API simdhttp_tier simdhttp_reasons_tier(uint64_t mask);

/* Limits. Exceeding one is the named error beside it, at the offset of the first byte past it. */
#define SIMDHTTP_DEFAULT_MAX_HEAD_SIZE (80u * 1024) /* HEADER_OVERFLOW: start line + field lines
                                                       + final CRLF, leading empty lines included;
                                                       also the size of a trailer section */
#define SIMDHTTP_DEFAULT_MAX_FIELDS 128u            /* TOO_MANY_HEADERS: field lines per head
                                                       (and per trailer section) */
#define SIMDHTTP_DEFAULT_MAX_CHUNK_EXT 4096u        /* CHUNK_EXTENSIONS_OVERFLOW: bytes after
                                                       the chunk size (BWS, extensions) to the
                                                       end of one chunk line; digits of the
                                                       size past the 16th (leading zeros: 16
                                                       hold any 64-bit size) count too */

/* Options shared by both APIs. Zero-initialise and set what you need: a zero limit means
 * "the default", so `simdhttp_config cfg = {0};` is the strict default configuration. */
typedef struct simdhttp_config {
    uint32_t lenient;       /* SIMDHTTP_LENIENT_* bits */
    uint32_t max_head_size; /* 0: SIMDHTTP_DEFAULT_MAX_HEAD_SIZE */
    uint32_t max_fields;    /* 0: SIMDHTTP_DEFAULT_MAX_FIELDS */
    uint32_t max_chunk_ext; /* 0: SIMDHTTP_DEFAULT_MAX_CHUNK_EXT */
    int32_t pause_value;    /* 0: SIMDHTTP_PAUSE. The callback return value that pauses the
                               streaming parser: a layer whose callbacks follow another API's
                               contract (llhttp's HPE_PAUSED) installs them directly. 1 and 2
                               are refused (they are SIMDHTTP_SKIP_BODY and _UPGRADE, which
                               on_headers_complete returns): simdhttp_init then leaves the
                               parser in SIMDHTTP_E_INVALID_ARGUMENT, which every execute()
                               and finish() returns. The head API and the chunked decoder
                               ignore it. */
} simdhttp_config;

/* ===================================================================================== */
/* 4. The streaming parser                                                                */
/* ===================================================================================== */

typedef enum simdhttp_type {
    SIMDHTTP_REQUEST = 1,
    SIMDHTTP_RESPONSE = 2,
    SIMDHTTP_BOTH = 3 /* decided by the first message ("HTTP/" starts a response), then fixed */
} simdhttp_type;

/* Methods: every name in the IANA HTTP Method Registry has an id (RFC 9110 section 16.1; the
 * registry as of 2024, "*" excepted: it is reserved, not a method). Any other token is a valid
 * method too (RFC 9110 section 9.1: the set is extensible): it gets SIMDHTTP_METHOD_OTHER and
 * the on_method span (or head->method_str) says which. Methods are case-sensitive: "get" is
 * OTHER. Ids are stable: new registrations are only added at the end. Only CONNECT changes
 * how a message is parsed. */
typedef enum simdhttp_method {
    SIMDHTTP_METHOD_OTHER = 0,
    SIMDHTTP_METHOD_GET,
    SIMDHTTP_METHOD_HEAD,
    SIMDHTTP_METHOD_POST,
    SIMDHTTP_METHOD_PUT,
    SIMDHTTP_METHOD_DELETE,
    SIMDHTTP_METHOD_CONNECT,
    SIMDHTTP_METHOD_OPTIONS,
    SIMDHTTP_METHOD_TRACE,
    SIMDHTTP_METHOD_PATCH,
    /* the rest of the registry, in alphabetical order (WebDAV and its relatives, and PRI,
     * the HTTP/2 connection preface's method, RFC 9113 section 3.4) */
    SIMDHTTP_METHOD_ACL = 10,
    SIMDHTTP_METHOD_BASELINE_CONTROL,
    SIMDHTTP_METHOD_BIND,
    SIMDHTTP_METHOD_CHECKIN,
    SIMDHTTP_METHOD_CHECKOUT,
    SIMDHTTP_METHOD_COPY,
    SIMDHTTP_METHOD_LABEL,
    SIMDHTTP_METHOD_LINK,
    SIMDHTTP_METHOD_LOCK,
    SIMDHTTP_METHOD_MERGE,
    SIMDHTTP_METHOD_MKACTIVITY = 20,
    SIMDHTTP_METHOD_MKCALENDAR,
    SIMDHTTP_METHOD_MKCOL,
    SIMDHTTP_METHOD_MKREDIRECTREF,
    SIMDHTTP_METHOD_MKWORKSPACE,
    SIMDHTTP_METHOD_MOVE,
    SIMDHTTP_METHOD_ORDERPATCH,
    SIMDHTTP_METHOD_PRI,
    SIMDHTTP_METHOD_PROPFIND,
    SIMDHTTP_METHOD_PROPPATCH,
    SIMDHTTP_METHOD_REBIND = 30,
    SIMDHTTP_METHOD_REPORT,
    SIMDHTTP_METHOD_SEARCH,
    SIMDHTTP_METHOD_UNBIND,
    SIMDHTTP_METHOD_UNCHECKOUT,
    SIMDHTTP_METHOD_UNLINK,
    SIMDHTTP_METHOD_UNLOCK,
    SIMDHTTP_METHOD_UPDATE,
    SIMDHTTP_METHOD_UPDATEREDIRECTREF,
    SIMDHTTP_METHOD_VERSION_CONTROL,
    SIMDHTTP_METHOD_COUNT /* one past the last id */
} simdhttp_method;

/* Message flags (parser->flags, head->flags), valid from on_headers_complete on. */
enum simdhttp_flags {
    SIMDHTTP_F_CONNECTION_CLOSE = 1u << 0,      /* Connection: close */
    SIMDHTTP_F_CONNECTION_KEEP_ALIVE = 1u << 1, /* Connection: keep-alive */
    SIMDHTTP_F_CONNECTION_UPGRADE = 1u << 2,    /* Connection: upgrade */
    SIMDHTTP_F_CHUNKED = 1u << 3,               /* final transfer coding is chunked */
    SIMDHTTP_F_UPGRADE = 1u << 4,               /* the connection switches protocols after this
                                                   message (Upgrade + Connection: upgrade,
                                                   CONNECT, 101); execute() stops there with
                                                   SIMDHTTP_E_PAUSED_UPGRADE */
    SIMDHTTP_F_CONTENT_LENGTH = 1u << 5,        /* Content-Length present */
    SIMDHTTP_F_TRANSFER_ENCODING = 1u << 6,     /* Transfer-Encoding present */
    SIMDHTTP_F_TRAILERS = 1u << 7,              /* field callbacks now deliver trailer fields */
    SIMDHTTP_F_SKIP_BODY = 1u << 8,             /* no body follows this head */
    SIMDHTTP_F_BODY_UNTIL_CLOSE = 1u << 9,      /* body runs until finish() */
    SIMDHTTP_F_KEEP_ALIVE = 1u << 10,           /* the connection persists after this message */
    SIMDHTTP_F_CLOSE_AFTER = 1u << 11           /* the connection closes after this message because
                                                   of its verdict (SIMDHTTP_CLOSE_AFTER_AMBIGUOUS) */
};

typedef struct simdhttp_parser simdhttp_parser;

/* Callback return values. Return 0 to go on. Return SIMDHTTP_PAUSE to pause: execute() returns
 * SIMDHTTP_E_PAUSED right after this callback, simdhttp_get_error_pos() points at the first byte not
 * yet consumed, and after simdhttp_resume() the caller calls execute() again from that byte.
 * Any other non-zero value stops parsing with SIMDHTTP_E_USER (sticky until reset). */
#define SIMDHTTP_PAUSE (-2)
/* on_headers_complete may also return these. Without a body, a response that would have
 * run until close persists (as its version and Connection say); the close that RFC 9112 6.1
 * and 6.3 ask after faulty framing (HTTP/1.0 with Transfer-Encoding, Content-Length with it
 * under lenient chunked_length, a request whose final coding is not chunked) stays. */
#define SIMDHTTP_SKIP_BODY 1         /* no body follows (e.g. the answer to a HEAD request) */
#define SIMDHTTP_SKIP_BODY_UPGRADE 2 /* no body, and the connection switches protocols */

typedef int (*simdhttp_cb)(simdhttp_parser *p);
typedef int (*simdhttp_data_cb)(simdhttp_parser *p, const char *at, size_t len);

/* Data callbacks get a span of the caller's buffer, with two exceptions that point at constant
 * bytes of the library: with SIMDHTTP_BOTH, the first bytes of a method that began like
 * "HTTP/" ("H" of "HEAD", when the decision came in a later buffer), and the single SP that
 * replaces an obs-fold. One element (a method, a field value...)
 * may come in several spans when it crosses execute() calls; their concatenation is the
 * element, and the matching *_complete callback says it ended. The spans' concatenation, the
 * order of all callbacks and the final result do not depend on how the input was split.
 * Any callback may be NULL. */
typedef struct simdhttp_callbacks {
    simdhttp_cb on_message_begin;
    simdhttp_data_cb on_method;      /* request */
    simdhttp_data_cb on_url;         /* request-target */
    simdhttp_data_cb on_version;     /* "1.1": the DIGIT "." DIGIT after "HTTP/" */
    simdhttp_data_cb on_status_code; /* response: the 3 digits; parser->status_code is set
                                        before on_status_code_complete */
    simdhttp_data_cb on_status;      /* response: the reason phrase (may be empty: no span) */
    /* Field name, then value. The value excludes leading OWS but INCLUDES trailing OWS
     * (SP/HTAB before the line end): a streaming parser cannot know that a space is trailing
     * until it sees the line end, which may come in a later buffer. Trim it at
     * on_header_value_complete (the head API and simdhttp_fields do it for you). */
    simdhttp_data_cb on_header_field;
    simdhttp_data_cb on_header_value;
    simdhttp_cb on_method_complete;
    simdhttp_cb on_url_complete;
    simdhttp_cb on_version_complete;
    simdhttp_cb on_status_code_complete;
    simdhttp_cb on_status_complete;
    simdhttp_cb on_header_field_complete;
    simdhttp_cb on_header_value_complete;
    /* Framing is known: parser->flags, content_length, http_major/minor, method or status_code.
     * May return SIMDHTTP_SKIP_BODY or SIMDHTTP_SKIP_BODY_UPGRADE (see above). */
    simdhttp_cb on_headers_complete;
    simdhttp_data_cb on_body;        /* body bytes, chunks already decoded (no chunk framing) */
    simdhttp_cb on_chunk_header;     /* parser->content_length is this chunk's size (0: last);
                                        called at the end of the chunk line, so after the
                                        chunk-extension callbacks of that line */
    simdhttp_data_cb on_chunk_extension_name;
    simdhttp_data_cb on_chunk_extension_value; /* raw bytes, quotes included if quoted */
    simdhttp_cb on_chunk_extension_name_complete;
    simdhttp_cb on_chunk_extension_value_complete;
    simdhttp_cb on_chunk_complete;   /* after a chunk's data CRLF; for the last chunk, after the
                                        trailer section (trailer fields arrive through the field
                                        callbacks with SIMDHTTP_F_TRAILERS set) */
    simdhttp_cb on_message_complete;
    /* Optional: a whole field line in one call, instead of the four callbacks above (field,
     * field_complete, value, value_complete): the name, and the value without leading or
     * trailing OWS (as the head API gives it). One indirect call per field instead of four.
     * It is used for a field line of the head that is whole in the buffer of one execute()
     * call, from its first byte through its CRLF and the first byte of the next line (which
     * says the field is not continued by an obs-fold), when that line is valid. Framing fields
     * (Content-Length, Transfer-Encoding, Connection, Upgrade) come this way too, after the
     * parser has interpreted them, when the value is one token (one number, one coding, one
     * option: the usual form); a list or an invalid value comes through the span callbacks.
     * Every other field line comes through on_header_field /
     * on_header_value and their *_complete callbacks exactly as when this is NULL: a line that
     * crosses execute() calls (its spans may be in different buffers: the library copies
     * nothing), a line followed by an obs-fold (lenient obs_fold), a line with bare LF, trailer
     * fields, and a line that is invalid (the error comes after its spans, as without this).
     * So a user who sets it still handles the span callbacks for those lines; with input that
     * arrives whole, they are rare. Which way a line comes depends on where the buffers are
     * split; everything else (the other events, errors and their offsets) does not.
     * Returns like a data callback: SIMDHTTP_PAUSE resumes at the next line. */
    int (*on_header)(simdhttp_parser *p, const char *name, size_t name_len, const char *value,
                     size_t value_len);
} simdhttp_callbacks;

/* The parser object. Allocate it where you like (it is plain memory, 152 bytes on 64-bit
 * targets, and the library never allocates); init it once, reset it to reuse it. Fields above
 * the line are for reading from callbacks; the rest is private. */
struct simdhttp_parser {
    void *data;               /* yours */
    uint64_t content_length;  /* Content-Length, or the current chunk's size; then what is left */
    uint32_t flags;           /* SIMDHTTP_F_* of the current message */
    uint16_t status_code;     /* response */
    uint8_t type;             /* SIMDHTTP_REQUEST / SIMDHTTP_RESPONSE (BOTH until decided) */
    uint8_t method;           /* simdhttp_method of the current request */
    uint8_t http_major;
    uint8_t http_minor;
    uint8_t upgrade;          /* 1 once execute() returned SIMDHTTP_E_PAUSED_UPGRADE */
    uint32_t reasons;         /* the current message's verdict so far: SIMDHTTP_REASON_BIT(r)
                                 of each deviation read (accepted, or the one refused with the
                                 error); simdhttp_reasons_tier() gives its tier. Framing reasons
                                 are known at on_headers_complete, chunk reasons at
                                 on_message_complete. */
    /* ---- private ----
     * Ownership: every private member has one owner, the step that sets it before anything
     * can read it, so that no decision depends on what the memory held before init or on
     * what an earlier message, field or parser left (issue 9: a stale _cand turned a request
     * into an upgrade). The owners:
     *   [init] simdhttp_init and simdhttp_reset (simdhttp__configure, src/parser.c; the head
     *          API's own parser, which lives inside one call, gets only the [init] members
     *          it reads: simdhttp__configure_head, src/internal.h);
     *   [msg]  the start of each message (msg_start in src/core.h);
     *   [elem] the start of the element that uses it, named beside the member.
     * A member added here needs its tag and its setter at that step. The MemorySanitizer
     * build and tests/test_state.c (parsers over dirty memory, reset at every offset) check
     * the rule. Public members above: [init], then [msg] (upgrade: [init]). The chunked
     * decoder and simdhttp_parse_fields start a parser past [msg], in the chunk-size or
     * field-line state: they set flags and _want there (src/chunked.c, src/dispatch.c). */
    const simdhttp_callbacks *_cb;  /* [init] */
    const char *_reason;            /* [init] NULL; then set together with _error, or by
                                       simdhttp_set_error_reason; NULL again at resume */
    const char *_error_pos;         /* [init]; then set with a pause, upgrade or error */
    uint64_t _nread;                /* [init] bytes consumed before the current execute() */
    uint64_t _error_offset;         /* [init]; then set with _error_pos */
    uint64_t _acc;                  /* [elem] number being accumulated: a special field's
                                       value (sh_special_begin), a chunk size (its first digit) */
    uint32_t _lenient, _max_head_size, _max_fields, _max_chunk_ext; /* [init] */
    uint32_t _head_left;            /* [init]; then at each head and trailer section's start */
    uint32_t _fields_left;          /* [init] [msg]; then at the trailer section's start */
    uint32_t _ext_left;             /* [elem] a chunk size's end (a size starting with 0 that
                                       the byte states read: its first digit) */
    simdhttp_errno _error;          /* [init] */
    uint16_t _idx;                  /* [msg] [elem] bytes matched of a short element: type
                                       detection, version, status code, special value; the
                                       digits of a chunk size starting with 0 that the byte
                                       states read (its first digit) */
    uint8_t _state;                 /* [init] */
    uint8_t _next;                  /* [elem] every jump to a line end (read only there) */
    uint8_t _hstate;                /* [msg] [elem] a field's name (H_NONE in trailers) */
    uint8_t _sub;                   /* [elem] a special value (sh_special_begin), a chunk-ext
                                       value's start, a chunk-ext name's or value's end */
    uint8_t _want;                  /* [msg] [elem] start line end, each value, last chunk; a
                                       value's bits: 1 its end owed, 2 empty so far, 4 the span
                                       before its error given (core.h) */
    uint8_t _te;                    /* [msg] */
    uint8_t _cand;                  /* [elem] a special value (sh_special_begin) */
    uint8_t _nlen;                  /* [msg] [elem] a field's name */
    uint8_t _init_type;             /* [init] */
    uint8_t _cb_which;              /* [init] 0; then set with _cb_rc */
    int32_t _pause_rc;              /* [init] config's pause_value */
    int32_t _cb_rc;                 /* [init] 0; then what the callback that stopped returned */
    char _nbuf[18];                 /* first bytes of a method or field name split across
                                       calls: written (sh_keep) before read, _nlen bytes */
};

/* Initialise for `type` with callbacks `cb` (kept by pointer: it must outlive the parser; NULL
 * means none) and options `cfg` (copied; NULL means the strict defaults). Every member is set,
 * p->data too (to NULL): set p->data after init, not before. */
SIMDHTTP_API void simdhttp_init(simdhttp_parser *p, simdhttp_type type,
                                const simdhttp_callbacks *cb, const simdhttp_config *cfg);
/* Back to the state right after init (same type, callbacks, options; offsets restart at 0;
 * p->data kept). Clears any error. */
SIMDHTTP_API void simdhttp_reset(simdhttp_parser *p);
/* Replace the callbacks (kept by pointer, as by init; NULL means none), leaving the parse where
 * it is: the parser's next callback comes from them, in whatever element it is (a value begun
 * under the old ones goes on through the new on_header_value), also when it is called from a
 * callback. As llhttp's parser->settings, read at each callback; http-parser takes its
 * settings at each execute() call. */
SIMDHTTP_API void simdhttp_set_callbacks(simdhttp_parser *p, const simdhttp_callbacks *cb);

/* Parse `len` bytes that follow the bytes given before. Every byte is consumed unless the
 * result is not SIMDHTTP_OK. len 0 is fine (data may then be NULL): it consumes nothing and
 * only completes steps that need no bytes (after resume(): e.g. on_message_complete of a
 * message without a body), so on a parser at rest it is a no-op returning the current state.
 * NULL data with len > 0 is SIMDHTTP_E_INVALID_ARGUMENT (sticky).
 * @return SIMDHTTP_OK; SIMDHTTP_E_PAUSED or SIMDHTTP_E_PAUSED_UPGRADE (simdhttp_get_error_pos()
 * tells where the unconsumed bytes begin); or an error, which sticks until reset. */
SIMDHTTP_API simdhttp_errno simdhttp_execute(simdhttp_parser *p, const char *data, size_t len);
/* The end of the stream. It first takes the steps that need no more bytes (as execute() with
 * an empty buffer), so a message paused at on_headers_complete and resumed ends here too when
 * its body runs until the close or it has none; then a body delimited by the close ends
 * (on_message_complete). A callback's pause at the end of the stream holds nothing: finish()
 * resumes it and goes on.
 * On a parser paused by a callback and not yet resumed, finish() does nothing and returns
 * SIMDHTTP_E_PAUSED: the bytes after the pause were never parsed, so the message cannot be
 * declared complete; resume() (and execute() the rest), then finish(). llhttp_finish()
 * returns HPE_OK there without completing the message (the llhttp layer does the same).
 * @return SIMDHTTP_OK between messages (and after an upgrade); SIMDHTTP_E_INVALID_EOF_STATE
 * inside one; SIMDHTTP_E_PAUSED on a paused parser; a callback's error; or the sticky error. */
SIMDHTTP_API simdhttp_errno simdhttp_finish(simdhttp_parser *p);
/* After SIMDHTTP_E_PAUSED: clear the pause; call execute() again from simdhttp_get_error_pos().
 * Until then, execute() on the paused parser consumes nothing and returns SIMDHTTP_E_PAUSED. */
SIMDHTTP_API void simdhttp_resume(simdhttp_parser *p);
/* After SIMDHTTP_E_PAUSED_UPGRADE, for a caller that declines the upgrade: go on parsing the
 * following bytes as HTTP messages. */
SIMDHTTP_API void simdhttp_resume_after_upgrade(simdhttp_parser *p);

SIMDHTTP_API simdhttp_errno simdhttp_get_errno(const simdhttp_parser *p);
/* After a callback stopped the parser (SIMDHTTP_E_PAUSED or SIMDHTTP_E_USER): @return the value
 * it returned, and if `which` is not NULL, *which = offsetof(simdhttp_callbacks, <its member>),
 * e.g. offsetof(simdhttp_callbacks, on_url) (a compatibility layer maps the error to its API's
 * code for that callback). @return 0 if no callback stopped it since init or reset. */
SIMDHTTP_API int simdhttp_get_callback_result(const simdhttp_parser *p, size_t *which);
/* @return a sentence naming what was wrong (more precise than simdhttp_errno_reason), or the
 * reason a callback gave with simdhttp_set_error_reason; NULL while there is no error. */
SIMDHTTP_API const char *simdhttp_get_error_reason(const simdhttp_parser *p);
/* From a callback that is about to return an error (or SIMDHTTP_PAUSE): the reason
 * simdhttp_get_error_reason() will give, instead of "a callback returned an error" (as
 * llhttp_set_error_reason). `reason` is kept by pointer: a string that outlives the error.
 * The reason holds until the parser stops; it is cleared by resume(), resume_after_upgrade()
 * and reset(), so a callback that set one and then returned 0 leaves it for the next stop. */
SIMDHTTP_API void simdhttp_set_error_reason(simdhttp_parser *p, const char *reason);
/* @return the absolute offset of the error (or of the first unconsumed byte after a pause). */
SIMDHTTP_API uint64_t simdhttp_get_error_offset(const simdhttp_parser *p);
/* @return a pointer into the last execute() buffer: the error byte; or the first byte not
 * consumed after a pause or an upgrade. An error sticks: a later execute() consumes nothing
 * and moves this to its own data (the first byte not consumed), so it never points into a
 * buffer you may have freed; get_error_offset() keeps the error's offset. While paused, a
 * refused execute() leaves it where the pause put it. NULL after an error that finish()
 * reported (no buffer) or a NULL data argument. */
SIMDHTTP_API const char *simdhttp_get_error_pos(const simdhttp_parser *p);
/* @return 1 if the connection persists after the current message (HTTP/1.1 unless
 * "Connection: close"; HTTP/1.0 only with "Connection: keep-alive"; never after a body that
 * runs until close), else 0. Valid from on_headers_complete on. */
SIMDHTTP_API int simdhttp_should_keep_alive(const simdhttp_parser *p);
/* @return 1 if the current message's body runs until the end of the stream (a response with
 * neither Content-Length nor chunked framing), so that only simdhttp_finish() completes it;
 * else 0. Valid from on_headers_complete on (as llhttp_message_needs_eof). */
SIMDHTTP_API int simdhttp_message_needs_eof(const simdhttp_parser *p);
/* @return the name of a method ("GET", "VERSION-CONTROL"), or NULL for SIMDHTTP_METHOD_OTHER
 * and values outside the enum. */
SIMDHTTP_API const char *simdhttp_method_name(simdhttp_method m);
/* @return the id of a method name (exact, case-sensitive), or SIMDHTTP_METHOD_OTHER. The
 * parser classifies the same way. */
SIMDHTTP_API simdhttp_method simdhttp_method_from_name(const char *name, size_t len);
/* @return the reason phrase RFC 9110 section 15 (and the IANA HTTP Status Code Registry) gives
 * a status code ("Not Found"; 413 "Content Too Large"), or NULL for a code the registry does
 * not assign (including 306 and 418, registered as "(Unused)"). */
SIMDHTTP_API const char *simdhttp_status_name(unsigned status_code);

/* llhttp's span convention (enabled: 1 on, 0 off; off after init, kept by reset): a field
 * value that is empty or whitespace only gets an on_header_value call with length 0 at its line
 * end, and an element that is empty where its error is found (a field name before ':', a field
 * value, a chunk extension's name or value) gets its span callback with length 0 at that byte
 * before the error; and a span that went on to the end of one execute() (a method, target,
 * version, reason phrase, field name or value, body, chunk extension name or value) gets its
 * callback with length 0 at the next buffer's start where that buffer's first byte ends it,
 * and at the buffer's start in an execute() of no bytes (not of NULL) while it is open: llhttp
 * restarts an open span at each call. A program that joins consecutive on_header_field pieces
 * into one name, as most llhttp users do, needs the first: without a value between them, "X-A:" CRLF
 * "Transfer-Encoding: chunked" would read as one field "X-ATransfer-Encoding". simdhttp's own
 * convention (off) calls no span callback for zero bytes: on_header_field_complete and
 * on_header_value_complete delimit the elements. The llhttp layer turns it on. */
SIMDHTTP_API void simdhttp_set_empty_spans(simdhttp_parser *p, int enabled);

/* One setter per lenient flag, named like llhttp's (enabled: 1 on, 0 off). */
SIMDHTTP_API void simdhttp_set_lenient(simdhttp_parser *p, unsigned flags, int enabled);
SIMDHTTP_API void simdhttp_set_lenient_headers(simdhttp_parser *p, int enabled);
SIMDHTTP_API void simdhttp_set_lenient_chunked_length(simdhttp_parser *p, int enabled);
SIMDHTTP_API void simdhttp_set_lenient_keep_alive(simdhttp_parser *p, int enabled);
SIMDHTTP_API void simdhttp_set_lenient_transfer_encoding(simdhttp_parser *p, int enabled);
SIMDHTTP_API void simdhttp_set_lenient_version(simdhttp_parser *p, int enabled);
SIMDHTTP_API void simdhttp_set_lenient_data_after_close(simdhttp_parser *p, int enabled);
SIMDHTTP_API void simdhttp_set_lenient_optional_lf_after_cr(simdhttp_parser *p, int enabled);
SIMDHTTP_API void simdhttp_set_lenient_optional_cr_before_lf(simdhttp_parser *p, int enabled);
SIMDHTTP_API void simdhttp_set_lenient_optional_crlf_after_chunk(simdhttp_parser *p, int enabled);
SIMDHTTP_API void simdhttp_set_lenient_spaces_after_chunk_size(simdhttp_parser *p, int enabled);
SIMDHTTP_API void simdhttp_set_lenient_obs_fold(simdhttp_parser *p, int enabled);
SIMDHTTP_API void simdhttp_set_lenient_field_bare_cr(simdhttp_parser *p, int enabled);
SIMDHTTP_API void simdhttp_set_lenient_bare_lf(simdhttp_parser *p, int enabled);
SIMDHTTP_API void simdhttp_set_lenient_target_obs_text(simdhttp_parser *p, int enabled);
/* Set the mode (SIMDHTTP_MODE_STRICT, _DEFENSIVE or _MONITOR, or any set of lenient flags and
 * SIMDHTTP_CLOSE_AFTER_AMBIGUOUS): replaces every lenient flag, as config.lenient does at init. */
SIMDHTTP_API void simdhttp_set_mode(simdhttp_parser *p, unsigned mode);
/* @return the mode named "strict", "defensive" or "monitor" (len bytes), or -1. */
SIMDHTTP_API long simdhttp_mode_from_name(const char *name, size_t len);

/* ===================================================================================== */
/* 5. The zero-copy head API                                                              */
/* ===================================================================================== */

/* One field line: spans into the caller's buffer. The value has no leading or trailing OWS.
 * name == NULL (name_len 0) marks an obs-fold continuation line (only with the obs_fold flag). */
typedef struct simdhttp_field {
    const char *name;
    size_t name_len;
    const char *value;
    size_t value_len;
} simdhttp_field;

typedef struct simdhttp_head {
    /* in: where to put the fields (caller-owned), and how many fit */
    simdhttp_field *fields;
    size_t fields_cap;
    /* out */
    size_t num_fields;
    uint8_t type;            /* SIMDHTTP_REQUEST or SIMDHTTP_RESPONSE */
    uint8_t method;          /* simdhttp_method */
    uint8_t http_major, http_minor;
    uint16_t status_code;
    uint32_t flags;          /* SIMDHTTP_F_* (framing, keep-alive, upgrade) */
    uint32_t reasons;        /* the head's verdict: SIMDHTTP_REASON_BIT(r) of each deviation
                                (accepted, or with SIMDHTTP_HEAD_ERROR the one refused) */
    uint64_t content_length; /* if flags & SIMDHTTP_F_CONTENT_LENGTH */
    const char *method_str;  size_t method_len;  /* request */
    const char *target;      size_t target_len;  /* request */
    const char *reason;      size_t reason_len;  /* response */
    /* error details when the result is SIMDHTTP_HEAD_ERROR */
    simdhttp_errno error;
    const char *error_reason;
    size_t error_offset;
} simdhttp_head;

#define SIMDHTTP_HEAD_ERROR (-1)
#define SIMDHTTP_HEAD_INCOMPLETE (-2)

/* Parse the head (start line and field lines, up to and including the empty line) at the start of
 * buf[0..len) with the same rules, limits and error codes as the streaming parser. Leading empty
 * lines before the start line (a request's or a response's) are skipped. More than min(max_fields,
 * head->fields_cap) fields is TOO_MANY_HEADERS; the head is then filled as far as it goes, enough
 * to log the request or answer 431: type, method_str and target (or reason) and
 * fields[0..num_fields), where num_fields is the capacity. After that or any other error (the
 * INVALID_ARGUMENT refusals below too), head->type is the message's type (the `type` argument if
 * the error came before it was decided); method, status_code, the version, flags and
 * content_length are 0; method_str, target and reason are NULL, 0 or the element's start (with its
 * length once the element ended). `type` may be SIMDHTTP_BOTH. The flags say how the body is
 * framed: SIMDHTTP_F_CHUNKED, SIMDHTTP_F_CONTENT_LENGTH, SIMDHTTP_F_BODY_UNTIL_CLOSE (a response
 * with neither), SIMDHTTP_F_SKIP_BODY (1xx, 204, 304; a request with neither).
 * buf may be NULL when len is 0 (the result is then SIMDHTTP_HEAD_INCOMPLETE); NULL with
 * len > 0 is SIMDHTTP_HEAD_ERROR with SIMDHTTP_E_INVALID_ARGUMENT. head->fields may be NULL
 * when head->fields_cap is 0 (no field fits: a head with a field line is TOO_MANY_HEADERS, as
 * picohttpparser's -1 with *num_headers 0); NULL with fields_cap > 0 is SIMDHTTP_HEAD_ERROR
 * with SIMDHTTP_E_INVALID_ARGUMENT. The same holds for simdhttp_parse_fields and the
 * _continue calls.
 * @return the length of the head (> 0); SIMDHTTP_HEAD_INCOMPLETE if buf ends before the head
 * does (and before any limit is reached); SIMDHTTP_HEAD_ERROR with head->error,
 * head->error_reason and head->error_offset set. */
SIMDHTTP_API long simdhttp_parse_head(simdhttp_head *head, simdhttp_type type, const char *buf,
                                      size_t len, const simdhttp_config *cfg);

/* The head API on a buffer that grows as bytes arrive (picohttpparser's `last_len`). Calling
 * simdhttp_parse_head again on each longer buffer re-parses the whole prefix every time:
 * quadratic, a CPU amplification any slow client can trigger. Instead pass last_len: the len
 * of the previous call on this buffer, which returned SIMDHTTP_HEAD_INCOMPLETE, or 0 for the
 * first call. buf[0..last_len) must hold the same bytes as then (the buffer may have moved,
 * as after realloc); head, type and cfg the same values.
 *
 *     size_t len = 0, last_len = 0;
 *     for (;;) {
 *         len += read(fd, buf + len, cap - len);                     (errors, EOF: yours)
 *         long r = simdhttp_parse_head_continue(&h, SIMDHTTP_REQUEST, buf, len, last_len, &cfg);
 *         if (r > 0) break;                                   (the head is buf[0..r))
 *         if (r == SIMDHTTP_HEAD_ERROR) ...                    (h.error, h.error_offset)
 *         last_len = len;                                     (INCOMPLETE: read more)
 *     }
 *
 * With last_len > 0 a call reads only the bytes from last_len - 8 on to decide whether the head may
 * have ended (a line end after a line's content that is not followed by more content), and
 * parses the whole buffer, exactly as simdhttp_parse_head, only when it may have, when a new
 * byte is an error by itself, or when len reaches max_head_size. Total work for a head that
 * arrives in n pieces is O(its size + n), not O(its size * n) (docs/head-api.md measures it).
 *
 * The result is what simdhttp_parse_head returns on buf[0..len), with one difference: an
 * error may be reported late, as INCOMPLETE until the head ends or len reaches max_head_size.
 * Reported at once: every error in the first call's bytes (last_len 0 parses them all) and,
 * in later bytes, a NUL or a CTL other than HTAB (unless SIMDHTTP_LENIENT_HEADERS), and a CR
 * or LF that does not form a line end the lenient flags allow (among the empty lines before
 * the start line too). Reported when the head ends: errors that need the grammar's context (a
 * bad byte in the method, target, version, field name or value, DEL among them; a bad framing
 * field; too many fields). A complete head is never reported late nor missed, if last_len is
 * right.
 * On INCOMPLETE, head->error is SIMDHTTP_OK, head->num_fields 0, the rest unspecified.
 * simdhttp_parse_head(h, t, b, n, c) is simdhttp_parse_head_continue(h, t, b, n, 0, c). */
SIMDHTTP_API long simdhttp_parse_head_continue(simdhttp_head *head, simdhttp_type type,
                                               const char *buf, size_t len, size_t last_len,
                                               const simdhttp_config *cfg);

/* A bare block of field lines, up to and including the empty line that ends it: a trailer
 * section left by the chunked decoder below, the headers of a multipart part, or what
 * picohttpparser's phr_parse_headers reads. The field lines follow the head's rules, limits
 * (max_head_size for the block, min(max_fields, head->fields_cap) fields, TOO_MANY_HEADERS
 * when there are more) and lenient flags, and come back in head->fields as from
 * simdhttp_parse_head. Framing fields (Content-Length, Transfer-Encoding, Connection) are
 * fields like any other here (RFC 9110 section 6.5.1: trailers must not frame the message).
 * Only head->fields, head->num_fields and the error members mean anything; offsets count
 * from buf.
 * @return the length of the block (> 0; 2 for a lone CRLF: no fields); SIMDHTTP_HEAD_INCOMPLETE
 * if buf ends before the block does (and before any limit is reached); SIMDHTTP_HEAD_ERROR
 * with head->error, head->error_reason and head->error_offset set. */
SIMDHTTP_API long simdhttp_parse_fields(simdhttp_head *head, const char *buf, size_t len,
                                        const simdhttp_config *cfg);
/* simdhttp_parse_fields on a growing buffer, as simdhttp_parse_head_continue (below) is
 * simdhttp_parse_head: last_len is the len of the previous call on this buffer, which returned
 * SIMDHTTP_HEAD_INCOMPLETE, or 0; the same results, an error possibly reported late as
 * INCOMPLETE; total work linear in the block's size. */
SIMDHTTP_API long simdhttp_parse_fields_continue(simdhttp_head *head, const char *buf, size_t len,
                                                 size_t last_len, const simdhttp_config *cfg);

/* The chunked decoder: a chunked body (RFC 9112 section 7.1) after a head whose flags say
 * SIMDHTTP_F_CHUNKED, decoded in place, in as many pieces as the bytes arrive. It is the
 * streaming parser's own chunk code, started in its chunk-size state: the same rules, limits
 * (max_chunk_ext; max_head_size and max_fields for the trailer section), lenient flags and
 * error codes. Plain memory, no allocation; init once per body. */
typedef struct simdhttp_chunked {
    /* out, after each call */
    uint64_t chunk_left;       /* data bytes of the current chunk still to come (0 between chunks) */
    simdhttp_errno error;      /* when a call returned SIMDHTTP_CHUNKED_ERROR (sticky) */
    const char *error_reason;
    uint64_t error_offset;     /* counted from the body's first byte (the first byte ever given) */
    /* private */
    simdhttp_parser _p;
    char *_dst;
    uint8_t _end;
} simdhttp_chunked;

#define SIMDHTTP_CHUNKED_ERROR (-1)
#define SIMDHTTP_CHUNKED_INCOMPLETE (-2)

/* Options for simdhttp_chunked_init. By default the decoder stops right after the last chunk
 * ("0" CRLF) and leaves the trailer section to the caller (simdhttp_parse_fields reads it). */
#define SIMDHTTP_CHUNKED_CONSUME_TRAILERS 1u /* check and skip the trailer section instead */

/* Start decoding a new body. cfg: NULL for the strict defaults. */
SIMDHTTP_API void simdhttp_chunked_init(simdhttp_chunked *d, const simdhttp_config *cfg,
                                        unsigned options);
/* Decode the next *len bytes of the body at buf, in place: the chunk data found there moves to
 * buf[0 .. *len) (*len is set to its length; it may be 0) and the chunk framing is dropped.
 * Chunk extensions are checked and skipped.
 * @return SIMDHTTP_CHUNKED_INCOMPLETE: all bytes consumed, the body goes on (call again with the
 * next bytes); >= 0: the body ended, and this many bytes of buf followed it: they are moved to
 * buf[*len ..] (the trailer section first, unless SIMDHTTP_CHUNKED_CONSUME_TRAILERS; then
 * whatever follows the message); SIMDHTTP_CHUNKED_ERROR: d->error, d->error_reason and
 * d->error_offset say what and where (*len bytes were decoded before it). After the end or an
 * error, further calls return SIMDHTTP_CHUNKED_ERROR (INVALID_ARGUMENT after the end). */
SIMDHTTP_API long simdhttp_chunked_decode(simdhttp_chunked *d, char *buf, size_t *len);
/* @return 1 if the decoder stopped inside a chunk's data (more data bytes are due next, not
 * framing), else 0 (picohttpparser's phr_decode_chunked_is_in_data). */
SIMDHTTP_API int simdhttp_chunked_in_data(const simdhttp_chunked *d);

/* Lookups on a parsed head: zero-copy (spans into your buffer), no allocation, one pass over
 * head->fields. A name compares case-insensitively; pass name == NULL and len == a known id
 * (SIMDHTTP_FIELD_*, section 6) to look up by id: its canonical spelling is compared with the
 * names of that length only. Fields keep no stored id: simdhttp_field has picohttpparser's
 * layout (the compat layer writes phr_header arrays directly), and an id is one perfect hash
 * of the name away (simdhttp_head_field_id, about 25 instructions), which most parses never
 * need. For many lookups on one head, build a simdhttp_fields (section 6).
 * A head whose fields is NULL has no fields for these lookups (and simdhttp_head_cookies),
 * whatever num_fields says: the parser never makes one, a hand-made head may
 * (simdhttp_fields_from_head refuses it with SIMDHTTP_E_INVALID_ARGUMENT).
 * A value continued by obs-fold (lenient obs_fold only) is its first line's span here: each
 * continuation line is a field of its own (name NULL), which these lookups and
 * simdhttp_head_cookies pass over; simdhttp_fields_from_head joins them into one value. */
/* @return the known id of field i (0: unknown name, or an obs-fold continuation). */
SIMDHTTP_API unsigned simdhttp_head_field_id(const simdhttp_head *head, size_t i);
/* @return the index of the first field at or after `from` with that name (or id), or -1. */
SIMDHTTP_API long simdhttp_head_find(const simdhttp_head *head, const char *name, size_t len,
                                     size_t from);
/* @return the value of the first field with that name (or id), *value_len its length (if
 * value_len is not NULL); NULL (and 0) if there is none. */
SIMDHTTP_API const char *simdhttp_head_get(const simdhttp_head *head, const char *name, size_t len,
                                           size_t *value_len);

/* ===================================================================================== */
/* 6. The header field collection                                                         */
/* ===================================================================================== */

/* simdhttp_fields is an ordered list of (name, value) fields, built once per message from a
 * parsed head and then looked up by name. The library allocates here (and only here).
 *
 * - Names compare case-insensitively (ASCII only); the bytes given are kept for output.
 * - Every name gets, when its field is added, its known id: one of the SIMDHTTP_FIELD_*
 *   constants below (the HPACK static table's names and common modern ones) or 0. Looking up
 *   a known name is then an integer compare, and contains() of a known name is one bit test.
 * - Every function that takes a name as (name, len) also takes a known id instead: pass
 *   name == NULL and len == the id (e.g. `simdhttp_fields_get(&f, NULL, SIMDHTTP_FIELD_HOST,
 *   &n)`). That skips resolving the name (a perfect hash and a compare: about 40-60
 *   instructions; see docs/fields.md for the measurements).
 * - A name is valid if it is a token (RFC 9110 section 5.1); a value if it has no CR, LF or
 *   NUL (the bytes that would let a value forge a field line or end a C string; other CTLs
 *   are kept as given, as SIMDHTTP_LENIENT_HEADERS lets the parser accept them). Leading and
 *   trailing SP/HTAB of a value are kept as given. Mutations refuse a bad name with
 *   SIMDHTTP_E_INVALID_HEADER_TOKEN and a bad value with SIMDHTTP_E_INVALID_HEADER_VALUE, and
 *   then nothing changed.
 *
 * Storage: a simdhttp_fields is one pointer, to reference-counted storage (one allocation
 * that holds the entry array and the bytes). simdhttp_fields_copy() shares the storage (O(1),
 * no allocation); the first mutation of a handle whose storage is shared makes it a private
 * copy first (copy-on-write), so no copy ever sees another's changes.
 *
 * Thread safety: the reference count is atomic. Different handles that share storage may be
 * read, copied and freed from different threads at the same time without locking, and any of
 * them may be mutated by its own thread (it detaches first). One handle is owned by one
 * thread at a time: do not mutate a handle while another thread reads or copies that same
 * handle. Spans returned by reads (names, values, cookie pairs) point into the storage: they
 * stay valid until that handle is next mutated, freed or assigned to.
 *
 * Return values of the mutators: 0 (SIMDHTTP_OK) on success; a positive simdhttp_errno
 * (SIMDHTTP_E_INVALID_HEADER_TOKEN, SIMDHTTP_E_INVALID_HEADER_VALUE, or SIMDHTTP_E_INVALID_ARGUMENT
 * for an unknown id, a NULL head, a name over 65535 bytes, or a list over 4 GiB of bytes or
 * 2^24 fields); or
 * SIMDHTTP_FIELDS_NOMEM when malloc failed. On any failure the list is unchanged. */
#define SIMDHTTP_FIELDS_NOMEM (-1)

/* Known names. Ids are stable (new names are only added at the end); 0 means "not known". */
enum simdhttp_field_id {
    SIMDHTTP_FIELD_UNKNOWN = 0,
    SIMDHTTP_FIELD_ACCEPT_CHARSET = 1,
    SIMDHTTP_FIELD_ACCEPT_ENCODING = 2,
    SIMDHTTP_FIELD_ACCEPT_LANGUAGE = 3,
    SIMDHTTP_FIELD_ACCEPT_RANGES = 4,
    SIMDHTTP_FIELD_ACCEPT = 5,
    SIMDHTTP_FIELD_ACCESS_CONTROL_ALLOW_ORIGIN = 6,
    SIMDHTTP_FIELD_AGE = 7,
    SIMDHTTP_FIELD_ALLOW = 8,
    SIMDHTTP_FIELD_AUTHORIZATION = 9,
    SIMDHTTP_FIELD_CACHE_CONTROL = 10,
    SIMDHTTP_FIELD_CONTENT_DISPOSITION = 11,
    SIMDHTTP_FIELD_CONTENT_ENCODING = 12,
    SIMDHTTP_FIELD_CONTENT_LANGUAGE = 13,
    SIMDHTTP_FIELD_CONTENT_LENGTH = 14,
    SIMDHTTP_FIELD_CONTENT_LOCATION = 15,
    SIMDHTTP_FIELD_CONTENT_RANGE = 16,
    SIMDHTTP_FIELD_CONTENT_TYPE = 17,
    SIMDHTTP_FIELD_COOKIE = 18,
    SIMDHTTP_FIELD_DATE = 19,
    SIMDHTTP_FIELD_ETAG = 20,
    SIMDHTTP_FIELD_EXPECT = 21,
    SIMDHTTP_FIELD_EXPIRES = 22,
    SIMDHTTP_FIELD_FROM = 23,
    SIMDHTTP_FIELD_HOST = 24,
    SIMDHTTP_FIELD_IF_MATCH = 25,
    SIMDHTTP_FIELD_IF_MODIFIED_SINCE = 26,
    SIMDHTTP_FIELD_IF_NONE_MATCH = 27,
    SIMDHTTP_FIELD_IF_RANGE = 28,
    SIMDHTTP_FIELD_IF_UNMODIFIED_SINCE = 29,
    SIMDHTTP_FIELD_LAST_MODIFIED = 30,
    SIMDHTTP_FIELD_LINK = 31,
    SIMDHTTP_FIELD_LOCATION = 32,
    SIMDHTTP_FIELD_MAX_FORWARDS = 33,
    SIMDHTTP_FIELD_PROXY_AUTHENTICATE = 34,
    SIMDHTTP_FIELD_PROXY_AUTHORIZATION = 35,
    SIMDHTTP_FIELD_RANGE = 36,
    SIMDHTTP_FIELD_REFERER = 37,
    SIMDHTTP_FIELD_REFRESH = 38,
    SIMDHTTP_FIELD_RETRY_AFTER = 39,
    SIMDHTTP_FIELD_SERVER = 40,
    SIMDHTTP_FIELD_SET_COOKIE = 41,
    SIMDHTTP_FIELD_STRICT_TRANSPORT_SECURITY = 42,
    SIMDHTTP_FIELD_TRANSFER_ENCODING = 43,
    SIMDHTTP_FIELD_USER_AGENT = 44,
    SIMDHTTP_FIELD_VARY = 45,
    SIMDHTTP_FIELD_VIA = 46,
    SIMDHTTP_FIELD_WWW_AUTHENTICATE = 47,
    SIMDHTTP_FIELD_CONNECTION = 48,
    SIMDHTTP_FIELD_KEEP_ALIVE = 49,
    SIMDHTTP_FIELD_UPGRADE = 50,
    SIMDHTTP_FIELD_UPGRADE_INSECURE_REQUESTS = 51,
    SIMDHTTP_FIELD_TE = 52,
    SIMDHTTP_FIELD_TRAILER = 53,
    SIMDHTTP_FIELD_ORIGIN = 54,
    SIMDHTTP_FIELD_PRIORITY = 55,
    SIMDHTTP_FIELD_PRAGMA = 56,
    SIMDHTTP_FIELD_DNT = 57,
    SIMDHTTP_FIELD_FORWARDED = 58,
    SIMDHTTP_FIELD_X_FORWARDED_FOR = 59,
    SIMDHTTP_FIELD_X_FORWARDED_PROTO = 60,
    SIMDHTTP_FIELD_X_FORWARDED_HOST = 61,
    SIMDHTTP_FIELD_X_REAL_IP = 62,
    SIMDHTTP_FIELD_X_REQUEST_ID = 63,
    SIMDHTTP_FIELD_X_REQUESTED_WITH = 64,
    SIMDHTTP_FIELD_X_CONTENT_TYPE_OPTIONS = 65,
    SIMDHTTP_FIELD_X_FRAME_OPTIONS = 66,
    SIMDHTTP_FIELD_X_XSS_PROTECTION = 67,
    SIMDHTTP_FIELD_SEC_FETCH_SITE = 68,
    SIMDHTTP_FIELD_SEC_FETCH_MODE = 69,
    SIMDHTTP_FIELD_SEC_FETCH_USER = 70,
    SIMDHTTP_FIELD_SEC_FETCH_DEST = 71,
    SIMDHTTP_FIELD_SEC_CH_UA = 72,
    SIMDHTTP_FIELD_SEC_CH_UA_MOBILE = 73,
    SIMDHTTP_FIELD_SEC_CH_UA_PLATFORM = 74,
    SIMDHTTP_FIELD_SEC_CH_UA_PLATFORM_VERSION = 75,
    SIMDHTTP_FIELD_SEC_CH_UA_ARCH = 76,
    SIMDHTTP_FIELD_SEC_CH_UA_MODEL = 77,
    SIMDHTTP_FIELD_SEC_CH_UA_BITNESS = 78,
    SIMDHTTP_FIELD_SEC_CH_UA_FULL_VERSION_LIST = 79,
    SIMDHTTP_FIELD_SEC_GPC = 80,
    SIMDHTTP_FIELD_SEC_WEBSOCKET_KEY = 81,
    SIMDHTTP_FIELD_SEC_WEBSOCKET_VERSION = 82,
    SIMDHTTP_FIELD_SEC_WEBSOCKET_EXTENSIONS = 83,
    SIMDHTTP_FIELD_SEC_WEBSOCKET_PROTOCOL = 84,
    SIMDHTTP_FIELD_SEC_WEBSOCKET_ACCEPT = 85,
    SIMDHTTP_FIELD_ACCESS_CONTROL_ALLOW_CREDENTIALS = 86,
    SIMDHTTP_FIELD_ACCESS_CONTROL_ALLOW_HEADERS = 87,
    SIMDHTTP_FIELD_ACCESS_CONTROL_ALLOW_METHODS = 88,
    SIMDHTTP_FIELD_ACCESS_CONTROL_EXPOSE_HEADERS = 89,
    SIMDHTTP_FIELD_ACCESS_CONTROL_MAX_AGE = 90,
    SIMDHTTP_FIELD_ACCESS_CONTROL_REQUEST_HEADERS = 91,
    SIMDHTTP_FIELD_ACCESS_CONTROL_REQUEST_METHOD = 92,
    SIMDHTTP_FIELD_CONTENT_SECURITY_POLICY = 93,
    SIMDHTTP_FIELD_CROSS_ORIGIN_OPENER_POLICY = 94,
    SIMDHTTP_FIELD_CROSS_ORIGIN_EMBEDDER_POLICY = 95,
    SIMDHTTP_FIELD_CROSS_ORIGIN_RESOURCE_POLICY = 96,
    SIMDHTTP_FIELD_ALT_SVC = 97,
    SIMDHTTP_FIELD_EARLY_DATA = 98,
    SIMDHTTP_FIELD_ACCEPT_CH = 99,
    SIMDHTTP_FIELD_SERVER_TIMING = 100,
    SIMDHTTP_FIELD_TIMING_ALLOW_ORIGIN = 101,
    SIMDHTTP_FIELD_TRACEPARENT = 102,
    SIMDHTTP_FIELD_TRACESTATE = 103,
    SIMDHTTP_FIELD_PROXY_CONNECTION = 104,
    SIMDHTTP_FIELD_LAST_EVENT_ID = 105,
    SIMDHTTP_FIELD_ID_COUNT /* one past the last id */
};

/* @return the known id of a name (any case), or SIMDHTTP_FIELD_UNKNOWN (0). */
SIMDHTTP_API unsigned simdhttp_field_id(const char *name, size_t len);
/* @return the canonical (lower case, NUL-terminated) spelling of a known id, or NULL. */
SIMDHTTP_API const char *simdhttp_field_id_name(unsigned id);

/* The handle. Zero-initialised (SIMDHTTP_FIELDS_INIT or simdhttp_fields_init) it is an empty
 * list that owns nothing. Treat the member as private. */
typedef struct simdhttp_fields {
    struct simdhttp_fields_store *_s;
} simdhttp_fields;
#define SIMDHTTP_FIELDS_INIT {0}

/* Make *f an empty list without reading it (no allocation). */
SIMDHTTP_API void simdhttp_fields_init(simdhttp_fields *f);
/* Release f's reference to its storage (the storage is freed with the last reference) and
 * make *f empty. Safe on an empty list. */
SIMDHTTP_API void simdhttp_fields_free(simdhttp_fields *f);
/* Make *dst share src's storage: O(1), no allocation, an atomic increment. dst's previous
 * contents are released; dst == src is fine. Both must be initialised. */
SIMDHTTP_API void simdhttp_fields_copy(simdhttp_fields *dst, const simdhttp_fields *src);

/* Replace f's contents with the fields of a head filled by simdhttp_parse_head, in order:
 * one allocation for any number of fields (names and values are copied: the head's buffer
 * may go away after). An obs-fold continuation (name == NULL, see section 5) is joined to the
 * previous field's value with one SP, as RFC 9112 section 5.2 tells a recipient that keeps it
 * to do. The bytes are NOT validated again: the parser already refused what append refuses
 * (that is what keeps the build near 100 instructions per field). For fields from any other
 * source, use append, which checks them. When the spans lie in order at most 7 bytes apart
 * (as the parser leaves them in your buffer), the bytes between them (": ", CRLF) are copied
 * too, in one block. Errors: an empty name is SIMDHTTP_E_INVALID_HEADER_TOKEN, a continuation
 * with no field before it SIMDHTTP_E_UNEXPECTED_SPACE, a NULL span with a length
 * SIMDHTTP_E_INVALID_ARGUMENT.
 * @return 0, an error code, or SIMDHTTP_FIELDS_NOMEM (f then unchanged). */
SIMDHTTP_API int simdhttp_fields_from_head(simdhttp_fields *f, const simdhttp_head *head);
/* Make room for `fields` more fields holding `bytes` more name and value bytes, so that the
 * appends that follow do not allocate. @return 0, SIMDHTTP_E_INVALID_ARGUMENT if the list would
 * then pass the limits above (2^24 fields, 4 GiB of bytes), or SIMDHTTP_FIELDS_NOMEM (f then
 * unchanged). */
SIMDHTTP_API int simdhttp_fields_reserve(simdhttp_fields *f, size_t fields, size_t bytes);
/* Add a field at the end. Storage grows geometrically: n appends cost O(log n) allocations.
 * name may be NULL with len a known id (the canonical lower case spelling is stored).
 * `value` may point into f's own storage. @return 0, an error code, or SIMDHTTP_FIELDS_NOMEM. */
SIMDHTTP_API int simdhttp_fields_append(simdhttp_fields *f, const char *name, size_t name_len,
                                        const char *value, size_t value_len);
/* Replace all fields of a name by one field (name as given now, value): it takes the position
 * of the first field of that name; without one, it is appended.
 * @return 0, an error code, or SIMDHTTP_FIELDS_NOMEM. */
SIMDHTTP_API int simdhttp_fields_set(simdhttp_fields *f, const char *name, size_t name_len,
                                     const char *value, size_t value_len);
/* Remove all fields of a name; the others keep their order. Removing a name that is absent
 * changes nothing and never allocates.
 * @return the number of fields removed (>= 0), or SIMDHTTP_FIELDS_NOMEM (f unchanged). */
SIMDHTTP_API long simdhttp_fields_remove(simdhttp_fields *f, const char *name, size_t name_len);

/* ---- reading (no allocation, O(1) or one pass over the entries) ---- */

/* @return the number of fields. */
SIMDHTTP_API size_t simdhttp_fields_count(const simdhttp_fields *f);
/* Field number i (0-based, in order): its name as given and its value, into *out.
 * @return the field's known id (0 if not known), or -1 (out untouched) if i >= count. */
SIMDHTTP_API int simdhttp_fields_at(const simdhttp_fields *f, size_t i, simdhttp_field *out);
/* @return 1 if a field of that name is present, else 0. O(1) for a known name. */
SIMDHTTP_API int simdhttp_fields_contains(const simdhttp_fields *f, const char *name, size_t len);
/* @return the value of the first field of that name (not NUL-terminated; *value_len gets its
 * length), or NULL (and *value_len 0) if there is none. value_len may be NULL. */
SIMDHTTP_API const char *simdhttp_fields_get(const simdhttp_fields *f, const char *name,
                                             size_t len, size_t *value_len);
/* The combined value of a name: all its values in order, joined with ", " (RFC 9110 section
 * 5.3), or with "; " for Cookie (RFC 6265 section 5.4; HTTP/2's RFC 9113 section 8.2.3). Writes
 * it into buf when it fits in cap bytes, followed by a NUL if there is room for one.
 * @return its length (so a return > cap means "call again with a bigger buffer"; buf may then
 * hold a partial value), or -1 if no field has that name. */
SIMDHTTP_API long simdhttp_fields_combined(const simdhttp_fields *f, const char *name,
                                           size_t len, char *buf, size_t cap);

/* Iterator over the values of one name, in order. Plain memory: no allocation, nothing to
 * free. It reads f's storage: do not mutate f while iterating. */
typedef struct simdhttp_fields_iter {
    const struct simdhttp_fields_store *_s;
    const char *_name;
    size_t _len;
    uint32_t _pos, _hash;
    unsigned _id;
} simdhttp_fields_iter;
/* Start iterating over the values of a name (name may go away after this call). */
SIMDHTTP_API void simdhttp_fields_values(const simdhttp_fields *f, const char *name, size_t len,
                                         simdhttp_fields_iter *it);
/* @return 1 and the next value in *value / *value_len, or 0 at the end. */
SIMDHTTP_API int simdhttp_fields_next(simdhttp_fields_iter *it, const char **value,
                                      size_t *value_len);

/* Equality: for every name (case-insensitive), the ordered list of its values is the same
 * (bytewise); the relative order of different names does not matter, nor does the case of
 * the names. O(n) when both lists are in the same order, O(n log n) otherwise; no allocation
 * up to 256 fields per list (a larger one needs one temporary allocation).
 * @return 1 if equal, 0 if not, SIMDHTTP_FIELDS_NOMEM if that allocation failed. */
SIMDHTTP_API int simdhttp_fields_equal(const simdhttp_fields *a, const simdhttp_fields *b);

/* Cookie iterator: walks the cookie-pairs of all Cookie fields, in order (RFC 6265 section 4.2:
 *   cookie-string = cookie-pair *( ";" SP cookie-pair ), cookie-pair = cookie-name "="
 *   cookie-value, cookie-name = token, cookie-value = *cookie-octet / DQUOTE *cookie-octet
 *   DQUOTE, cookie-octet = %x21 / %x23-2B / %x2D-3A / %x3C-5B / %x5D-7E).
 * Lenient about separators only, as real clients send them: ";" with no SP, several SP/HTAB
 * around ";", SP/HTAB at the start or end of a field, and empty pairs (";;", a trailing ";")
 * are accepted and skipped. Strict about pairs: a name that is not a token or empty, a
 * missing "=", a byte outside cookie-octet in the value (SP, '"', ',', '\' inside it), or an
 * unbalanced quote makes a malformed pair. Quotes are part of the returned value (RFC 6265
 * keeps them). No allocation. Do not mutate f while iterating.
 *
 * A malformed pair is never returned as a cookie: it is skipped (from its start to the next
 * ";", as browsers skip it), counted in `errors`, and the first one is reported in the error_*
 * members, so the usual loop sees every well-formed pair and can tell afterwards:
 *
 *     simdhttp_cookie_iter it;
 *     simdhttp_field c;
 *     simdhttp_fields_cookies(&f, &it);
 *     while (simdhttp_cookie_next(&it, &c) == 1) { ... c.name, c.value ... }
 *     if (it.errors) ...   (it.error_pair: the first malformed pair; error_reason, where)
 *
 * A caller that must refuse the whole Cookie field on a bad pair checks it.errors inside the
 * loop: it grows before the call that returns the next good pair (or the end). */
typedef struct simdhttp_cookie_iter {
    /* malformed pairs skipped so far; the first one: its bytes (the whole pair, up to the
     * next ";", trailing SP/HTAB trimmed), what was wrong, and where (the field's index, and
     * the offset of the offending byte in its value) */
    size_t errors;
    const char *error_pair;
    size_t error_pair_len;
    const char *error_reason;
    size_t error_field;
    size_t error_offset;
    /* private */
    const struct simdhttp_fields_store *_s;
    uint32_t _field, _off;
    const simdhttp_head *_h;
    const char *_v;
    size_t _vlen;
} simdhttp_cookie_iter;
/* Start iterating over the cookie-pairs of f's Cookie fields. */
SIMDHTTP_API void simdhttp_fields_cookies(const simdhttp_fields *f, simdhttp_cookie_iter *it);
/* The same over the Cookie fields of a head parsed by simdhttp_parse_head (error_field: the
 * index in head->fields), or over one value span (e.g. from simdhttp_head_get; error_field 0).
 * Zero-copy: the pairs are spans into that memory, which must outlive the iteration. A head
 * whose num_fields shrinks during the iteration ends it at the new count. */
SIMDHTTP_API void simdhttp_head_cookies(const simdhttp_head *head, simdhttp_cookie_iter *it);
SIMDHTTP_API void simdhttp_cookies_of(const char *value, size_t len, simdhttp_cookie_iter *it);
/* The next well-formed cookie-pair: its name and value spans into out->name/name_len and
 * out->value/value_len. Malformed pairs on the way are skipped and reported in it (above).
 * @return 1 for a pair; 0 at the end (and on every later call). */
SIMDHTTP_API int simdhttp_cookie_next(simdhttp_cookie_iter *it, simdhttp_field *out);

/* ===================================================================================== */
/* 7. The request-target splitter                                                         */
/* ===================================================================================== */

/* Splits a request-target (RFC 9112 section 3.2), or with SIMDHTTP_TARGET_FRAGMENT any
 * absolute URI with a fragment, into its parts, validated against RFC 3986 section 3. Zero-copy:
 * each part is an offset and a length into the bytes you gave; nothing is allocated. The four
 * forms, told apart by their first bytes:
 *   origin-form     "/" ...                          path [ "?" query ]
 *   absolute-form   scheme ":" ...                   "http://user@host:8080/p?q" (proxies)
 *   authority-form  host ":" port                    "example.com:443", "[::1]:443" (CONNECT)
 *   asterisk-form   "*"                              (OPTIONS)
 * "host:443" is both a valid authority-form and an absolute-URI with the scheme "host" and the
 * path "443": it is taken as authority-form whenever it is one (a port of 1 or more DIGITs,
 * at most 65535, and nothing after it), as RFC 9112 section 3.2.3 reads it.
 *
 * Rules beyond the grammar, each one refusing what a peer may read differently:
 * - "http" and "https" URIs must have an authority with a non-empty host (RFC 9110 4.2.1/4.2.2);
 * - a port is at most 65535; an authority-form port is not empty (RFC 9110 9.3.6: no default);
 * - a fragment ("#...") is refused unless SIMDHTTP_TARGET_FRAGMENT: it is not part of a
 *   request-target (RFC 9112 3.2, RFC 9110 4.2.5);
 * - an IP literal is an IPv6address (with an RFC 6874 zone id, "%25" ZoneID, if any) or an
 *   IPvFuture, at most 63 bytes;
 * - every "%" is followed by two HEXDIGs; bytes outside RFC 3986's sets (SP, CTLs, '"', '<',
 *   '>', '\', '^', '`', '{', '|', '}', bytes >= 0x80) are refused in every part.
 * Userinfo ("user:pass@") is split and valid RFC 3986, but RFC 9110 4.2.4 says to treat it
 * as an error in http(s) URIs received from untrusted sources: check
 * t.parts & (1u << SIMDHTTP_URL_USERINFO) if you act on such URIs.
 *
 * The host part excludes the brackets of an IP literal (host_type says which kind it is). A
 * part can be present and empty: "http://h:/" has an empty port, "/?" an empty query,
 * "file:///x" an empty host. The path is present only when it is not
 * empty. */

enum simdhttp_target_form {
    SIMDHTTP_TARGET_ORIGIN = 1,
    SIMDHTTP_TARGET_ABSOLUTE = 2,
    SIMDHTTP_TARGET_AUTHORITY = 3,
    SIMDHTTP_TARGET_ASTERISK = 4
};

enum simdhttp_url_part {
    SIMDHTTP_URL_SCHEME = 0,
    SIMDHTTP_URL_HOST = 1,
    SIMDHTTP_URL_PORT = 2,
    SIMDHTTP_URL_PATH = 3,
    SIMDHTTP_URL_QUERY = 4,
    SIMDHTTP_URL_FRAGMENT = 5,
    SIMDHTTP_URL_USERINFO = 6,
    SIMDHTTP_URL_PARTS = 7 /* (the order of http-parser's UF_* fields) */
};

enum simdhttp_host_type {
    SIMDHTTP_HOST_NONE = 0,      /* no host (origin-form, asterisk-form, "mailto:x") */
    SIMDHTTP_HOST_REG_NAME = 1,  /* a name, possibly empty ("file:///x") */
    SIMDHTTP_HOST_IPV4 = 2,      /* dotted decimal, RFC 3986 dec-octets (no leading zeros) */
    SIMDHTTP_HOST_IPV6 = 3,      /* "[...]" */
    SIMDHTTP_HOST_IPVFUTURE = 4  /* "[v1.x]" */
};

/* Flags of simdhttp_target_init / simdhttp_target_parse. */
enum simdhttp_target_flags {
    SIMDHTTP_TARGET_CONNECT = 1u << 0,  /* accept the authority-form only (a CONNECT target) */
    SIMDHTTP_TARGET_FRAGMENT = 1u << 1, /* accept "#fragment" (a URI reference, not a target) */
    /* in a path, query or fragment, accept what browsers and http-parser leave raw: any VCHAR
     * (`[ ] | { } " \ ^` and a '%' that starts no pct-encoded) and bytes >= 0x80; a '#' in
     * the fragment. None changes where a part ends; the split and the rest of the checks are
     * as without it. */
    SIMDHTTP_TARGET_LENIENT = 1u << 2
};

/* Errors: the name of the part that holds the first bad byte, and its offset. */
typedef enum simdhttp_target_error {
    SIMDHTTP_TARGET_OK = 0,
    SIMDHTTP_TARGET_E_EMPTY = 1,    /* no bytes at all */
    SIMDHTTP_TARGET_E_FORM = 2,     /* the form does not fit the method or the flags, or the
                                       bytes fit none of the four forms */
    SIMDHTTP_TARGET_E_SCHEME = 3,
    SIMDHTTP_TARGET_E_HOST = 4,     /* also: userinfo (a byte before "@" that fits neither), an
                                       http(s) URI without a host, a bad IP literal */
    SIMDHTTP_TARGET_E_PORT = 5,     /* not DIGITs, over 65535, or empty in authority-form */
    SIMDHTTP_TARGET_E_PATH = 6,
    SIMDHTTP_TARGET_E_QUERY = 7,
    SIMDHTTP_TARGET_E_FRAGMENT = 8, /* also: any '#' without SIMDHTTP_TARGET_FRAGMENT */
    SIMDHTTP_TARGET_E_PERCENT = 9,  /* '%' not followed by two HEXDIGs */
    SIMDHTTP_TARGET_E_TOO_LONG = 10, /* over 4 GiB - 2 bytes (32-bit offsets): at offset 2^32 - 2 */
    SIMDHTTP_TARGET_E_INVALID_ARGUMENT = 11, /* NULL bytes with a non-zero length (at the
                                                offset of that piece) */
    SIMDHTTP_TARGET_E_FINISHED = 12 /* feed after a successful finish (at the target's length) */
} simdhttp_target_error;

/* The result (and the state of a parse fed in pieces). Treat members starting with '_' as
 * private. */
typedef struct simdhttp_target {
    uint8_t form;      /* simdhttp_target_form; 0 until a parse succeeded */
    uint8_t host_type; /* simdhttp_host_type */
    uint16_t port;     /* the port's value; 0 when there is no port or it is empty */
    uint32_t parts;    /* bit (1u << SIMDHTTP_URL_x) set for each part present */
    struct {
        uint32_t off, len; /* offset from the target's first byte, length */
    } part[SIMDHTTP_URL_PARTS];
    simdhttp_target_error error;
    uint32_t error_offset; /* the first bad byte (the length, for a target cut short) */
    /* ---- private ---- */
    uint32_t _off, _mark, _colon, _bad, _portv;
    uint8_t _state, _flags, _alive, _pct, _badpart, _scheme, _v4, _v4oct, _digits, _iplen, _form;
    uint16_t _v4val;
    char _ip[64];
} simdhttp_target;

/* Parse target[0..len) in one call: simdhttp_target_init + feed + finish. target (and a
 * piece given to feed) may be NULL when len is 0: no bytes, so a whole target of none is
 * SIMDHTTP_TARGET_E_EMPTY (e.g. a response head's target: NULL, 0).
 * @return SIMDHTTP_TARGET_OK, or an error (also in t->error, with t->error_offset). */
SIMDHTTP_API simdhttp_target_error simdhttp_target_parse(simdhttp_target *t, const char *target,
                                                         size_t len, unsigned flags);
/* The same, choosing the flags from the method and checking that the form fits it (RFC 9112
 * 3.2.3, 3.2.4): CONNECT takes the authority-form only; the authority-form is for CONNECT only;
 * the asterisk-form is for OPTIONS only. A target that parses but does not fit its method is
 * SIMDHTTP_TARGET_E_FORM at offset 0 (t->form then says what it was). */
SIMDHTTP_API simdhttp_target_error simdhttp_target_parse_for(simdhttp_target *t,
                                                             simdhttp_method method,
                                                             const char *target, size_t len);
/* @return 1 if form fits method as simdhttp_target_parse_for checks it, else 0. */
SIMDHTTP_API int simdhttp_target_form_fits(simdhttp_method method, int form);

/* A target that arrives in pieces (as on_url gives it): init, feed each piece, finish. Offsets
 * count from the first byte of the first piece, so the result is the same for any split.
 * An error sticks: feed and finish then return it at once. After a successful finish the
 * result is final: finish again returns SIMDHTTP_TARGET_OK and changes nothing; feed (even of
 * no bytes) is SIMDHTTP_TARGET_E_FINISHED, an error like any other (sticky, t->form 0), since
 * its bytes would silently extend a target already reported whole. simdhttp_target_init starts
 * the next one. */
SIMDHTTP_API void simdhttp_target_init(simdhttp_target *t, unsigned flags);
SIMDHTTP_API simdhttp_target_error simdhttp_target_feed(simdhttp_target *t, const char *piece,
                                                        size_t len);
SIMDHTTP_API simdhttp_target_error simdhttp_target_finish(simdhttp_target *t);

/* @return "HOST" etc. (the enum name without "SIMDHTTP_TARGET_E_"; "OK" for 0). */
SIMDHTTP_API const char *simdhttp_target_error_name(simdhttp_target_error e);
/* @return the name of a form ("origin", "absolute", "authority", "asterisk"), or NULL. */
SIMDHTTP_API const char *simdhttp_target_form_name(int form);

#ifdef __cplusplus
}
#endif

#endif /* SIMDHTTP_H */
