/* SPDX-License-Identifier: MIT */
/* picohttpparser's README loops, compiled unchanged: mk/compat-picohttpparser.mk extracts its
 * two C blocks (the phr_parse_request loop and the phr_decode_chunked loop) from the README of
 * Debian's h2o source package into readme_request.inc and readme_chunked.inc, and this file
 * gives them what the README leaves to its reader (a socket, the error names, i), once against
 * the real picohttpparser and once against simdhttp's layer. tests/compat/picohttpparser.sh
 * runs both and compares what they print. The request and the chunked body arrive over a
 * socket in small pieces (a child writes them with pauses), so the loops go round with
 * last_len > 0 and decode in several calls. */
#define _POSIX_C_SOURCE 200809L
#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "picohttpparser.h"

enum { IOError = -1, ParseError = -2, RequestIsTooLongError = -3 };

static int request_loop(int sock)
{
    size_t i;
#include "readme_request.inc"
    return 0;
}

static int chunked_loop(int sock)
{
#include "readme_chunked.inc"
    printf("decoded: %.*s\n", (int)size, buf);
    free(buf);
    return 0;
}

/* a child writes `msg` to a socket in pieces of `piece` bytes, 2 ms apart */
static int feed(const char *msg, size_t piece, pid_t *child)
{
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv)) return -1;
    fflush(stdout);
    if ((*child = fork()) == 0) {
        close(sv[0]);
        struct timespec ts = {0, 2000000};
        for (size_t off = 0, n = strlen(msg); off < n; off += piece) {
            if (write(sv[1], msg + off, n - off < piece ? n - off : piece) < 0) _exit(1);
            nanosleep(&ts, NULL);
        }
        _exit(0);
    }
    close(sv[1]);
    return sv[0];
}

int main(void)
{
    static const char req[] = "GET /hoge?a=1 HTTP/1.1\r\nHost: example.com\r\nUser-Agent: readme/1.0\r\n"
                               "Accept: */*\r\nX-Long: 0123456789abcdef0123456789abcdef\r\n\r\n";
    static const char body[] = "5\r\nhello\r\n6;ext=1\r\n, pico\r\n10\r\n and simdhttp!!!\r\n0\r\n\r\n";
    pid_t child;
    int sock = feed(req, 7, &child), rc;
    rc = request_loop(sock);
    printf("request loop: %d\n", rc);
    close(sock);
    waitpid(child, NULL, 0);
    sock = feed(body, 5, &child);
    rc = chunked_loop(sock);
    printf("chunked loop: %d\n", rc);
    close(sock);
    waitpid(child, NULL, 0);
    return 0;
}
