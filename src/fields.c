/* SPDX-License-Identifier: MIT */
/* simdhttp_fields: the header field collection (public API in section 6 of simdhttp.h).
 *
 * One allocation per storage: a header, the entry array and the byte arena, back to back.
 * Entries are 20 bytes {name offset/len, value offset/len, name hash, known id}; the arena
 * holds the bytes. Known names get their id once, when added, from a perfect hash
 * (src/fields_names.h), so lookups of them are byte compares over the entries and contains()
 * is a bit test. The design is measured in docs/fields.md. */
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
/* the span scanners of the path every CPU of the architecture has (SSE2 on x86-64, NEON on
 * AArch64: baseline, no flags, so a distro build keeps them) */
#if defined(__SSE2__)
#include "isa/sse2/scan_sse2.h"
#elif defined(__aarch64__) && defined(__ARM_NEON)
#include "isa/neon/scan_neon.h"
#else
#include "isa/scalar/scan_scalar.h"
#endif

#include "internal.h"
#include "tables.h"
#include "fields_names.h"

_Static_assert(FH_COUNT == SIMDHTTP_FIELD_ID_COUNT, "src/fields_names.h and the header disagree");
_Static_assert(FH_COUNT <= 128, "the known-id bitmap has 128 bits");

typedef struct fentry {
    uint32_t name_off, value_off, value_len;
    uint32_t hash;     /* of the case-folded name; 0 for a known name (its id says it all) */
    uint16_t name_len; /* names are at most MAX_NAME bytes */
    uint8_t id;        /* known id, 0 if none */
    uint8_t pad_;
} fentry; /* 20 bytes: 16 entries and a typical head stay in glibc's tcache sizes (<= 1032) */

struct simdhttp_fields_store {
    atomic_uint refs;
    uint32_t n, cap;       /* entries used / allocated */
    uint32_t used, bcap;   /* arena bytes used / allocated (dead bytes of removed fields
                              included: they go at the next reallocation) */
    uint64_t known[2];     /* bit id set when a field with known id `id` is present */
    char *bytes;           /* the arena, right after e[cap] */
    fentry e[];
};
typedef struct simdhttp_fields_store store;

#define MAX_FIELDS (1u << 24)
#define MAX_NAME 0xffffu
#define MAX_BYTES 0xffffffffu

/* Every allocation of the collection goes through here, so tests and the benchmark can count
 * them (a relaxed atomic add: noise next to malloc itself). */
SH_INTERNAL atomic_ulong simdhttp__fields_mallocs;
SH_INTERNAL atomic_ulong simdhttp__fields_mallocs_fail_at; /* tests: fail the Nth (0: never) */

static store *st_alloc(uint32_t cap, uint32_t bcap)
{
    unsigned long k = atomic_fetch_add_explicit(&simdhttp__fields_mallocs, 1, memory_order_relaxed) + 1;
    unsigned long f = atomic_load_explicit(&simdhttp__fields_mallocs_fail_at, memory_order_relaxed);
    if (f && k == f) return NULL;
    store *s = malloc(sizeof(store) + (size_t)cap * sizeof(fentry) + bcap);
    if (!s) return NULL;
    atomic_init(&s->refs, 1);
    s->n = 0, s->cap = cap, s->used = 0, s->bcap = bcap;
    s->known[0] = s->known[1] = 0;
    s->bytes = (char *)(s->e + cap);
    return s;
}

static void st_release(store *s)
{
    /* release/acquire: the last owner must see every write of the others before freeing */
    if (s && atomic_fetch_sub_explicit(&s->refs, 1, memory_order_release) == 1) {
        atomic_thread_fence(memory_order_acquire);
        free(s);
    }
}

/* ---- names ---- */

static inline uint64_t ld64(const char *p) { uint64_t x; memcpy(&x, p, 8); return x; }
static inline uint32_t ld32(const char *p) { uint32_t x; memcpy(&x, p, 4); return x; }
static inline uint16_t ld16(const char *p) { uint16_t x; memcpy(&x, p, 2); return x; }
static inline void st64(char *p, uint64_t x) { memcpy(p, &x, 8); }
static inline void st32(char *p, uint32_t x) { memcpy(p, &x, 4); }

/* Copy of a short name or value without a libc call (measured: a memcpy call per span was a
 * third of build-from-head); overlapping word stores at the tail. */
static inline void copy_bytes(char *d, const char *s, size_t n)
{
    if (n > 32) {
        memcpy(d, s, n);
    } else if (n >= 8) {
        uint64_t a = ld64(s), b = ld64(s + n - 8);
        if (n > 16) {
            uint64_t c = ld64(s + 8), e = ld64(s + n - 16);
            st64(d + 8, c), st64(d + n - 16, e);
        }
        st64(d, a), st64(d + n - 8, b);
    } else if (n >= 4) {
        uint32_t a = ld32(s), b = ld32(s + n - 4);
        st32(d, a), st32(d + n - 4, b);
    } else if (n) {
        d[0] = s[0], d[n / 2] = s[n / 2], d[n - 1] = s[n - 1];
    }
}

/* in[0..len) equals canon ignoring ASCII case at the letter positions fold marks. Overlapping
 * word loads: never reads outside in[0..len) (canon and fold are padded). */
static inline int fold_eq(const char *in, size_t len, const char *canon, const char *fold)
{
    if (len >= 8) {
        /* the first word peeled: a name of 9..16 bytes (most known names of 8 or more) runs no
         * loop, and tests for it once */
        if ((ld64(in) | ld64(fold)) != ld64(canon)) return 0;
        if (len > 16)
            for (size_t k = 8; k + 8 < len; k += 8)
                if ((ld64(in + k) | ld64(fold + k)) != ld64(canon + k)) return 0;
        return (ld64(in + len - 8) | ld64(fold + len - 8)) == ld64(canon + len - 8);
    }
    if (len >= 4)
        return (ld32(in) | ld32(fold)) == ld32(canon) &&
               (ld32(in + len - 4) | ld32(fold + len - 4)) == ld32(canon + len - 4);
    if (len >= 2)
        return (uint16_t)(ld16(in) | ld16(fold)) == ld16(canon) &&
               (uint16_t)(ld16(in + len - 2) | ld16(fold + len - 2)) == ld16(canon + len - 2);
    return (char)(in[0] | fold[0]) == canon[0];
}

/* The perfect hash of src/fields_gen.py: the two bytes at len/2 - 1, the last two, folded to
 * lower case, and the length pick the only candidate; one compare confirms it. */
