/* A libFuzzer target for the C tokenizer (`make fuzz`; `make test` replays the
 * seeds once). Built with AddressSanitizer and UndefinedBehaviorSanitizer.
 *
 * An input is: byte 0 the options (bit 7 adds unknown high bits), byte 1 the
 * buffer layout, byte 2 the hash seed, the rest the text. Each input is
 * tokenized four ways, and every result is checked:
 *   1. a size query with no buffers (the documented way to size them);
 *   2. buffers of exactly the sizes it reported, each ending at a PROT_NONE
 *      page, so a write past the end faults even where ASan would not see it;
 *   3. generous buffers (the fast paths): tokens and text byte-identical to 2;
 *   4. buffers too small by a little: CTK_ERROR_NOSPACE with the same sizes.
 * The input itself sits against a guard page (after it or before it), so the
 * sixteen-byte word scan cannot read past the end unnoticed. Tokens must have
 * known kinds and flags, source spans inside the input in order, contiguous
 * non-empty text that is valid UTF-8, and hash == ctk_hash64(text, seed). */
#include "ctk.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define CHECK(c, ...) do { if (!(c)) { fprintf(stderr, "CHECK FAILED %s:%d: %s: ", __FILE__, __LINE__, #c); fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); abort(); } } while (0)

static size_t pagesz;
typedef struct { void *map; size_t maplen; void *p; } gbuf;

