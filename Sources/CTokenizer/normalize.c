/*
 * normalize.c — ICU NFKC_Casefold of the tokens that hold non-ASCII text.
 *
 * ASCII tokens never come here (tokenize.c lower-cases them itself). The
 * normalizer is ICU's shared, immutable NFKC_Casefold instance; ICU loads it
 * on first use in the process (its only heap allocations) and caches it, and
 * the scanner keeps the pointer for the rest of the call.
 *
 * Memory: no heap here. Characters are gathered as UTF-16 in a CHUNK-unit stack
 * buffer; when it fills, the text up to the last normalization boundary
 * (unorm2_hasBoundaryBefore) is normalized into a stack buffer DEST_FACTOR
 * times larger — more than NFKC's largest expansion (18 units, U+FDFA) — and
 * the rest is kept for the next chunk, so a token of any length normalizes
 * exactly as it would in one piece. (Only a run of more than CHUNK units
 * without any boundary — a base followed by over a hundred combining marks —
 * is cut where the buffer ends.)
 */
#include "internal.h"

#include <unicode/uchar.h>
#include <unicode/unorm2.h>
#include <unicode/utf16.h>

enum { CHUNK = 128, DEST_FACTOR = 32 };

typedef struct ctk_fold {
    const UNormalizer2 *n2;
    int32_t length;
    UChar buffer[CHUNK];
} ctk_fold;

static const UNormalizer2 *get_normalizer(ctk_scanner *s)
{
    if (!s->normalizer) {
        UErrorCode status = U_ZERO_ERROR;
        const UNormalizer2 *n2 = unorm2_getNFKCCasefoldInstance(&status);
        if (U_FAILURE(status) || !n2) {
            s->error = CTK_ERROR_ICU;
            return NULL;
        }
        s->normalizer = n2;
    }
    return (const UNormalizer2 *)s->normalizer;
}

/* Writes normalized UTF-16 as UTF-8 through the elongation filter. */
static void write_utf16(ctk_scanner *s, const UChar *d, int32_t n)
{
    for (int32_t i = 0; i < n;) {
        UChar32 c;
        U16_NEXT(d, i, n, c);
        bool letter = false;
        if (s->el_on)
            letter = c < 0x80 ? (ctk__ascii[c] & CTK_A_ALPHA) != 0 : (bool)u_isalpha(c);
        ctk__put_cp(s, (uint32_t)c, letter);
    }
}

/* Normalizes and writes the first `k` units of the buffer; keeps the rest. */
static void normalize_prefix(ctk_scanner *s, ctk_fold *f, int32_t k)
{
    UChar dest[CHUNK * DEST_FACTOR];
    UErrorCode status = U_ZERO_ERROR;
    int32_t n = unorm2_normalize(f->n2, f->buffer, k, dest, (int32_t)(sizeof dest / sizeof dest[0]),
                                 &status);
    if (U_FAILURE(status)) {
        s->error = CTK_ERROR_ICU;
        f->length = 0;
        return;
    }
    write_utf16(s, dest, n);
    memmove(f->buffer, f->buffer + k, (size_t)(f->length - k) * sizeof(UChar));
    f->length -= k;
}

/* The buffer is full: normalize up to the last boundary. */
static void flush_full(ctk_scanner *s, ctk_fold *f)
{
    int32_t j = f->length;
    while (j > 0) {
        UChar32 c;
        U16_PREV(f->buffer, 0, j, c);
        if (j > 0 && unorm2_hasBoundaryBefore(f->n2, c)) {
            normalize_prefix(s, f, j);
            return;
        }
    }
    normalize_prefix(s, f, f->length);
}

static inline void push(ctk_scanner *s, ctk_fold *f, uint32_t cp)
{
    if (f->length + 2 > CHUNK) {
        flush_full(s, f);
        /* The last boundary may be at index 1 ("xa" and marks to the end of the
         * buffer): flushing up to it frees one unit, and a character outside the
         * BMP needs two. Cut where the buffer ends then, as a run without any
         * boundary is cut. */
        if (f->length + (cp > 0xFFFF ? 2 : 1) > CHUNK) normalize_prefix(s, f, f->length);
    }
    if (cp <= 0xFFFF) {
        f->buffer[f->length++] = (UChar)cp;
    } else {
        f->buffer[f->length++] = U16_LEAD(cp);
        f->buffer[f->length++] = U16_TRAIL(cp);
    }
}

void ctk__fold_span(ctk_scanner *s, size_t start, size_t end, unsigned mode)
{
    ctk_fold f;
    f.n2 = get_normalizer(s);
    f.length = 0;
    if (!f.n2) return;

    for (size_t i = start; i < end;) {
        uint32_t cp;
        bool invalid;
        i += ctk__read(s, i, &cp, &invalid);
        if (invalid) s->stats->invalid_sequences++;
        if ((mode & CTK_FOLD_APOSTROPHES) && ctk__is_apostrophe(cp)) cp = '\'';
        push(s, &f, cp);
        if (s->error) return;
    }
    if (f.length > 0) normalize_prefix(s, &f, f.length);
}
