/* SPDX-License-Identifier: MIT */
/* Differential fuzzer: simdhttp's http-parser layer against Debian's http-parser 2.9.4 in one
 * process (its static library with every symbol renamed real_*; fuzz/http_parser_side.c is the
 * one program built against both headers: mk/compat-http-parser.mk).
 *
 * One input = the 10-byte header of fuzz/fuzz_diff.c (so fuzz/corpus seeds it) + bytes:
 *   b0 bits 0-1 the type (0 request, 1 response, 2-3 both)      b8, b9  a split point
 * Checks (the layer refuses some of what http-parser takes and takes some of what it refuses,
 * tests/compat/http_parser.known lists why, so the comparison is over what both accepted):
 *   - the layer gives the same result whole and split in two (its complete messages, the
 *     error, where it stopped), unless http-parser itself does not: it sets parser->upgrade
 *     when the head is complete, so a split inside the body of an upgrade request stops a
 *     caller that checks it after each execute (as this one does) before the message ends;
 *     there the layer split must stop as the real parser split does (on a copy with any
 *     Content-Length over http-parser's limit lowered to it, if it refused one), unless the
 *     real parser reads that message otherwise (no upgrade, other framing: listed
 *     differences), where the layer split must agree with the layer whole up to it;
 *   - every message that both sides complete, in order, before either stops, has the same
 *     method, status, version, target, field names, values (SP/HTAB runs as one SP: an
 *     obs-fold is one SP in the layer) and body with trailers (not compared for 1xx, 204 and
 *     304 responses, which have no content in simdhttp: RFC 9110 15.3.5; nor where the two
 *     chose different framing, e.g. "chunked;a=b", chunked in HTTP/1.0: RFC 9112 6.1, 7;
 *     and the messages after such a one, read from different bytes, are not paired);
 *   - neither side crashes, and the layer is clean under ASan/UBSan.
 * Any other difference prints both views and traps. make test replays fuzz/corpus through
 * fuzz/replay_main.c (tests/compat/http_parser.sh); make fuzz-http-parser runs libFuzzer. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "http_parser_side.h"

#define CFG_BYTES 10

static void show(const char *who, const side_log *l)
{
    fprintf(stderr, "%s: %d messages, error %s, stopped at %zu, upgrade %d\n", who, l->nmsgs, l->errname,
            l->stopped, l->upgrade);
    for (int i = 0; i < l->nmsgs && i < SIDE_MAX_MSGS; i++) {
        const side_msg *m = &l->msg[i];
        fprintf(stderr, "  [%d] complete %d method %u status %u v%u.%u body %zu head:", i, m->complete, m->method,
                m->status, m->major, m->minor, m->body_len);
        for (size_t k = 0; k < m->head_len && k < 300; k++) {
            unsigned char c = (unsigned char)m->head[k];
            if (c >= 0x20 && c < 0x7f) fputc(c, stderr);
            else fprintf(stderr, "\\x%02x", c);
        }
        fputc('\n', stderr);
    }
}

static int same_msg(const side_msg *a, const side_msg *b)
{
    if (a->truncated || b->truncated) return 1; /* not compared: longer than the log keeps */
    int nobody = a->status / 100 == 1 || a->status == 204 || a->status == 304 || a->framing != b->framing;
    return a->method == b->method && a->status == b->status && a->major == b->major && a->minor == b->minor &&
           a->head_len == b->head_len && memcmp(a->head, b->head, a->head_len) == 0 &&
           (nobody || (a->body_len == b->body_len && a->body_hash == b->body_hash));
}

/* The real parser's split run stops as the layer's split run did: at the split, upgrade set,
 * the same messages begun and completed (http-parser's upgrade flag, see above). */
static int same_upgrade_stop(const side_log *layer2, const side_log *real2, size_t split)
{
    if (!layer2->upgrade || !real2->upgrade || layer2->stopped != split || real2->stopped != split ||
        layer2->nmsgs != real2->nmsgs || layer2->error != real2->error)
        return 0;
    if (layer2->nmsgs > SIDE_MAX_STATES) return 0;
    for (int i = 0; i < layer2->nmsgs; i++)
        if (layer2->st[i].complete != real2->st[i].complete) return 0;
    return 1;
}

