/* SPDX-License-Identifier: MIT */
/* http_parser_parse_url on every line of a file, written against http-parser's API only and
 * built twice (Debian's libhttp-parser, simdhttp's layer) by mk/compat-http-parser.mk; the two
 * outputs are compared by tests/compat/http_parser.sh against tests/compat/http_parser_url.known.
 * A line is "URL" or "connect URL" (is_connect = 1); \xNN escapes a byte. Output, one line per
 * input line: the line, then "-> 1" (rejected) or "-> 0" and each field present with its bytes
 * and the port value. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "http_parser.h"

int main(int argc, char **argv)
{
    static const char *const names[UF_MAX] = {"schema", "host", "port", "path", "query", "fragment", "userinfo"};
    FILE *f = argc > 1 ? fopen(argv[1], "r") : NULL;
    if (!f) {
        fprintf(stderr, "usage: %s URLFILE\n", argv[0]);
        return 2;
    }
    char line[4096], url[4096];
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        if (!line[0] || line[0] == '#') continue;
        int connect = strncmp(line, "connect ", 8) == 0;
        const char *s = line + (connect ? 8 : 0);
        size_t n = 0;
        for (; *s; s++) {
            unsigned v;
            if (s[0] == '\\' && s[1] == 'x' && sscanf(s + 2, "%2x", &v) == 1) url[n++] = (char)v, s += 3;
            else url[n++] = *s;
        }
        struct http_parser_url u;
        http_parser_url_init(&u);
        int rc = http_parser_parse_url(url, n, connect, &u);
        printf("%s -> %d", line, rc);
        if (rc == 0) {
            for (int i = 0; i < UF_MAX; i++)
                if (u.field_set & (1 << i)) printf(" %s=%.*s", names[i], u.field_data[i].len, url + u.field_data[i].off);
            printf(" port#%u", u.port);
        }
        printf("\n");
    }
    fclose(f);
    return 0;
}
