/*
 * utf8.c — safe UTF-8 decoding and encoding.
 *
 * The decoder never reads past the bytes it is given and replaces each
 * maximal ill-formed subpart with U+FFFD (the Unicode Standard's recommended
 * practice, §3.9 "U+FFFD Substitution of Maximal Subparts"): overlong forms,
 * surrogates (ED A0–BF …), code points above U+10FFFF, lone continuation
 * bytes, C0, C1 and F5–FF are all invalid.
 */
#include "internal.h"

size_t ctk__utf8_decode(const uint8_t *s, size_t n, uint32_t *cp, bool *invalid)
{
    uint8_t b0 = s[0];
    *invalid = false;
    if (b0 < 0x80) {
        *cp = b0;
        return 1;
    }

    /* The lead byte gives the length and the range allowed for the 2nd byte. */
    size_t need;
    uint8_t lo = 0x80, hi = 0xBF;
    uint32_t c;
    if (b0 >= 0xC2 && b0 <= 0xDF) {
        need = 2; c = b0 & 0x1Fu;
    } else if (b0 >= 0xE0 && b0 <= 0xEF) {
        need = 3; c = b0 & 0x0Fu;
        if (b0 == 0xE0) lo = 0xA0;        /* no overlongs */
        else if (b0 == 0xED) hi = 0x9F;   /* no surrogates */
    } else if (b0 >= 0xF0 && b0 <= 0xF4) {
        need = 4; c = b0 & 0x07u;
        if (b0 == 0xF0) lo = 0x90;        /* no overlongs */
        else if (b0 == 0xF4) hi = 0x8F;   /* nothing above U+10FFFF */
    } else {
        /* 80–BF (lone continuation), C0–C1 (overlong), F5–FF. */
        *cp = CTK_REPLACEMENT;
        *invalid = true;
        return 1;
    }

    size_t i = 1;
    for (; i < need; i++) {
        if (i >= n) break;
        uint8_t b = s[i];
        if (i == 1 ? (b < lo || b > hi) : (b < 0x80 || b > 0xBF)) break;
        c = (c << 6) | (b & 0x3Fu);
    }
    if (i < need) {
        /* Truncated or interrupted: the maximal subpart is one U+FFFD. */
        *cp = CTK_REPLACEMENT;
        *invalid = true;
        return i;
    }
    *cp = c;
    return need;
}

size_t ctk__utf8_encode(uint32_t cp, uint8_t out[4])
{
    if (cp < 0x80) {
        out[0] = (uint8_t)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (uint8_t)(0xC0 | (cp >> 6));
        out[1] = (uint8_t)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (uint8_t)(0xE0 | (cp >> 12));
        out[1] = (uint8_t)(0x80 | ((cp >> 6) & 0x3F));
        out[2] = (uint8_t)(0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = (uint8_t)(0xF0 | (cp >> 18));
    out[1] = (uint8_t)(0x80 | ((cp >> 12) & 0x3F));
    out[2] = (uint8_t)(0x80 | ((cp >> 6) & 0x3F));
    out[3] = (uint8_t)(0x80 | (cp & 0x3F));
    return 4;
}
