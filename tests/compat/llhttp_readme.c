/* SPDX-License-Identifier: MIT */
/* llhttp's README usage example, compiled unchanged: the build extracts the C block under
 * "## Usage" from Debian's /usr/share/doc/node-llhttp/README.md.gz (never committed) into
 * llhttp_readme.inc, which becomes the body of main() here. The example leaves
 * handle_on_message_complete and the headers it uses to the reader: they are here. Built against
 * the layer and against the real llhttp; both must parse the request and complete the message.
 * Without the README (a system that excludes /usr/share/doc) the test says so and skips. */
#include <stdio.h>
#include <string.h>

#include "llhttp.h"

static int completed;

static int handle_on_message_complete(llhttp_t *parser)
{
    (void)parser;
    completed++;
    return 0;
}

int main(void)
{
#include "llhttp_readme.inc"
    if (completed < 0) { /* the build found no README to take the example from */
        printf("note - no %s: README example skipped\n", "/usr/share/doc/node-llhttp/README.md.gz");
        printf("0 passed, 0 failed\n");
        return 0;
    }
    int ok = err == HPE_OK && completed == 1;
    printf("%s - README example: %s, %d message(s) completed\n", ok ? "ok" : "not ok", llhttp_errno_name(err),
           completed);
    printf("%d passed, %d failed\n", ok, !ok);
    return !ok;
}