static inline __attribute__((always_inline)) unsigned known_id(const char *name, size_t len)
{
    if (len - 2 > sizeof fh_name[0] - 2) return 0; /* 2..40 bytes (also catches len 0, 1) */
    uint32_t key = ((uint32_t)ld16(name + len / 2 - 1) | (uint32_t)ld16(name + len - 2) << 16 | 0x20202020u) +
                   (uint32_t)len * 0x01000193u;
    unsigned id = fh_slot[(uint32_t)(key * FH_MUL) >> (32 - FH_BITS)];
    if (!id || fh_len[id] != len || !fold_eq(name, len, fh_name[id], fh_fold[id])) return 0;
    return id;
}

/* Hash of an unknown name, case-folded a word at a time. OR 0x20 folds A-Z onto a-z (and
 * '^' onto '~', '_' onto DEL: harmless, equal hashes are confirmed by name_cmp). */
static inline uint32_t name_hash(const char *p, size_t len)
{
    const uint64_t F = 0x2020202020202020ull, K = 0x9E3779B97F4A7C15ull, K2 = 0xC2B2AE3D27D4EB4Full;
    uint64_t a, b, h = len;
    if (len >= 8) {
        for (size_t k = 0; k + 16 < len; k += 8) h = (h ^ (ld64(p + k) | F)) * K;
        a = ld64(p + (len > 16 ? len - 16 : 0)), b = ld64(p + len - 8);
    } else if (len >= 4) {
        a = ld32(p), b = ld32(p + len - 4);
    } else {
        const unsigned char *u = (const unsigned char *)p;
        a = len ? u[0] : 0, b = len ? (uint64_t)u[len - 1] << 8 | u[len / 2] : 0;
    }
    h ^= (a | F) * K ^ (b | F) * K2;
    h ^= h >> 31;
    return (uint32_t)(h >> 32) ^ (uint32_t)h;
}

/* tests: the hash, to build colliding names on purpose */
SH_INTERNAL uint32_t simdhttp__fields_hash(const char *p, size_t len) { return name_hash(p, len); }

static const unsigned char lower[256] = {
#define L8(b) b, b + 1, b + 2, b + 3, b + 4, b + 5, b + 6, b + 7
    L8(0x00), L8(0x08), L8(0x10), L8(0x18), L8(0x20), L8(0x28), L8(0x30), L8(0x38),
    0x40, L8(0x61), L8(0x69), L8(0x71), 0x79, 0x7a, 0x5b, 0x5c, 0x5d, 0x5e, 0x5f,
    L8(0x60), L8(0x68), L8(0x70), L8(0x78), L8(0x80), L8(0x88), L8(0x90), L8(0x98),
    L8(0xa0), L8(0xa8), L8(0xb0), L8(0xb8), L8(0xc0), L8(0xc8), L8(0xd0), L8(0xd8),
    L8(0xe0), L8(0xe8), L8(0xf0), L8(0xf8)
#undef L8
};

/* ASCII case-insensitive order of two names (length last): for equality sorting. */
static int name_cmp(const char *a, size_t al, const char *b, size_t bl)
{
    size_t n = al < bl ? al : bl;
    for (size_t i = 0; i < n; i++) {
        int d = (int)lower[(unsigned char)a[i]] - (int)lower[(unsigned char)b[i]];
        if (d) return d;
    }
    return (al > bl) - (al < bl);
}

/* One word of a case-insensitive compare: x is a's word, d = a ^ b. Equal when the only
 * differences are bit 0x20 at bytes of x that are ASCII letters. */
static inline int ci_word(uint64_t x, uint64_t d)
{
    const uint64_t F = 0x2020202020202020ull, H = 0x8080808080808080ull;
    if (d & ~F) return 0;
    uint64_t l = (x | F) & ~H;                     /* lower-cased, 7 bits: no carries below */
    uint64_t ge_a = l + 0x1f1f1f1f1f1f1f1full;     /* high bit: l >= 'a' */
    uint64_t gt_z = l + 0x0505050505050505ull;     /* high bit: l > 'z' */
    uint64_t letter = ge_a & ~gt_z & ~x & H;       /* ~x: not a byte >= 0x80 */
    return (d & ~(letter >> 2)) == 0;
}

/* a[0..n) equals b[0..n) ignoring ASCII case, a word at a time (names: usually one or two
 * words, usually the same case: then it is one load and compare per word). */
static inline int ci_eq(const char *a, const char *b, size_t n)
{
    uint64_t x, y;
    if (n >= 8) {
        for (size_t k = 0; k + 8 < n; k += 8) {
            x = ld64(a + k), y = ld64(b + k);
            if (x != y && !ci_word(x, x ^ y)) return 0;
        }
        x = ld64(a + n - 8), y = ld64(b + n - 8);
    } else if (n >= 4) {
        x = (uint64_t)ld32(a) << 32 | ld32(a + n - 4), y = (uint64_t)ld32(b) << 32 | ld32(b + n - 4);
    } else if (n) {
        const unsigned char *u = (const unsigned char *)a, *v = (const unsigned char *)b;
        x = (uint64_t)u[0] << 16 | (uint64_t)u[n / 2] << 8 | u[n - 1];
        y = (uint64_t)v[0] << 16 | (uint64_t)v[n / 2] << 8 | v[n - 1];
    } else {
        return 1;
    }
    return x == y || ci_word(x, x ^ y);
}

/* a[0..n) == b[0..n): short values without a libc call */
static inline int bytes_eq(const char *a, const char *b, size_t n)
{
    if (n > 32) return memcmp(a, b, n) == 0;
    if (n >= 8) {
        for (size_t k = 0; k + 8 < n; k += 8)
            if (ld64(a + k) != ld64(b + k)) return 0;
        return ld64(a + n - 8) == ld64(b + n - 8);
    }
    if (n >= 4) return ld32(a) == ld32(b) && ld32(a + n - 4) == ld32(b + n - 4);
    return n == 0 || (a[0] == b[0] && a[n / 2] == b[n / 2] && a[n - 1] == b[n - 1]);
}

static int valid_name(const char *p, size_t len)
{
    unsigned ok = len != 0; /* no early exit: one AND per byte, no branch */
    for (size_t i = 0; i < len; i++) ok &= simdhttp_tchar[(unsigned char)p[i]];
    return (int)ok;
}

/* A byte of x is NUL, CR or LF (has-zero-byte test on x, x^CR.., x^LF..). */
static inline uint64_t bad_value_word(uint64_t x)
{
    const uint64_t L = 0x0101010101010101ull, H = 0x8080808080808080ull;
    uint64_t a = x ^ (L * '\r'), b = x ^ (L * '\n');
    return ((x - L) & ~x & H) | ((a - L) & ~a & H) | ((b - L) & ~b & H);
}

