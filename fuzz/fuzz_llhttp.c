/* SPDX-License-Identifier: MIT */
/* Differential fuzzing of simdhttp's llhttp layer against llhttp itself, in one process.
 *
 * tests/compat/llhttp_events.c (the event log of diff.py, written against llhttp's API) is
 * compiled twice into this program: against Debian's llhttp 8.1 and against the layer, each
 * with its llhttp symbols renamed at build time (real_, layer_: bench/peer_obj.sh and a
 * generated macro header, see mk/compat-llhttp.mk), so both parse every input side by side.
 *
 * Input: the 10-byte header of fuzz/fuzz_diff.c, then the stream. b0 bits 0-1 the type
 * (0 request, 1 response, 2-3 both), bit 2 finish() at the end; b1 | b2 << 8 simdhttp's lenient
 * bits, used when 8.1 has them all (headers, chunked_length, keep_alive, transfer_encoding),
 * else none (as diff.py does); b8 | b9 << 8 picks a split point. Chunkings: whole, the split,
 * pieces of 7 bytes.
 *
 * The two logs differ on many inputs by design (tests/compat/llhttp.known lists why, with the
 * RFC section for each), and only diff.py reads that list. So a difference does not stop the
 * fuzzer: the input is written to $LLHTTP_FUZZ_DIVERGE (a directory, if set) and
 * tests/compat/llhttp.sh runs diff.py --fuzz-dir on them: a difference the list does not
 * explain fails there. What stops the fuzzer here: a crash, a sanitizer report, a side that
 * produced no log. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *real_llhttp_events_log(const char *in, size_t len, int type, const char *lenient, int eof, const char *specs);
char *layer_llhttp_events_log(const char *in, size_t len, int type, const char *lenient, int eof, const char *specs);

#define CFG_BYTES 10

static const char *const lenient_names[] = {"headers", "chunked_length", "keep_alive", "transfer_encoding"};
static const char *diverge_dir;
static unsigned long divergences;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    diverge_dir = getenv("LLHTTP_FUZZ_DIVERGE");
    fprintf(stderr, "fuzz_llhttp: llhttp 8.1 against the llhttp layer%s%s\n",
            diverge_dir ? "; differing inputs to " : "", diverge_dir ? diverge_dir : "");
    return 0;
}

static void keep(const uint8_t *data, size_t size)
{
    divergences++;
    if (!diverge_dir) return;
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (size_t i = 0; i < size; i++) h = (h ^ data[i]) * 1099511628211ull;
    char path[4096];
    /* at most 128 files, whatever the run's length: a sample for diff.py, not a corpus */
    snprintf(path, sizeof path, "%s/llhttp-%03u", diverge_dir, (unsigned)(h % 128));
    FILE *f = fopen(path, "wb");
    if (!f) return;
    fwrite(data, 1, size, f);
    fclose(f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t b[CFG_BYTES] = {0};
    memcpy(b, data, size < CFG_BYTES ? size : CFG_BYTES);
    const char *in = size > CFG_BYTES ? (const char *)data + CFG_BYTES : "";
    size_t len = size > CFG_BYTES ? size - CFG_BYTES : 0;
    int type = (b[0] & 3) == 0 ? 1 : (b[0] & 3) == 1 ? 2 : 0; /* llhttp's HTTP_REQUEST, _RESPONSE, _BOTH */
    int eof = (b[0] >> 2) & 1;
    unsigned bits = (unsigned)b[1] | (unsigned)b[2] << 8;
    char lenient[128] = "";
    if ((bits & 0x7ff) && !(bits & 0x7f0)) /* only switches 8.1 has */
        for (unsigned i = 0; i < 4; i++)
            if (bits >> i & 1) {
                if (*lenient) strcat(lenient, ",");
                strcat(lenient, lenient_names[i]);
            }
    char specs[64];
    snprintf(specs, sizeof specs, "0,@%zu,7", len ? ((size_t)b[8] | (size_t)b[9] << 8) % len : 0);
    char *a = real_llhttp_events_log(in, len, type, *lenient ? lenient : NULL, eof, specs);
    char *l = layer_llhttp_events_log(in, len, type, *lenient ? lenient : NULL, eof, specs);
    if (!a || !l) { /* both builds have the four switches: a missing log is a bug */
        fprintf(stderr, "fuzz_llhttp: no log from the %s side\n", a ? "layer" : "real");
        __builtin_trap();
    }
    if (strcmp(a, l) != 0) keep(data, size);
    free(a);
    free(l);
    return 0;
}