/* size bytes right before a PROT_NONE page (tail=1), or right after one (tail=0). */
static gbuf galloc(size_t size, int tail) {
    gbuf g = {0};
    if (!pagesz) pagesz = (size_t)sysconf(_SC_PAGESIZE);
    size_t body = (size + pagesz - 1) / pagesz * pagesz;
    if (body == 0) body = pagesz;
    g.maplen = body + 2 * pagesz;
    g.map = mmap(NULL, g.maplen, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    CHECK(g.map != MAP_FAILED, "mmap");
    mprotect(g.map, pagesz, PROT_NONE);
    mprotect((char *)g.map + pagesz + body, pagesz, PROT_NONE);
    g.p = tail ? (char *)g.map + pagesz + body - size : (char *)g.map + pagesz;
    memset((char *)g.map + pagesz, 0xA5, body);
    return g;
}
static void gfree(gbuf *g) { if (g->map) munmap(g->map, g->maplen); }

static int valid_utf8(const unsigned char *s, size_t n, size_t *bad) {
    size_t i = 0;
    while (i < n) {
        unsigned c = s[i];
        size_t need; unsigned lo = 0x80, hi = 0xBF;
        if (c < 0x80) { i++; continue; }
        else if (c >= 0xC2 && c <= 0xDF) need = 1;
        else if (c >= 0xE0 && c <= 0xEF) { need = 2; if (c == 0xE0) lo = 0xA0; if (c == 0xED) hi = 0x9F; }
        else if (c >= 0xF0 && c <= 0xF4) { need = 3; if (c == 0xF0) lo = 0x90; if (c == 0xF4) hi = 0x8F; }
        else { *bad = i; return 0; }
        if (i + need >= n) { *bad = i; return 0; }
        for (size_t k = 1; k <= need; k++) {
            unsigned b = s[i + k];
            unsigned l = k == 1 ? lo : 0x80, h = k == 1 ? hi : 0xBF;
            if (b < l || b > h) { *bad = i; return 0; }
        }
        i += need + 1;
    }
    return 1;
}

static void validate(const unsigned char *in, size_t n, uint64_t seed, uint32_t opt,
                     const ctk_token *t, size_t nt, const char *text, size_t tl) {
    size_t prev_end = 0, off = 0;
    CHECK(nt <= n + 1, "token count %zu > count+1 %zu", nt, n + 1);
    for (size_t k = 0; k < nt; k++) {
        const ctk_token *x = &t[k];
        CHECK(x->kind >= 1 && x->kind <= 9, "tok %zu kind %u", k, x->kind);
        CHECK((x->flags & ~0x3Fu) == 0, "tok %zu flags %x", k, x->flags);
        CHECK(x->reserved == 0, "reserved");
        CHECK(x->source_length >= 1, "tok %zu empty source", k);
        CHECK((size_t)x->source_offset + x->source_length <= n, "tok %zu src %u+%u > %zu", k, x->source_offset, x->source_length, n);
        CHECK(x->source_offset >= prev_end, "tok %zu overlaps prev (%u < %zu)", k, x->source_offset, prev_end);
        prev_end = (size_t)x->source_offset + x->source_length;
        CHECK(x->text_offset == off, "tok %zu text_offset %u != %zu", k, x->text_offset, off);
        CHECK((size_t)x->text_offset + x->text_length <= tl, "tok %zu text range", k);
        off += x->text_length;
        CHECK(x->hash == ctk_hash64(text + x->text_offset, x->text_length, seed), "tok %zu hash", k);
        CHECK(x->text_length > 0, "tok %zu (kind %u, src %u+%u) has empty text", k, x->kind, x->source_offset, x->source_length);
        if ((opt & CTK_OPT_DROP_PUNCT)) CHECK(x->kind != CTK_PUNCT, "punct kept with DROP_PUNCT");
    }
    CHECK(off == tl, "text_length %zu != sum %zu", tl, off);
    size_t bad = 0;
    CHECK(valid_utf8((const unsigned char *)text, tl, &bad), "invalid utf8 in output at %zu", bad);
}

static int stats_eq(const ctk_stats *a, const ctk_stats *b) {
    return a->token_count == b->token_count && a->text_length == b->text_length &&
           a->invalid_sequences == b->invalid_sequences && a->latin_letters == b->latin_letters &&
           a->other_letters == b->other_letters;
}
#define PSTATS(s) (s).token_count, (s).text_length, (s).invalid_sequences, (s).latin_letters, (s).other_letters
#define SFMT "{tok %zu text %zu inv %zu lat %zu oth %zu}"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 3) return 0;
    uint32_t opt = data[0] & 0x1F;
    if (data[0] & 0x80) opt |= (uint32_t)data[0] << 24; /* unknown bits too */
    unsigned cfg = data[1];
    uint64_t seed = (uint64_t)data[2] * 0x9E3779B97F4A7C15ull;
    const uint8_t *in = data + 3;
    size_t n = size - 3;

    /* 1. size query on libFuzzer's exact-size heap copy (ASan catches over-reads). */
    ctk_stats st0;
    int r0 = ctk_tokenize(n ? in : NULL, n, opt, seed, NULL, 0, NULL, 0, &st0);
    CHECK(r0 == CTK_OK || r0 == CTK_ERROR_NOSPACE, "size query r=%d", r0);
    CHECK((r0 == CTK_OK) == (st0.token_count == 0 && st0.text_length == 0), "size query r=%d " SFMT, r0, PSTATS(st0));

    /* Input in a guard-paged buffer (end-aligned or start-aligned). */
    gbuf gin = galloc(n, !(cfg & 1));
    memcpy(gin.p, in, n);
    const uint8_t *src = gin.p;

    /* 2. exact-size buffers, each right before a guard page. */
    gbuf gt = galloc(st0.token_count * sizeof(ctk_token), 1);
    gbuf gx = galloc(st0.text_length, 1);
    ctk_token *tok1 = st0.token_count ? gt.p : NULL;
    char *txt1 = st0.text_length ? gx.p : NULL;
    ctk_stats st1;
    int r1 = ctk_tokenize(src, n, opt, seed, tok1, st0.token_count, txt1, st0.text_length, &st1);
    CHECK(r1 == CTK_OK, "exact-size call r=%d " SFMT " vs " SFMT, r1, PSTATS(st1), PSTATS(st0));
    CHECK(stats_eq(&st0, &st1), "stats differ exact " SFMT " query " SFMT, PSTATS(st1), PSTATS(st0));
    validate(src, n, seed, opt, tok1, st1.token_count, txt1, st1.text_length);

    /* 3. generous buffers (fast paths) must give the same tokens. */
    size_t tcap = n + 1, xcap = 2 * n + 16;
    if (xcap < st0.text_length) xcap = st0.text_length;
    xcap += cfg >> 4; /* some slack variation */
    gbuf gt2 = galloc(tcap * sizeof(ctk_token), 1);
    gbuf gx2 = galloc(xcap, 1);
    ctk_stats st2;
    int r2 = ctk_tokenize(src, n, opt, seed, gt2.p, tcap, gx2.p, xcap, &st2);
    CHECK(r2 == CTK_OK, "generous call r=%d", r2);
    CHECK(stats_eq(&st0, &st2), "stats differ generous " SFMT " query " SFMT, PSTATS(st2), PSTATS(st0));
    if (st0.token_count) {
        ctk_token *a = tok1, *b = gt2.p;
        for (size_t k = 0; k < st0.token_count; k++)
            CHECK(memcmp(&a[k], &b[k], sizeof a[k]) == 0,
                  "token %zu differs between exact and generous buffers: kind %u/%u flags %x/%x src %u+%u / %u+%u text %u+%u / %u+%u",
                  k, a[k].kind, b[k].kind, a[k].flags, b[k].flags, a[k].source_offset, a[k].source_length,
                  b[k].source_offset, b[k].source_length, a[k].text_offset, a[k].text_length, b[k].text_offset, b[k].text_length);
        if (st0.text_length) CHECK(memcmp(txt1, gx2.p, st0.text_length) == 0, "text differs between exact and generous");
    }

    /* 4. too-small buffers: NOSPACE, same stats, no write past capacity (guard pages). */
    if (st0.token_count || st0.text_length) {
        size_t dt = (cfg >> 1) & 7, dx = (cfg >> 4) & 15;
        for (int mode = 0; mode < 3; mode++) {
            size_t tc = st0.token_count, xc = st0.text_length;
            if (mode != 1) tc = tc > dt ? tc - 1 - (dt % tc) : 0;
            if (mode != 0) xc = xc > dx ? xc - 1 - (dx % xc) : 0;
            if (mode == 0 && tc == st0.token_count) continue;
            if (tc == st0.token_count && xc == st0.text_length) continue;
            gbuf a = galloc(tc * sizeof(ctk_token), 1), b = galloc(xc, 1);
            ctk_stats st3;
            int r3 = ctk_tokenize(src, n, opt, seed, tc ? a.p : NULL, tc, xc ? b.p : NULL, xc, &st3);
            CHECK(r3 == CTK_ERROR_NOSPACE, "small call mode %d tc %zu/%zu xc %zu/%zu r=%d", mode, tc, st0.token_count, xc, st0.text_length, r3);
            CHECK(stats_eq(&st0, &st3), "stats differ small mode %d " SFMT " query " SFMT, mode, PSTATS(st3), PSTATS(st0));
            gfree(&a); gfree(&b);
        }
    }
    gfree(&gin); gfree(&gt); gfree(&gx); gfree(&gt2); gfree(&gx2);
    return 0;
}