/* Or the real parser cannot confirm it, as it reads the message open at the split otherwise
 * (listed differences: "Connection: ,upgrade" is no upgrade to it, "Transfer-Encoding: ,
 * chunked" no body, as empty list elements are allowed, RFC 9110 5.6.1; or it ends the body
 * before the split (another length); or it refuses the
 * body before the split, e.g. at the HTAB of "5\t\t\n", the layer at the line end; or its
 * head, e.g. a Content-Length with HTAB after it): the layer's split agrees with the layer's
 * whole run up to that message, whose head the layer completed with the upgrade set, and
 * stopped at the split. Where the real parser refuses a Content-Length only for its size,
 * the caller first tries an exact confirmation with the value lowered. The real parser may
 * also never reach that message, having refused an earlier one (a listed difference, e.g. a
 * request-target "tion:/" that it does not take as an absolute-form): then only the layer's
 * two runs are compared, as above. */
static int upgrade_stop_read_otherwise(const side_log *layer, const side_log *layer2, const side_log *real2,
                                       size_t split)
{
    int n = layer2->nmsgs;
    if (n < 1 || n > SIDE_MAX_STATES || n > layer->nmsgs || !layer->upgrade || !layer2->upgrade ||
        layer2->stopped != split || layer2->error != 0)
        return 0;
    int earlier = n > real2->nmsgs; /* the real parser stopped in an earlier message */
    if (earlier && !(real2->error && real2->stopped < split)) return 0;
    const side_state *l = &layer2->st[n - 1];
    if (l->complete || !l->headed) return 0;
    if (!earlier) { /* the real parser's view of that message: read otherwise? */
        const side_state *r = &real2->st[n - 1];
        int otherwise = r->headed ? !real2->upgrade || l->framing != r->framing || r->complete ||
                                        (real2->error && real2->stopped < split)
                                  : real2->error != 0; /* refused the head: "Content-Length: 1\t" */
        if (!otherwise) return 0;
    }
    for (int i = 0; i < n - 1; i++)
        if (!layer2->st[i].complete || !layer->st[i].complete || (!earlier && !real2->st[i].complete)) return 0;
    return 1;
}

/* http-parser refuses a Content-Length above 18446744073709551609 (its overflow test is
 * conservative), the layer takes up to 2^64-1 (http_parser.known). To confirm the upgrade
 * split rule on such an input, the real parser gets a copy with each of those values lowered
 * to 18446744073709551609, written over the same digits (leading zeros pad it): every offset
 * stays and the body stays endless. Returns the number of values lowered. */