/* No CR, LF or NUL: a word at a time, the tail as an overlapping word. */
static int valid_value(const char *p, size_t len)
{
    uint64_t x;
    if (len >= 8) {
        for (size_t i = 0; i + 8 < len; i += 8)
            if (bad_value_word(ld64(p + i))) return 0;
        x = ld64(p + len - 8);
    } else if (len >= 4) {
        x = (uint64_t)ld32(p) << 32 | ld32(p + len - 4);
    } else {
        const unsigned char *u = (const unsigned char *)p;
        x = 0x2020202020202020ull; /* SP filler: allowed */
        if (len) x = x << 24 | (uint64_t)u[0] << 16 | (uint64_t)u[len / 2] << 8 | u[len - 1];
    }
    return !bad_value_word(x);
}

/* A name argument resolved once per call: known id, or hash for a scan. */
typedef struct qname {
    const char *p;
    size_t len;
    unsigned id;
    uint32_t hash;
} qname;

/* @return 0, or -1 for an id out of range (name == NULL form). */
static inline __attribute__((always_inline)) int qname_make(qname *q, const char *name, size_t len)
{
    if (!name) {
        if (len == 0 || len >= FH_COUNT) return -1;
        q->p = fh_name[len], q->len = fh_len[len], q->id = (unsigned)len, q->hash = 0;
        return 0;
    }
    q->p = name, q->len = len, q->id = known_id(name, len);
    q->hash = q->id ? 0 : name_hash(name, len);
    return 0;
}

static inline int entry_is(const store *s, const fentry *e, const qname *q)
{
    if (q->id) return e->id == q->id;
    return e->hash == q->hash && e->id == 0 && e->name_len == q->len &&
           ci_eq(s->bytes + e->name_off, q->p, q->len);
}

static inline void known_set(store *s, unsigned id) { s->known[id >> 6] |= 1ull << (id & 63); }
static inline int known_has(const store *s, unsigned id) { return (int)(s->known[id >> 6] >> (id & 63) & 1); }

/* ---- growth and copy-on-write ---- */

/* Make f's storage private with room for `more` entries and `bytes` arena bytes. A new block
 * gets the live entries with their bytes compacted. The old block is returned in *old (to be
 * released by the caller after it copied its input, which may point into the old block).
 * @return 0 or SIMDHTTP_FIELDS_NOMEM / SIMDHTTP_E_INVALID_ARGUMENT (f unchanged). */
static int prepare(simdhttp_fields *f, size_t more, size_t bytes, store **old)
{
    store *s = f->_s;
    *old = NULL;
    size_t n = s ? s->n : 0;
    if (more > MAX_FIELDS - n) return SIMDHTTP_E_INVALID_ARGUMENT;
    int shared = s && atomic_load_explicit(&s->refs, memory_order_acquire) != 1;
    if (s && !shared && s->cap - s->n >= more && s->bcap - s->used >= bytes) return 0;

    size_t live = 0;
    for (size_t i = 0; i < n; i++) live += (size_t)s->e[i].name_len + s->e[i].value_len;
    if (bytes > MAX_BYTES - live) return SIMDHTTP_E_INVALID_ARGUMENT;
    size_t cap = n + more, bcap = live + bytes;
    if (!shared || !s) {
        /* growing (not detaching): geometric, and keep the arena in step with the entries so
         * n appends cost O(log n) allocations whichever of the two fills first */
        size_t c2 = s ? 2 * (size_t)s->cap : 8, b2 = s ? 2 * (size_t)s->bcap : 0;
        if (cap < c2) cap = c2;
        size_t per = n ? live / n : bytes / (more ? more : 1);
        if (per < 32) per = 32;
        if (b2 < cap * per) b2 = cap * per;
        if (bcap < b2) bcap = b2;
    } else {
        cap += 2 + n / 8, bcap += 64 + live / 8; /* a detach: room for a few edits */
    }
    if (cap > MAX_FIELDS) cap = MAX_FIELDS;
    if (bcap > MAX_BYTES) bcap = MAX_BYTES;
    store *t = st_alloc((uint32_t)cap, (uint32_t)bcap);
    if (!t) return SIMDHTTP_FIELDS_NOMEM;
    uint32_t off = 0;
    for (size_t i = 0; i < n; i++) {
        fentry e = s->e[i];
        memcpy(t->bytes + off, s->bytes + e.name_off, e.name_len);
        e.name_off = off, off += e.name_len;
        memcpy(t->bytes + off, s->bytes + e.value_off, e.value_len);
        e.value_off = off, off += e.value_len;
        t->e[i] = e;
    }
    if (s) t->n = s->n, t->known[0] = s->known[0], t->known[1] = s->known[1];
    t->used = off;
    f->_s = t;
    *old = s;
    return 0;
}

/* Validate a (name, value) for a mutation. */
static int check_field(qname *q, const char *name, size_t nl, const char *value, size_t vl)
{
    if (qname_make(q, name, nl)) return SIMDHTTP_E_INVALID_ARGUMENT;
    if (name && !valid_name(name, nl)) return SIMDHTTP_E_INVALID_HEADER_TOKEN;
    if (nl > MAX_NAME) return SIMDHTTP_E_INVALID_ARGUMENT;
    if (vl && !value) return SIMDHTTP_E_INVALID_ARGUMENT;
    if (!valid_value(value, vl)) return SIMDHTTP_E_INVALID_HEADER_VALUE;
    return 0;
}

static void put_entry(store *s, fentry *e, const qname *q, const char *value, size_t vl)
{
    e->name_off = s->used, e->name_len = (uint16_t)q->len;
    copy_bytes(s->bytes + s->used, q->p, q->len), s->used += (uint32_t)q->len;
    e->value_off = s->used, e->value_len = (uint32_t)vl;
    copy_bytes(s->bytes + s->used, value, vl), s->used += (uint32_t)vl;
    e->hash = q->hash, e->id = (uint8_t)q->id;
    e->pad_ = 0;
    if (q->id) known_set(s, q->id);
}

/* ---- public: ids, lifetime ---- */

unsigned simdhttp_field_id(const char *name, size_t len) { return name ? known_id(name, len) : 0; }

const char *simdhttp_field_id_name(unsigned id) { return id && id < FH_COUNT ? fh_name[id] : NULL; }

void simdhttp_fields_init(simdhttp_fields *f) { f->_s = NULL; }

void simdhttp_fields_free(simdhttp_fields *f)
{
    st_release(f->_s);
    f->_s = NULL;
}

