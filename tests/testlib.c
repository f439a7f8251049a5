/* SPDX-License-Identifier: MIT */
#include "testlib.h"

#include <dirent.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int t_passed, t_failed;

int t_check(int cond, const char *name, const char *fmt, ...)
{
    if (cond) {
        t_passed++;
        return 1;
    }
    t_failed++;
    printf("not ok - %s: ", name);
    va_list ap;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
    return 0;
}

int t_summary(void)
{
    printf("%d passed, %d failed\n", t_passed, t_failed);
    return t_failed ? 1 : 0;
}

char *t_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    t_buf b = {0};
    char tmp[65536];
    size_t n;
    while ((n = fread(tmp, 1, sizeof tmp, f)) > 0) t_buf_put(&b, tmp, n);
    fclose(f);
    t_buf_put(&b, "", 0);
    if (!b.s) b.s = calloc(1, 1);
    *len = b.len;
    return b.s;
}

const char *t_corpus_dir(void)
{
    const char *d = getenv("SIMDHTTP_CORPUS");
    return d && *d ? d : "corpus";
}

/* ---- recorder (tests/t_rec.h) ---- */

const simdhttp_callbacks t_rec_callbacks = T_REC_CALLBACKS;

char *t_stream_log(simdhttp_type type, const simdhttp_config *cfg, const char *in, size_t len,
                   const size_t *split, size_t nsplit, int eof, int pause_at)
{
    return t_stream_log_ex(type, cfg, in, len, split, nsplit, eof, pause_at, 0);
}

char *t_stream_log_ex(simdhttp_type type, const simdhttp_config *cfg, const char *in, size_t len,
                      const size_t *split, size_t nsplit, int eof, int pause_at, int hc_ret)
{
    simdhttp_parser p;
    return t_stream_log_on(&p, 1, type, cfg, in, len, split, nsplit, eof, pause_at, hc_ret);
}

int t_strip_pauses(char *log)
{
    int n = 0;
    char *r = log, *w = log;
    while (*r) {
        char *nl = strchr(r, '\n');
        size_t k = nl ? (size_t)(nl - r) + 1 : strlen(r);
        if (k == 6 && memcmp(r, "pause\n", 6) == 0) n++;
        else memmove(w, r, k), w += k;
        r += k;
    }
    *w = 0;
    return n;
}

int t_log_verdict = 1;

char *t_stream_log_on(simdhttp_parser *pp, int init, simdhttp_type type, const simdhttp_config *cfg,
                      const char *in, size_t len, const size_t *split, size_t nsplit, int eof,
                      int pause_at, int hc_ret)
{
    t_rec r = {0};
    r.span_kind = -1;
    r.pause_at = pause_at;
    r.hc_ret = hc_ret;
    r.base_len = 1u << 30; /* (the tests' rule: up to 1 GiB past a piece's start is in it) */
    r.static_off = '-';
    r.backfill = 1;
    r.escape = t_buf_escaped;
    r.verdict = t_log_verdict;
    if (init) simdhttp_init(pp, type, &t_rec_callbacks, cfg);
    else simdhttp_reset(pp);
    pp->data = &r;
    size_t off = 0, k = 0;
    simdhttp_errno e = SIMDHTTP_OK;
    while (off < len || (len == 0 && k == 0)) {
        size_t n = len - off;
        if (split && nsplit) {
            size_t want = split[k % nsplit];
            if (want && want < n) n = want;
        }
        k++;
        /* copy the piece so that a read outside it is caught by ASan */
        char *piece = malloc(n ? n : 1);
        memcpy(piece, in + off, n);
        r.base = piece;
        r.base_off = off;
        e = simdhttp_execute(pp, piece, n);
        while (e == SIMDHTTP_E_PAUSED) {
            size_t used = (size_t)(simdhttp_get_error_pos(pp) - piece);
            r.pending_pauses++;
            if (r.span_kind < 0) t_rec_flush(&r);
            simdhttp_resume(pp);
            r.base = piece + used;
            r.base_off = off + used;
            e = simdhttp_execute(pp, piece + used, n - used);
            r.base = piece;
            r.base_off = off;
        }
        free(piece);
        r.base = NULL;
        if (e == SIMDHTTP_E_PAUSED_UPGRADE) {
            t_rec_flush(&r);
            t_buf_printf(&r.log, "upgrade off=%llu\n", (unsigned long long)simdhttp_get_error_offset(pp));
            break;
        }
        if (e != SIMDHTTP_OK) break;
        off += n;
        if (len == 0) break;
    }
    if (e == SIMDHTTP_OK && eof) e = simdhttp_finish(pp);
    t_rec_flush(&r);
    if (e == SIMDHTTP_OK || e == SIMDHTTP_E_PAUSED_UPGRADE) t_buf_printf(&r.log, "ok\n");
    else {
        t_buf_printf(&r.log, "error %s off=%llu", simdhttp_errno_name(e), (unsigned long long)simdhttp_get_error_offset(pp));
        if (t_log_verdict) t_buf_reasons(&r.log, pp->reasons);
        t_buf_printf(&r.log, "\n");
    }
    t_buf_free(&r.span);
    pp->data = NULL;
    return r.log.s;
}

