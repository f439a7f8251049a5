/* SPDX-License-Identifier: MIT */
/* Test helpers: counting checks, reading files, and an event recorder that turns the
 * streaming parser's callbacks into a readable log (in the spirit of llhttp's tests):
 *
 *   message begin
 *   off=0 len=3 span[method]="GET"
 *   method complete
 *   ...
 *   headers complete method=GET v=1.1 flags=KEEP_ALIVE|SKIP_BODY content_length=0
 *   message complete
 *   error INVALID_HEADER_VALUE off=42     (or "ok"; "upgrade off=N" before it after an upgrade)
 *
 * Spans carry their absolute offset and length. A span may begin with bytes that are not from
 * the input (in type both, the first bytes of a method that looked like "HTTP/"; the SP an
 * obs-fold becomes): its offset is then the next input piece's offset minus the bytes before
 * it, or "off=-" if no input piece follows. Notifications carry no offset: their order says it all.
 *
 * Consecutive pieces of one span are merged, so the log of a stream does not depend on how
 * the stream was split: comparing logs is how the chunking tests work. */
#ifndef SIMDHTTP_TESTLIB_H
#define SIMDHTTP_TESTLIB_H

#include <stddef.h>
#include <stdint.h>

#include "simdhttp.h"
#include "t_buf.h"
#include "t_rec.h"

/* ---- checks ---- */
extern int t_passed, t_failed;
/* Record one check; prints "not ok - <name>: <why>" on failure. @return cond */
int t_check(int cond, const char *name, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Print "N passed, N failed". @return the exit status (0 if none failed). */
int t_summary(void);

/* ---- files ---- */
/* Read a whole file (malloc'd, NUL-terminated after len). NULL if it cannot be read. */
char *t_read_file(const char *path, size_t *len);
/* The corpus directory: $SIMDHTTP_CORPUS or "corpus". */
const char *t_corpus_dir(void);

/* ---- growable string: t_buf, t_buf_put, t_buf_printf, t_buf_escaped, t_buf_free (t_buf.h) ---- */

/* ---- event recorder: t_rec, t_buf_flags (t_rec.h) ---- */
/* The callbacks that record into the t_rec in parser->data. */
extern const simdhttp_callbacks t_rec_callbacks;

/* Parse input with the streaming parser, fed in pieces: split[] lists piece lengths (repeated
 * cyclically; NULL or nsplit 0 means one piece). Pauses (if rec->pause_at >= 0) are resumed at
 * once. Ends with finish() when `eof`. Returns the log (caller frees with free()), ending with
 * "ok" or "error NAME off=N". */
/* Whether the stream logs name each message's and error's verdict (" reasons=..."): 1, unless
 * a program compares them with a build that has none (fuzz/fuzz_core_vs.c). */
extern int t_log_verdict;
char *t_stream_log(simdhttp_type type, const simdhttp_config *cfg, const char *in, size_t len,
                   const size_t *split, size_t nsplit, int eof, int pause_at);

/* The same, with on_headers_complete returning hc_ret (0: go on; SIMDHTTP_SKIP_BODY...). */
char *t_stream_log_ex(simdhttp_type type, const simdhttp_config *cfg, const char *in, size_t len,
                      const size_t *split, size_t nsplit, int eof, int pause_at, int hc_ret);

/* The same on the parser at *p, the caller's memory: simdhttp_init when `init` (whatever the
 * bytes held), else simdhttp_reset (p was initialised with t_rec_callbacks and type, and may be
 * anywhere in another stream). p->data is NULL after. */
char *t_stream_log_on(simdhttp_parser *p, int init, simdhttp_type type, const simdhttp_config *cfg,
                      const char *in, size_t len, const size_t *split, size_t nsplit, int eof,
                      int pause_at, int hc_ret);

/* The same input through simdhttp_parse_head, rendered as the log the streaming parser would
 * give for the head only (values trimmed, as the head API gives them). Returns a malloc'd
 * string; *ret gets the return value of simdhttp_parse_head. */
/* Remove every "pause" line of a log (a paused run's own) in place. @return how many. */
int t_strip_pauses(char *log);
char *t_head_log(simdhttp_type type, const simdhttp_config *cfg, const char *in, size_t len, long *ret);

/* ---- case files (the format is described at the top of tests/test_parser.c) ---- */
/* Case types beyond simdhttp_type: a bare field block and a chunked body (tests/test_blocks.c). */
enum { T_FIELDS = 10, T_CHUNKED = 11 };
typedef struct t_case {
    char name[160];
    char where[300]; /* file:line */
    int type;        /* simdhttp_type, T_FIELDS or T_CHUNKED */
    simdhttp_config cfg;
    int eof;
    int consume_trailers; /* T_CHUNKED: "trailers: consume" */
    t_buf in;
    t_buf log;
} t_case;
/* Parse one case file; append its cases to *cases (*ncases of *cap allocated).
 * @return the number of format errors (each is also a failed check). */
int t_load_cases(const char *path, t_case **cases, size_t *ncases, size_t *cap);
/* The files in dir whose names end with suffix, as "dir/name", sorted (NULL if none). */
char **t_list_dir(const char *dir, const char *suffix, size_t *n);

#endif