void simdhttp_fields_copy(simdhttp_fields *dst, const simdhttp_fields *src)
{
    store *s = src->_s;
    if (dst->_s == s) return;
    if (s) atomic_fetch_add_explicit(&s->refs, 1, memory_order_relaxed);
    st_release(dst->_s);
    dst->_s = s;
}

/* ---- public: mutation ---- */

/* Largest gap between consecutive spans for the one-block copy: ": " or CRLF plus a little
 * OWS. Under 8 so that spans in separate malloc blocks (8-byte chunk header at least) or
 * separate objects with sanitizer redzones never qualify; and far under a page, so the bytes
 * read between two spans always lie on pages the spans themselves occupy. */
#define BLOCK_GAP_BITS 3
#define BLOCK_GAP ((1u << BLOCK_GAP_BITS) - 1)
_Static_assert(MAX_NAME == 0xffffu, "the block test shifts name lengths by 16");

static inline void entry_from(store *s, fentry *e, const char *name, uint32_t name_off, size_t nl,
                              uint32_t value_off, size_t vl)
{
    unsigned id = known_id(name, nl);
    e->name_off = name_off, e->name_len = (uint16_t)nl;
    e->value_off = value_off, e->value_len = (uint32_t)vl;
    e->id = (uint8_t)id;
    e->hash = id ? 0 : name_hash(name, nl);
    s->known[id >> 6] |= 1ull << (id & 63);
}

int simdhttp_fields_from_head(simdhttp_fields *f, const simdhttp_head *head)
{
    if (!head || (head->num_fields && !head->fields)) return SIMDHTTP_E_INVALID_ARGUMENT;
    size_t n = head->num_fields, bytes = 0;
    const simdhttp_field *hf = head->fields;
    if (n > MAX_FIELDS) return SIMDHTTP_E_INVALID_ARGUMENT;
    /* A parsed head's spans lie in order in one buffer, a few bytes apart: then one memcpy of
     * that block replaces 2n small copies (measured: the copies were a third of the cost).
     * Anything else (obs-fold continuations, spans out of order or far apart) is copied
     * span by span. */
    uintptr_t lo = n ? (uintptr_t)hf[0].name : 0, end = lo, far = !n;
    for (size_t i = 0; i < n; i++) {
        size_t nl = hf[i].name_len;
        uintptr_t np = (uintptr_t)hf[i].name, vp = (uintptr_t)hf[i].value;
        /* gaps over BLOCK_GAP (2^k - 1: OR-ing them and shifting tests both); unsigned
         * wrap-around makes "before" count as "far", a NULL span too; so does a name of 0 or
         * over MAX_NAME bytes (the span-by-span path reports it) */
        far |= ((np - end) | (vp - np - nl)) >> BLOCK_GAP_BITS | (nl - 1) >> 16 |
               (uintptr_t)((uint64_t)hf[i].value_len >> 32); /* (vp + a huge length wraps) */
        end = vp + hf[i].value_len;
    }
    int block = !far;
    if (block) {
        bytes = end - lo; /* at most the spans plus 2 * BLOCK_GAP per field */
    } else {
        for (size_t i = 0; i < n; i++) {
            /* (a length near SIZE_MAX would wrap the sum: a list over MAX_BYTES all the same) */
            if (hf[i].value_len > MAX_BYTES) return SIMDHTTP_E_INVALID_ARGUMENT;
            bytes += hf[i].name_len + hf[i].value_len + 1;
        }
    }
    if (bytes > MAX_BYTES) return SIMDHTTP_E_INVALID_ARGUMENT;
    /* A handle that owns its storage alone, with room, is refilled in place: a server that
     * builds one list per request into the same handle then allocates once, not per message
     * (malloc + free were ~100 of ~760 instructions per build). Only on the block path, which
     * cannot fail half-way, so a failure still leaves the list unchanged. */
    store *s = f->_s;
    int reuse = block && s && s->cap >= n && s->bcap >= bytes &&
                atomic_load_explicit(&s->refs, memory_order_acquire) == 1;
    if (reuse) {
        s->n = 0, s->used = 0;
        s->known[0] = s->known[1] = 0;
    } else {
        s = st_alloc((uint32_t)(n ? n : 1), (uint32_t)bytes);
        if (!s) return SIMDHTTP_FIELDS_NOMEM;
    }
    char *b = s->bytes;
    uint32_t off = 0, k = 0;
    int err = 0;
    if (block) {
        memcpy(b, (const char *)lo, bytes);
        for (size_t i = 0; i < n; i++)
            entry_from(s, &s->e[i], hf[i].name, (uint32_t)((uintptr_t)hf[i].name - lo), hf[i].name_len,
                       (uint32_t)((uintptr_t)hf[i].value - lo), hf[i].value_len);
        k = (uint32_t)n, off = (uint32_t)bytes;
    } else {
        for (size_t i = 0; i < n; i++) {
            const char *name = hf[i].name, *value = hf[i].value;
            size_t nl = hf[i].name_len, vl = hf[i].value_len;
            if ((vl && !value) || (nl && !name)) { err = SIMDHTTP_E_INVALID_ARGUMENT; break; }
            if (!name) {
                /* obs-fold continuation: RFC 9112 section 5.2, replace the fold with one SP */
                if (!k) { err = SIMDHTTP_E_UNEXPECTED_SPACE; break; }
                fentry *p = &s->e[k - 1];
                b[off++] = ' ';
                copy_bytes(b + off, value, vl), off += (uint32_t)vl;
                p->value_len = off - p->value_off;
                continue;
            }
            if (!nl) { err = SIMDHTTP_E_INVALID_HEADER_TOKEN; break; }
            if (nl > MAX_NAME) { err = SIMDHTTP_E_INVALID_ARGUMENT; break; }
            uint32_t name_off = off;
            copy_bytes(b + off, name, nl), off += (uint32_t)nl;
            copy_bytes(b + off, value, vl), off += (uint32_t)vl;
            entry_from(s, &s->e[k++], name, name_off, nl, name_off + (uint32_t)nl, vl);
        }
    }
    if (err) {
        free(s);
        return err;
    }
    s->known[0] &= ~1ull; /* bit 0 (unknown) carries no meaning */
    s->n = k, s->used = off;
    if (!reuse) {
        st_release(f->_s);
        f->_s = s;
    }
    return 0;
}

int simdhttp_fields_reserve(simdhttp_fields *f, size_t fields, size_t bytes)
{
    store *old;
    int r = prepare(f, fields, bytes, &old);
    st_release(old);
    return r;
}