char *t_head_log(simdhttp_type type, const simdhttp_config *cfg, const char *in, size_t len, long *ret)
{
    simdhttp_field fields[512];
    simdhttp_head h = {.fields = fields, .fields_cap = 512};
    t_buf b = {0};
    long r = simdhttp_parse_head(&h, type, in, len, cfg);
    *ret = r;
    if (r == SIMDHTTP_HEAD_INCOMPLETE) {
        t_buf_printf(&b, "incomplete\n");
        return b.s;
    }
    if (r < 0) {
        t_buf_printf(&b, "error %s off=%zu\n", simdhttp_errno_name(h.error), h.error_offset);
        return b.s;
    }
    if (h.type == SIMDHTTP_REQUEST) {
        t_buf_put(&b, "method=", 7);
        t_buf_escaped(&b, h.method_str, h.method_len);
        t_buf_put(&b, " target=", 8);
        t_buf_escaped(&b, h.target, h.target_len);
    } else {
        t_buf_printf(&b, "status=%d reason=", h.status_code);
        t_buf_escaped(&b, h.reason, h.reason_len);
    }
    t_buf_printf(&b, " v=%d.%d\n", h.http_major, h.http_minor);
    for (size_t i = 0; i < h.num_fields; i++) {
        if (h.fields[i].name) t_buf_escaped(&b, h.fields[i].name, h.fields[i].name_len);
        else t_buf_put(&b, "(fold)", 6);
        t_buf_put(&b, ": ", 2);
        t_buf_escaped(&b, h.fields[i].value, h.fields[i].value_len);
        t_buf_put(&b, "\n", 1);
    }
    t_buf_printf(&b, "flags=0x%x content_length=%llu head_len=%ld\n", h.flags,
                 (unsigned long long)h.content_length, r);
    return b.s;
}

/* ---- case files ---- */