static int lower_refused_content_lengths(uint8_t *d, size_t len)
{
    static const char name[] = "content-length:", top[] = "18446744073709551609";
    const size_t nl = sizeof name - 1, tl = sizeof top - 1;
    int n = 0;
    for (size_t i = 0; i + nl <= len; i++) {
        if (i && d[i - 1] != '\n') continue;
        size_t k = 0;
        while (k < nl && (d[i + k] | 0x20) == name[k]) k++; /* '-' and ':' have bit 5 set */
        if (k < nl) continue;
        size_t j = i + nl, e;
        while (j < len && (d[j] == ' ' || d[j] == '\t')) j++;
        uint64_t v = 0;
        int over = 0;
        for (e = j; e < len && d[e] >= '0' && d[e] <= '9'; e++) {
            over |= v > (UINT64_MAX - (d[e] - '0')) / 10;
            v = v * 10 + (d[e] - '0');
        }
        if (over || v <= 18446744073709551609u) continue;
        memset(d + j, '0', e - j - tl); /* v > 10^19: at least 20 digits */
        memcpy(d + e - tl, top, tl);
        n++;
    }
    return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t b[CFG_BYTES] = {0};
    memcpy(b, data, size < CFG_BYTES ? size : CFG_BYTES);
    const uint8_t *in = size > CFG_BYTES ? data + CFG_BYTES : data + size;
    size_t len = size > CFG_BYTES ? size - CFG_BYTES : 0;
    int type = (b[0] & 3) > 2 ? 2 : b[0] & 3;
    size_t split = len ? ((size_t)b[8] | (size_t)b[9] << 8) % (len + 1) : 0;

    static side_log real, layer, layer2, real2;
    real_side_run(in, len, type, 0, &real);
    layer_side_run(in, len, type, 0, &layer);
    layer_side_run(in, len, type, split, &layer2);
    int bad = 0, api_split = 0, ran_real2 = 0, lowered = 0;
    /* (an error found in bytes of the first piece may stop the second at its start: in type
     * both, simdhttp decides that "HTT..." is a method only at a later byte) */
    if (layer.nmsgs != layer2.nmsgs || layer.error != layer2.error || layer.upgrade != layer2.upgrade ||
        (layer.stopped != layer2.stopped && !(layer2.stopped == split && layer.stopped < split))) {
        /* upgrade seen at the end of the first piece, mid-message: http-parser's API, if the
         * real parser split the same way stops at the same byte with the same messages */
        real_side_run(in, len, type, split, &real2);
        ran_real2 = 1;
        api_split = same_upgrade_stop(&layer2, &real2, split) || upgrade_stop_read_otherwise(&layer, &layer2, &real2, split);
        if (!api_split && strcmp(real2.errname, "HPE_INVALID_CONTENT_LENGTH") == 0) {
            uint8_t *low = malloc(len ? len : 1);
            if (!low) abort();
            memcpy(low, in, len);
            if (lower_refused_content_lengths(low, len)) {
                real_side_run(low, len, type, split, &real2);
                api_split = same_upgrade_stop(&layer2, &real2, split) ||
                            upgrade_stop_read_otherwise(&layer, &layer2, &real2, split);
                lowered = 1;
            }
            free(low);
        }
        if (!api_split) {
            fprintf(stderr, "the layer split at %zu differs from whole\n", split);
            bad = 1;
        }
    }
    for (int i = 0; !bad && !api_split && i < layer.nmsgs && i < SIDE_MAX_MSGS; i++)
        if (layer.msg[i].complete != layer2.msg[i].complete ||
            (layer.msg[i].complete && !same_msg(&layer.msg[i], &layer2.msg[i]))) {
            fprintf(stderr, "the layer split at %zu: message %d differs\n", split, i);
            bad = 1;
        }
    /* messages both completed, in order, up to the first that one side did not complete */
    for (int i = 0; !bad && i < real.nmsgs && i < layer.nmsgs && i < SIDE_MAX_MSGS; i++) {
        if (!real.msg[i].complete || !layer.msg[i].complete) break;
        if (!same_msg(&real.msg[i], &layer.msg[i])) {
            const side_msg *x = &real.msg[i], *y = &layer.msg[i];
            size_t k = 0;
            while (k < x->head_len && k < y->head_len && x->head[k] == y->head[k]) k++;
            fprintf(stderr, "message %d, completed by both, differs (head %zu/%zu bytes, first difference at %zu; "
                    "body %zu/%zu)\n", i, x->head_len, y->head_len, k, x->body_len, y->body_len);
            bad = 1;
        }
        /* the same message with bodies of different lengths (a listed difference: a 1xx, 204
         * or 304 response's Content-Length, framing chosen differently): the two read the next
         * message from different bytes, so there is nothing more to pair */
        if (real.msg[i].body_len != layer.msg[i].body_len) break;
    }
    if (bad) {
        show("real http-parser", &real);
        show("layer", &layer);
        show("layer, split", &layer2);
        if (ran_real2) show(lowered ? "real http-parser, split, Content-Length lowered" : "real http-parser, split", &real2);
        __builtin_trap();
    }
    return 0;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    return 0;
}