int simdhttp_fields_append(simdhttp_fields *f, const char *name, size_t nl, const char *value,
                           size_t vl)
{
    qname q;
    int r = check_field(&q, name, nl, value, vl);
    if (r) return r;
    store *old;
    if ((r = prepare(f, 1, q.len + vl, &old))) return r;
    store *s = f->_s;
    put_entry(s, &s->e[s->n], &q, value, vl);
    s->n++;
    st_release(old); /* after the copy: value may have pointed into it */
    return 0;
}

/* Drop the entries of q after index `from`, keeping the order of the rest. */
static long drop_after(store *s, size_t from, const qname *q)
{
    size_t w = from;
    for (size_t i = from; i < s->n; i++)
        if (!entry_is(s, &s->e[i], q)) s->e[w++] = s->e[i];
    long removed = (long)(s->n - w);
    s->n = (uint32_t)w;
    return removed;
}

static size_t find_first(const store *s, const qname *q)
{
    size_t n = s ? s->n : 0;
    if (!s || (q->id && !known_has(s, q->id))) return n;
    for (size_t i = 0; i < n; i++)
        if (entry_is(s, &s->e[i], q)) return i;
    return n;
}

int simdhttp_fields_set(simdhttp_fields *f, const char *name, size_t nl, const char *value,
                        size_t vl)
{
    qname q;
    int r = check_field(&q, name, nl, value, vl);
    if (r) return r;
    size_t i = find_first(f->_s, &q);
    if (!f->_s || i == f->_s->n) return simdhttp_fields_append(f, name, nl, value, vl);
    store *old;
    if ((r = prepare(f, 0, q.len + vl, &old))) return r;
    store *s = f->_s; /* same order after a detach: i still indexes the first match */
    put_entry(s, &s->e[i], &q, value, vl);
    drop_after(s, i + 1, &q);
    st_release(old);
    return 0;
}

long simdhttp_fields_remove(simdhttp_fields *f, const char *name, size_t nl)
{
    qname q;
    if (qname_make(&q, name, nl)) return 0; /* an id out of range names nothing */
    size_t i = find_first(f->_s, &q);
    if (!f->_s || i == f->_s->n) return 0;
    store *old;
    int r = prepare(f, 0, 0, &old);
    if (r) return r == SIMDHTTP_FIELDS_NOMEM ? SIMDHTTP_FIELDS_NOMEM : 0;
    st_release(old);
    store *s = f->_s;
    if (q.id) s->known[q.id >> 6] &= ~(1ull << (q.id & 63));
    return drop_after(s, i, &q);
}

/* ---- public: reading ---- */

size_t simdhttp_fields_count(const simdhttp_fields *f) { return f->_s ? f->_s->n : 0; }

int simdhttp_fields_at(const simdhttp_fields *f, size_t i, simdhttp_field *out)
{
    const store *s = f->_s;
    if (!s || i >= s->n) return -1;
    const fentry *e = &s->e[i];
    out->name = s->bytes + e->name_off, out->name_len = e->name_len;
    out->value = s->bytes + e->value_off, out->value_len = e->value_len;
    return e->id;
}

int simdhttp_fields_contains(const simdhttp_fields *f, const char *name, size_t len)
{
    qname q;
    const store *s = f->_s;
    if (!s || qname_make(&q, name, len)) return 0;
    if (q.id) return known_has(s, q.id);
    return find_first(s, &q) < s->n;
}

const char *simdhttp_fields_get(const simdhttp_fields *f, const char *name, size_t len,
                                size_t *value_len)
{
    qname q;
    const store *s = f->_s;
    size_t i;
    if (!s || qname_make(&q, name, len) || (i = find_first(s, &q)) == s->n) {
        if (value_len) *value_len = 0; /* as simdhttp_head_get: never left unset */
        return NULL;
    }
    if (value_len) *value_len = s->e[i].value_len;
    return s->bytes + s->e[i].value_off;
}

long simdhttp_fields_combined(const simdhttp_fields *f, const char *name, size_t len, char *buf,
                              size_t cap)
{
    qname q;
    const store *s = f->_s;
    if (!s || qname_make(&q, name, len)) return -1;
    size_t i = find_first(s, &q);
    if (i == s->n) return -1;
    /* RFC 6265 section 5.4: one Cookie field joined by "; "; elsewhere RFC 9110 5.3 ", " */
    const char sep0 = q.id == SIMDHTTP_FIELD_COOKIE ? ';' : ',';
    size_t total = 0;
    for (size_t first = i; i < s->n; i++) {
        const fentry *e = &s->e[i];
        if (!entry_is(s, e, &q)) continue;
        if (i != first) {
            if (total + 2 <= cap) buf[total] = sep0, buf[total + 1] = ' ';
            total += 2;
        }
        if (e->value_len && total + e->value_len <= cap) memcpy(buf + total, s->bytes + e->value_off, e->value_len);
        total += e->value_len;
    }
    if (total < cap) buf[total] = '\0';
    return (long)total;
}

void simdhttp_fields_values(const simdhttp_fields *f, const char *name, size_t len,
                            simdhttp_fields_iter *it)
{
    qname q = {0};
    const store *s = f->_s;
    size_t i;
    it->_s = NULL;
    if (!s || qname_make(&q, name, len) || (i = find_first(s, &q)) == s->n) return;
    /* compare later fields with the first one's stored name: the caller's name may go away */
    it->_s = s, it->_pos = (uint32_t)i;
    it->_name = s->bytes + s->e[i].name_off, it->_len = q.len, it->_id = q.id, it->_hash = q.hash;
}

int simdhttp_fields_next(simdhttp_fields_iter *it, const char **value, size_t *value_len)
{
    const store *s = it->_s;
    if (!s) return 0;
    qname q = {it->_name, it->_len, it->_id, it->_hash};
    for (uint32_t i = it->_pos; i < s->n; i++) {
        const fentry *e = &s->e[i];
        if (entry_is(s, e, &q)) {
            *value = s->bytes + e->value_off, *value_len = e->value_len;
            it->_pos = i + 1;
            return 1;
        }
    }
    it->_pos = s->n;
    return 0;
}

/* ---- equality ---- */

static int same_name(const store *a, const fentry *x, const store *b, const fentry *y)
{
    if (x->id != y->id) return 0;
    if (x->id) return 1;
    return x->hash == y->hash && x->name_len == y->name_len &&
           ci_eq(a->bytes + x->name_off, b->bytes + y->name_off, x->name_len);
}

static int same_value(const store *a, const fentry *x, const store *b, const fentry *y)
{
    return x->value_len == y->value_len &&
           bytes_eq(a->bytes + x->value_off, b->bytes + y->value_off, x->value_len);
}

