/*
 * ascii16.h — sixteen ASCII bytes at a time, for the word fast path.
 *
 * `ctk__ascii16` lower-cases 16 bytes into the text buffer and reports, as
 * 16-bit masks (bit k for byte k), which were letters or digits, upper-case
 * letters and digits: the per-byte class-table loop of `word` done with SSE2
 * compares. `ctk__triple16` finds three equal letters in a row (elongation).
 * Bytes >= 0x80 are in no class. Targets without SSE2 use the scalar loops
 * (CTK_HAVE_ASCII16 is 0).
 *
 * The compares are signed, so each range test first adds a bias that moves
 * the range's first byte to -128: then `x < -128 + width` holds exactly for
 * the range, and every byte outside it (ASCII or not) lands above.
 */
#ifndef CTK_ASCII16_H
#define CTK_ASCII16_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#define CTK_HAVE_ASCII16 1

/* Bytes of `v` in [first, first + width). */
static inline __attribute__((always_inline)) __m128i ctk__in_range16(__m128i v, uint8_t first, uint8_t width)
{
    __m128i biased = _mm_add_epi8(v, _mm_set1_epi8((char)(uint8_t)(0x80 - first)));
    return _mm_cmplt_epi8(biased, _mm_set1_epi8((char)(uint8_t)(0x80 + width)));
}

/* Writes in[0..16) lower-cased to out[0..16); returns the mask of letters and
 * digits, and sets *upper and *digit to the masks of upper-case letters and of
 * digits. */
static inline __attribute__((always_inline)) unsigned ctk__ascii16(const uint8_t *in, uint8_t *out,
                                                                   unsigned *upper, unsigned *digit)
{
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)in);
    __m128i up = ctk__in_range16(v, 'A', 26);
    __m128i letter = ctk__in_range16(_mm_or_si128(v, _mm_set1_epi8(0x20)), 'a', 26);
    __m128i dig = ctk__in_range16(v, '0', 10);
    _mm_storeu_si128((__m128i *)(void *)out, _mm_or_si128(v, _mm_and_si128(up, _mm_set1_epi8(0x20))));
    *upper = (unsigned)_mm_movemask_epi8(up);
    *digit = (unsigned)_mm_movemask_epi8(dig);
    return (unsigned)_mm_movemask_epi8(_mm_or_si128(letter, dig));
}

/* Whether a lower-cased word of `len` <= 16 bytes at p (16 bytes readable)
 * holds a letter three times in a row. */
static inline __attribute__((always_inline)) bool ctk__triple16(const uint8_t *p, size_t len)
{
    if (len < 3) return false;
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
    __m128i same = _mm_and_si128(_mm_cmpeq_epi8(v, _mm_srli_si128(v, 1)), _mm_cmpeq_epi8(v, _mm_srli_si128(v, 2)));
    unsigned hits = (unsigned)_mm_movemask_epi8(_mm_and_si128(same, ctk__in_range16(v, 'a', 26)));
    return (hits & ((1u << (len - 2)) - 1)) != 0;
}
#else
#define CTK_HAVE_ASCII16 0
#endif

#endif