static int hexval(int c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* Append one input line with escapes decoded. @return 0, or -1 on a bad escape. */
static int decode_line(t_buf *b, const char *s)
{
    for (; *s; s++) {
        if (*s != '\\') {
            t_buf_put(b, s, 1);
            continue;
        }
        s++;
        char c;
        switch (*s) {
        case 'r': c = '\r'; break;
        case 'n': c = '\n'; break;
        case 't': c = '\t'; break;
        case '\\': c = '\\'; break;
        case '\0': return 0; /* a trailing backslash: nothing (lets a line end with a space) */
        case 'x': {
            int h = hexval(s[1]), l = h < 0 ? -1 : hexval(s[2]);
            if (l < 0) return -1;
            c = (char)(h * 16 + l);
            s += 2;
            break;
        }
        default: return -1;
        }
        t_buf_put(b, &c, 1);
    }
    return 0;
}

static void trim_eol(char *s)
{
    size_t n = strlen(s);
    while (n && (s[n - 1] == '\n' || s[n - 1] == '\r')) s[--n] = 0;
}

static const char *strip_ws(char *s)
{
    while (*s == ' ' || *s == '\t') s++;
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t')) s[--n] = 0;
    return s;
}

int t_load_cases(const char *path, t_case **cases, size_t *ncases, size_t *cap)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        t_check(0, path, "cannot open");
        return 1;
    }
    char line[8192];
    int lineno = 0, errors = 0;
    enum { NONE, KEYS, INPUT, LOG } mode = NONE;
    t_case *c = NULL;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        trim_eol(line);
        if (strncmp(line, "===", 3) == 0) {
            if (*ncases == *cap) {
                *cap = *cap ? *cap * 2 : 64;
                *cases = realloc(*cases, *cap * sizeof **cases);
            }
            c = &(*cases)[(*ncases)++];
            memset(c, 0, sizeof *c);
            snprintf(c->name, sizeof c->name, "%s", strip_ws(line + 3));
            snprintf(c->where, sizeof c->where, "%s:%d", path, lineno);
            c->type = SIMDHTTP_REQUEST;
            c->eof = 1;
            mode = KEYS;
            continue;
        }
        if (mode == NONE) {
            if (line[0] && line[0] != '#') {
                t_check(0, path, "line %d: text outside a case", lineno);
                errors++;
            }
            continue;
        }
        if (mode == LOG) {
            if (line[0] == '#' || line[0] == 0) continue;
            t_buf_put(&c->log, line, strlen(line));
            t_buf_put(&c->log, "\n", 1);
            continue;
        }
        if (mode == INPUT) {
            if (strcmp(line, "log:") == 0) {
                mode = LOG;
                continue;
            }
            if (decode_line(&c->in, line)) {
                t_check(0, path, "line %d: bad escape", lineno);
                errors++;
            }
            continue;
        }
        /* KEYS */
        if (line[0] == '#' || line[0] == 0) continue;
        char *colon = strchr(line, ':');
        if (!colon) {
            t_check(0, path, "line %d: expected 'key: value'", lineno);
            errors++;
            continue;
        }
        *colon = 0;
        const char *key = strip_ws(line), *val = strip_ws(colon + 1);
        if (strcmp(key, "input") == 0) {
            mode = INPUT;
        } else if (strcmp(key, "type") == 0) {
            if (strcmp(val, "request") == 0) c->type = SIMDHTTP_REQUEST;
            else if (strcmp(val, "response") == 0) c->type = SIMDHTTP_RESPONSE;
            else if (strcmp(val, "both") == 0) c->type = SIMDHTTP_BOTH;
            else if (strcmp(val, "fields") == 0) c->type = T_FIELDS;
            else if (strcmp(val, "chunked") == 0) c->type = T_CHUNKED;
            else errors += !t_check(0, path, "line %d: bad type '%s'", lineno, val);
        } else if (strcmp(key, "lenient") == 0) {
            char tmp[512];
            snprintf(tmp, sizeof tmp, "%s", val);
            for (char *tok = strtok(tmp, ", "); tok; tok = strtok(NULL, ", ")) {
                unsigned fl = simdhttp_lenient_from_name(tok, strlen(tok));
                if (!fl) errors += !t_check(0, path, "line %d: unknown lenient flag '%s'", lineno, tok);
                c->cfg.lenient |= fl;
            }
        } else if (strcmp(key, "mode") == 0) {
            long m = simdhttp_mode_from_name(val, strlen(val));
            if (m < 0) errors += !t_check(0, path, "line %d: unknown mode '%s'", lineno, val);
            else c->cfg.lenient |= (uint32_t)m;
        } else if (strcmp(key, "max_head_size") == 0) {
            c->cfg.max_head_size = (uint32_t)strtoul(val, NULL, 10);
        } else if (strcmp(key, "max_fields") == 0) {
            c->cfg.max_fields = (uint32_t)strtoul(val, NULL, 10);
        } else if (strcmp(key, "max_chunk_ext") == 0) {
            c->cfg.max_chunk_ext = (uint32_t)strtoul(val, NULL, 10);
        } else if (strcmp(key, "trailers") == 0) {
            if (strcmp(val, "consume") == 0) c->consume_trailers = 1;
            else if (strcmp(val, "keep") != 0) errors += !t_check(0, path, "line %d: bad trailers '%s'", lineno, val);
        } else if (strcmp(key, "eof") == 0) {
            c->eof = strcmp(val, "no") != 0;
        } else {
            errors += !t_check(0, path, "line %d: unknown key '%s'", lineno, key);
        }
    }
    fclose(f);
    return errors;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

char **t_list_dir(const char *dir, const char *suffix, size_t *n)
{
    DIR *d = opendir(dir);
    char **v = NULL;
    *n = 0;
    if (!d) return NULL;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t l = strlen(e->d_name), sl = strlen(suffix);
        if (l <= sl || strcmp(e->d_name + l - sl, suffix) != 0) continue;
        v = realloc(v, (*n + 1) * sizeof *v);
        size_t pl = strlen(dir) + l + 2;
        v[*n] = malloc(pl);
        snprintf(v[*n], pl, "%s/%s", dir, e->d_name);
        (*n)++;
    }
    closedir(d);
    qsort(v, *n, sizeof *v, cmp_str);
    return v;
}