/* Sort key: (known id, or 2^32 + hash for an unknown name) << 24 | position. Equal keys
 * above the position mean the same name, except for hash collisions: key_cmp settles those
 * by the names themselves, so the order is total and the same on both sides. */
static inline uint64_t sort_key(const fentry *e, uint32_t pos)
{
    uint64_t cls = e->id ? e->id : (1ull << 32 | e->hash);
    return cls << 24 | pos;
}

static int key_cmp(const store *s, uint64_t x, uint64_t y)
{
    if ((x >> 24) != (y >> 24)) return x < y ? -1 : 1;
    if ((x >> 56) == 0) return x < y ? -1 : x > y; /* known id: position decides */
    const fentry *a = &s->e[x & 0xffffff], *b = &s->e[y & 0xffffff];
    if (a->name_len == b->name_len && ci_eq(s->bytes + a->name_off, s->bytes + b->name_off, a->name_len))
        return x < y ? -1 : x > y; /* the same name: position decides */
    int c = name_cmp(s->bytes + a->name_off, a->name_len, s->bytes + b->name_off, b->name_len);
    if (c) return c;
    return x < y ? -1 : x > y;
}

/* Bottom-up merge sort: O(n log n) whatever the input (no quadratic worst case). */
static void sort_keys(const store *s, uint64_t *k, uint64_t *tmp, size_t n)
{
    for (size_t i = 0; i + 1 < n; i += 2) /* pairs first */
        if (key_cmp(s, k[i], k[i + 1]) > 0) {
            uint64_t t = k[i];
            k[i] = k[i + 1], k[i + 1] = t;
        }
    uint64_t *src = k, *dst = tmp;
    for (size_t w = 2; w < n; w *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * w) {
            size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            size_t i = lo, j = mid, o = lo;
            while (i < mid && j < hi) dst[o++] = key_cmp(s, src[i], src[j]) <= 0 ? src[i++] : src[j++];
            while (i < mid) dst[o++] = src[i++];
            while (j < hi) dst[o++] = src[j++];
        }
        uint64_t *t = src;
        src = dst, dst = t;
    }
    if (src != k) memcpy(k, src, n * sizeof *k);
}

#define EQ_STACK 256

SH_INTERNAL int simdhttp__fields_equal_by_sort; /* tests: take the O(n log n) path always */

/* Equality of a[from..n) and b[from..n) (the same count) by a small hash table on the stack:
 * each distinct name of b gets a slot with the chain of its fields in order; a's fields then
 * consume their name's chain in order. O(m) expected. @return 1 equal, 0 not, -1 when the
 * probes exceed a linear budget (many names sharing hash slots, e.g. crafted collisions):
 * the caller then sorts, which is O(m log m) whatever the names. */
static int equal_table(const store *a, const store *b, size_t from, size_t n)
{
    size_t m = n - from;
    unsigned bits = 4;
    while ((1u << bits) < 2 * m) bits++;
    const unsigned mask = (1u << bits) - 1;
    int16_t rep[2 * EQ_STACK], cur[2 * EQ_STACK], next[EQ_STACK]; /* indices relative to from */
    memset(rep, 0xff, sizeof rep[0] << bits);
    size_t probes = 0, budget = 4 * m + 16;
    for (size_t j = n; j-- > from;) { /* backwards: each chain comes out in list order */
        const fentry *y = &b->e[j];
        uint32_t h = (y->id ? y->id : y->hash) * 0x9E3779B1u;
        for (unsigned sl = h >> (32 - bits);; sl = (sl + 1) & mask) {
            if (rep[sl] < 0) {
                rep[sl] = cur[sl] = (int16_t)(j - from), next[j - from] = -1;
                break;
            }
            if (same_name(b, &b->e[from + (size_t)rep[sl]], b, y)) {
                next[j - from] = cur[sl], cur[sl] = (int16_t)(j - from);
                break;
            }
            if (++probes > budget) return -1;
        }
    }
    for (size_t j = from; j < n; j++) {
        const fentry *x = &a->e[j];
        uint32_t h = (x->id ? x->id : x->hash) * 0x9E3779B1u;
        unsigned sl = h >> (32 - bits);
        while (rep[sl] >= 0 && !same_name(b, &b->e[from + (size_t)rep[sl]], a, x)) {
            if (++probes > budget) return -1;
            sl = (sl + 1) & mask;
        }
        if (rep[sl] < 0 || cur[sl] < 0) return 0; /* a name b lacks, or more of it in a */
        const fentry *y = &b->e[from + (size_t)cur[sl]];
        if (!same_value(a, x, b, y)) return 0;
        cur[sl] = next[cur[sl]];
    }
    return 1; /* the counts are equal and every field of a used one of b: all are used */
}

int simdhttp_fields_equal(const simdhttp_fields *fa, const simdhttp_fields *fb)
{
    const store *a = fa->_s, *b = fb->_s;
    size_t n = a ? a->n : 0;
    if (n != (b ? b->n : 0)) return 0;
    if (a == b || n == 0) return 1;
    if (a->known[0] != b->known[0] || a->known[1] != b->known[1]) return 0;
    /* Lock-step: while both lists agree, they agree per name too. At the first difference, if
     * the names match, this is the same occurrence of that name on both sides with another
     * value: not equal. Otherwise only the rest (from there on) needs the general test. */
    size_t i = 0;
    for (; i < n; i++) {
        const fentry *x = &a->e[i], *y = &b->e[i];
        if (!same_name(a, x, b, y)) break;
        if (!same_value(a, x, b, y)) return 0;
    }
    if (i == n) return 1;
    size_t m = n - i;
    if (m <= EQ_STACK && !simdhttp__fields_equal_by_sort) {
        int r = equal_table(a, b, i, n);
        if (r >= 0) return r;
    }
    uint64_t stack[3 * EQ_STACK], *ka = stack, *heap = NULL;
    if (m > EQ_STACK) {
        heap = malloc(3 * m * sizeof *heap);
        atomic_fetch_add_explicit(&simdhttp__fields_mallocs, 1, memory_order_relaxed);
        if (!heap) return SIMDHTTP_FIELDS_NOMEM;
        ka = heap;
    }
    uint64_t *kb = ka + m, *tmp = kb + m;
    for (size_t j = 0; j < m; j++) ka[j] = sort_key(&a->e[i + j], (uint32_t)(i + j));
    for (size_t j = 0; j < m; j++) kb[j] = sort_key(&b->e[i + j], (uint32_t)(i + j));
    sort_keys(a, ka, tmp, m);
    sort_keys(b, kb, tmp, m);
    int eq = 1;
    for (size_t j = 0; j < m && eq; j++) {
        const fentry *x = &a->e[ka[j] & 0xffffff], *y = &b->e[kb[j] & 0xffffff];
        eq = same_name(a, x, b, y) && same_value(a, x, b, y);
    }
    free(heap);
    return eq;
}

