/* SPDX-License-Identifier: MIT */
/* Smoke test: every corpus file parses whole and byte by byte with identical logs, and the
 * head API agrees on the head length. (The full rule suite lives in test_parser.c.) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testlib.h"

static const char *const files[] = {"browser-get.http", "get-32h.http", "get-4h.http", "pipelined-16.http",
                                    "post-10k.http", "response-chunked.http", "response-typical.http",
                                    "seed-simple.http"};

int main(void)
{
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        char path[512];
        size_t len, one = 1;
        snprintf(path, sizeof path, "%s/%s", t_corpus_dir(), files[i]);
        char *in = t_read_file(path, &len);
        if (!t_check(in != NULL, files[i], "cannot read %s", path)) continue;
        char *whole = t_stream_log(SIMDHTTP_BOTH, NULL, in, len, NULL, 0, 1, -1);
        char *bytes = t_stream_log(SIMDHTTP_BOTH, NULL, in, len, &one, 1, 1, -1);
        size_t wl = strlen(whole);
        t_check(wl >= 3 && strcmp(whole + wl - 3, "ok\n") == 0, files[i], "whole parse failed: %s",
                whole + (wl > 60 ? wl - 60 : 0));
        t_check(strcmp(whole, bytes) == 0, files[i], "byte-by-byte log differs from whole");
        long r;
        char *head = t_head_log(SIMDHTTP_BOTH, NULL, in, len, &r);
        t_check(r > 0 && (size_t)r <= len, files[i], "head API: %s", head);
        free(in), free(whole), free(bytes), free(head);
    }
    return t_summary();
}
