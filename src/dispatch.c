/* Run-time choice of the scanner path: once per process, then one predictable switch per call.
 * (The SIMD issue adds the x86-64 and aarch64 paths here.) */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static simdhttp_isa chosen; /* 0: not chosen yet */
static const char *isa_error;

static const char *const isa_names[] = {NULL, "scalar", "sse2", "sse42", "avx2", "avx512", "neon"};

const char *simdhttp_isa_to_name(simdhttp_isa isa)
{
    return (unsigned)isa < sizeof isa_names / sizeof *isa_names ? isa_names[isa] : NULL;
}

int simdhttp_isa_supported(simdhttp_isa isa) { return isa == SIMDHTTP_ISA_SCALAR; }

static simdhttp_isa best(void) { return SIMDHTTP_ISA_SCALAR; }

static simdhttp_isa choose(void)
{
    simdhttp_isa isa = best();
    const char *want = getenv("SIMDHTTP_ISA");
    if (want && *want) {
        simdhttp_isa w = 0;
        for (unsigned i = 1; i < sizeof isa_names / sizeof *isa_names; i++)
            if (strcmp(want, isa_names[i]) == 0) w = (simdhttp_isa)i;
        if (!w) isa_error = "SIMDHTTP_ISA names no known path";
        else if (!simdhttp_isa_supported(w)) isa_error = "SIMDHTTP_ISA names a path this CPU lacks";
        else isa = w;
    }
    __atomic_store_n(&chosen, isa, __ATOMIC_RELAXED);
    return isa;
}

simdhttp_isa simdhttp__isa(void)
{
    simdhttp_isa isa = __atomic_load_n(&chosen, __ATOMIC_RELAXED);
    return isa ? isa : choose();
}

simdhttp_isa simdhttp_isa_get(void) { return simdhttp__isa(); }
const char *simdhttp_isa_name(void) { return isa_names[simdhttp__isa()]; }
const char *simdhttp_isa_error(void) { (void)simdhttp__isa(); return isa_error; }

int simdhttp_isa_set(simdhttp_isa isa)
{
    if (!simdhttp_isa_supported(isa)) return -1;
    __atomic_store_n(&chosen, isa, __ATOMIC_RELAXED);
    return 0;
}

simdhttp_errno simdhttp_execute(simdhttp_parser *p, const char *data, size_t len)
{
    if (p->_error) return p->_error;
    switch (simdhttp__isa()) {
    default: return simdhttp__execute_scalar(p, data, len);
    }
}

long simdhttp_parse_head(simdhttp_head *h, simdhttp_type type, const char *buf, size_t len,
                         const simdhttp_config *cfg)
{
    simdhttp_parser p;
    p.data = NULL;
    simdhttp__configure(&p, type, NULL, cfg);
    h->num_fields = 0;
    h->error = SIMDHTTP_OK;
    h->error_reason = NULL;
    h->error_offset = 0;
    switch (simdhttp__isa()) {
    default: return simdhttp__parse_head_scalar(h, &p, buf, len);
    }
}