/* ---- cookies ---- */

/* RFC 6265 section 4.2.1 cookie-octet: VCHAR except DQUOTE, comma, semicolon, backslash.
 * A table: one load per byte (a cookie value of 50 bytes took 500 instructions as compares). */
static const uint8_t cookie_octet_tab[256] = {
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
};

/* The first p in [s, e) whose byte is no cookie-octet, else e; and the first that is no tchar
 * (a cookie-name), the token scanner. Cookie values are long (session ids, tokens): 16 bytes a
 * step, with the scanners' tails (src/isa/sse2/scan_sse2.h, scan_neon.h). A cookie-octet is VCHAR but
 * '"' ',' ';' '\\': the request-target's stop class and four compares. */
static inline const uint8_t *scalar_scan_cookie(const uint8_t *s, const uint8_t *e)
{
    while (s < e && cookie_octet_tab[*s]) s++;
    return s;
}
#if defined(__SSE2__)
SH_SCAN_INLINE unsigned sse2_stop_cookie(__m128i v)
{
    __m128i d = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')), _mm_cmpeq_epi8(v, _mm_set1_epi8(','))),
                             _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(';')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'))));
    return sse2_stop_target(v) | (unsigned)_mm_movemask_epi8(d);
}
static const uint8_t *scan_cookie(const uint8_t *s, const uint8_t *e)
{
    if (e - s >= 16) SH_X86_LONG16(sse2_stop_cookie, s, e);
    SH_X86_SHORT16(sse2_stop_cookie, scalar_scan_cookie, s, e);
}
static SH_ALWAYS_INLINE const uint8_t *scan_cookie_name(const uint8_t *s, const uint8_t *e)
{
    return sse2_scan_token(s, e);
}
#elif defined(__aarch64__) && defined(__ARM_NEON)
SH_SCAN_INLINE uint8x16_t neon_stop_cookie(uint8x16_t v)
{
    uint8x16_t d = vorrq_u8(vorrq_u8(vceqq_u8(v, vdupq_n_u8('"')), vceqq_u8(v, vdupq_n_u8(','))),
                            vorrq_u8(vceqq_u8(v, vdupq_n_u8(';')), vceqq_u8(v, vdupq_n_u8('\\'))));
    return vorrq_u8(neon_stop_target(v), d);
}
static const uint8_t *scan_cookie(const uint8_t *s, const uint8_t *e)
{
    SH_NEON_SCAN(neon_stop_cookie, scalar_scan_cookie, s, e);
}
static SH_ALWAYS_INLINE const uint8_t *scan_cookie_name(const uint8_t *s, const uint8_t *e)
{
    return neon_scan_token(s, e);
}
#else
static SH_ALWAYS_INLINE const uint8_t *scan_cookie(const uint8_t *s, const uint8_t *e)
{
    return scalar_scan_cookie(s, e);
}
static SH_ALWAYS_INLINE const uint8_t *scan_cookie_name(const uint8_t *s, const uint8_t *e)
{
    return scalar_scan_token(s, e);
}
#endif

/* the end of the run of tchars (name) or of cookie-octets (!name) from v[p], p <= vl */
static inline uint32_t run_end(const char *v, uint32_t p, uint32_t vl, int name)
{
    const uint8_t *u = (const uint8_t *)v;
    return (uint32_t)((name ? scan_cookie_name(u + p, u + vl) : scan_cookie(u + p, u + vl)) - u);
}

/* Every member of a fresh iterator over one source (the other two NULL). Not a memset of the
 * whole 88-byte struct: gcc makes that a `rep stos`, whose start-up cost was paid once per
 * request by the seed workload (parse seed-simple and take its first cookie: 63.5 -> 58.2 ns
 * in alternating runs on the reference machine, docs/benchmarks.md). The 64 bytes up to _h
 * (all zero) as one memset of a constant size: four 16-byte stores, where member by member
 * took eight (seed workload, AVX2 callgrind: simdhttp_head_cookies 17 -> 14 instructions). */
static inline void iter_start(simdhttp_cookie_iter *it, const store *s, const simdhttp_head *h,
                              const char *v, size_t vlen)
{
    memset(it, 0, offsetof(simdhttp_cookie_iter, _h)); /* errors .. _off */
    it->_s = s;
    it->_h = h;
    it->_v = v;
    it->_vlen = vlen;
}

_Static_assert(sizeof(simdhttp_cookie_iter) == 5 * sizeof(size_t) + 5 * sizeof(void *) + 2 * sizeof(uint32_t),
               "iter_start assigns every member of simdhttp_cookie_iter (a new one: assign it there)");

void simdhttp_fields_cookies(const simdhttp_fields *f, simdhttp_cookie_iter *it)
{
    iter_start(it, f->_s && known_has(f->_s, SIMDHTTP_FIELD_COOKIE) ? f->_s : NULL, NULL, NULL, 0);
}

void simdhttp_head_cookies(const simdhttp_head *h, simdhttp_cookie_iter *it)
{
    /* fields NULL: none, whatever num_fields says */
    iter_start(it, NULL, h && h->fields ? h : NULL, NULL, 0);
}

void simdhttp_cookies_of(const char *value, size_t len, simdhttp_cookie_iter *it)
{
    iter_start(it, NULL, NULL, value, value ? (len > UINT32_MAX ? UINT32_MAX : len) : 0);
}

/* The value the iterator is in: its it->_field-th Cookie value (the store's, the head's, or
 * the one span). @return 0 at the end. */
static int cookie_value(simdhttp_cookie_iter *it, const char **v, uint32_t *vl)
{
    if (it->_s) {
        const store *s = it->_s;
        for (; it->_field < s->n; it->_field++, it->_off = 0) {
            const fentry *e = &s->e[it->_field];
            if (e->id != SIMDHTTP_FIELD_COOKIE) continue;
            *v = s->bytes + e->value_off, *vl = e->value_len;
            return 1;
        }
        return 0;
    }
    if (it->_h) {
        const simdhttp_head *h = it->_h;
        if (it->_field >= h->num_fields) return 0;
        /* a pointer walk: no index to keep beside it */
        const simdhttp_field *f = h->fields + it->_field, *end = h->fields + h->num_fields;
        for (; f < end; f++)
            if (f->name_len == 6 && f->name &&
                fold_eq(f->name, 6, fh_name[SIMDHTTP_FIELD_COOKIE], fh_fold[SIMDHTTP_FIELD_COOKIE]))
                break;
        size_t i = (size_t)(f - h->fields);
        if (i != it->_field) it->_field = (uint32_t)i, it->_off = 0; /* a later field: from its start */
        if (f == end) return 0;
        *v = f->value, *vl = f->value_len > UINT32_MAX ? UINT32_MAX : (uint32_t)f->value_len;
        return 1;
    }
    if (it->_v && it->_field == 0) {
        *v = it->_v, *vl = (uint32_t)it->_vlen;
        return 1;
    }
    return 0;
}

int simdhttp_cookie_next(simdhttp_cookie_iter *it, simdhttp_field *out)
{
    const char *v;
    uint32_t vl;
    for (; cookie_value(it, &v, &vl); it->_field++, it->_off = 0) {
        for (;;) { /* the pairs of this value */
            uint32_t p = it->_off;
            /* lenient separators: SP/HTAB runs, ";" without SP, empty pairs (the first pair
             * starts at a name: one test, no loop) */
            if (p < vl && (v[p] == ' ' || v[p] == '\t' || v[p] == ';'))
                do p++;
                while (p < vl && (v[p] == ' ' || v[p] == '\t' || v[p] == ';'));
            if (p == vl) break;
            uint32_t start = p, name_end, vs;
            uint64_t ends;
            const char *why;
            /* the usual pair, name=value in the next 32 bytes, at once where the ISA can */
            if (vl >= 32 && (ends = simdhttp__cookie_pair((const uint8_t *)v, start, vl)) != 0) {
                name_end = (uint32_t)ends, vs = name_end + 1;
                p = (uint32_t)(ends >> 32);
                goto value_end;
            }
            p = run_end(v, p, vl, 1);
            if (p == start) { why = "cookie-name is empty or not a token"; goto bad; }
            if (p == vl || v[p] != '=') { why = "cookie-pair without '=' after a token cookie-name"; goto bad; }
            name_end = p++, vs = p;
            if (p < vl && v[p] == '"') {
                p = run_end(v, p + 1, vl, 0);
                if (p == vl || v[p] != '"') { why = "cookie-value has an opening DQUOTE and no closing one, or a byte outside cookie-octet inside the quotes"; goto bad; }
                p++;
            } else {
                p = run_end(v, p, vl, 0);
            }
        value_end:;
            uint32_t ve = p;
            if (p < vl && v[p] != ';') { /* the usual ';' or end right after the value skips the OWS loop */
                while (p < vl && (v[p] == ' ' || v[p] == '\t')) p++;
                if (p < vl && v[p] != ';') { why = "byte outside cookie-octet in cookie-value (SP, DQUOTE, ',' or '\\'), or a missing ';'"; goto bad; }
            }
            out->name = v + start, out->name_len = name_end - start;
            out->value = v + vs, out->value_len = ve - vs;
            it->_off = p;
            return 1;
        bad: {
            /* skip the pair up to the next ';' and go on, reporting the first (issue 9: a loop
             * that stopped at an error dropped every later cookie) */
            uint32_t q = p;
            while (q < vl && v[q] != ';') q++;
            if (!it->errors++) {
                uint32_t end = q;
                while (end > start && (v[end - 1] == ' ' || v[end - 1] == '\t')) end--;
                it->error_pair = v + start;
                it->error_pair_len = end - start;
                it->error_reason = why;
                it->error_field = it->_field;
                it->error_offset = p;
            }
            it->_off = q;
        }
        }
    }
    return 0;
}

/* ---- lookups on a parsed head (zero-copy) ---- */

unsigned simdhttp_head_field_id(const simdhttp_head *h, size_t i)
{
    if (!h || !h->fields || i >= h->num_fields || !h->fields[i].name) return 0;
    return known_id(h->fields[i].name, h->fields[i].name_len);
}

/* by name: out of line, so that the lookup by id, inlined into both calls below, saves fewer
 * registers (the seed workload's User-Agent lookup by id, simdhttp_head_get calling
 * simdhttp_head_find before: 91 -> 70 instructions, AVX2 callgrind) */
static __attribute__((noinline)) long head_find_name(const simdhttp_head *h, const char *name, size_t len,
                                                     size_t from)
{
    const simdhttp_field *f = h->fields;
    for (size_t i = from; i < h->num_fields; i++)
        if (f[i].name_len == len && f[i].name && ci_eq(f[i].name, name, len)) return (long)i;
    return -1;
}

static inline __attribute__((always_inline)) long head_find(const simdhttp_head *h, const char *name, size_t len,
                                                            size_t from)
{
    /* a hand-made head with fields NULL has none, whatever num_fields says: one test here, none
     * per field */
    if (!h || !h->fields) return -1;
    if (name) return head_find_name(h, name, len, from);
    /* a known id: its canonical spelling, folded compares against same-length names */
    if (len == 0 || len >= FH_COUNT) return -1;
    const simdhttp_field *f = h->fields;
    const char *canon = fh_name[len], *fold = fh_fold[len];
    size_t n = fh_len[len];
    for (size_t i = from; i < h->num_fields; i++)
        if (f[i].name_len == n && f[i].name && fold_eq(f[i].name, n, canon, fold)) return (long)i;
    return -1;
}

long simdhttp_head_find(const simdhttp_head *h, const char *name, size_t len, size_t from)
{
    return head_find(h, name, len, from);
}

/* the value of field i (i < 0: none, an empty value and NULL) */
static inline __attribute__((always_inline)) const char *head_value(const simdhttp_head *h, long i, size_t *value_len)
{
    if (i < 0) {
        if (value_len) *value_len = 0;
        return NULL;
    }
    if (value_len) *value_len = h->fields[i].value_len;
    return h->fields[i].value;
}

/* by name, whole, out of line: the lookup by id below then makes no call, and saves one
 * register where it saved two (seed workload's User-Agent by id: 66 -> 59 instructions, AVX2
 * callgrind) */
static __attribute__((noinline)) const char *head_get_name(const simdhttp_head *h, const char *name, size_t len,
                                                           size_t *value_len)
{
    return head_value(h, head_find(h, name, len, 0), value_len);
}

const char *simdhttp_head_get(const simdhttp_head *h, const char *name, size_t len, size_t *value_len)
{
    if (name) return head_get_name(h, name, len, value_len);
    return head_value(h, head_find(h, NULL, len, 0), value_len);
}
