/*
 * pair_rows.c — ctk_pair_rows: the weight row of each bigram of a tweet,
 * which the scorer prefetches before it sums the rows.
 *
 * Five multiplications a bigram, in a chain (`ctk_pair64`, `ctk_feature64`):
 * with AVX-512's 64-bit vector multiplications, eight bigrams take the
 * instructions of one. `sentiment classify` on one core ran 3% faster with
 * the eight-wide path (Docs/performance.md).
 */
#include "ctk.h"
#if defined(__x86_64__)
#include <immintrin.h>
#endif

static void rows_portable(const uint64_t *h, size_t count, uint64_t space, uint64_t mask, ptrdiff_t *rows)
{
    for (size_t i = 1; i < count; i++)
        rows[i] = 3 * (ptrdiff_t)(ctk_feature64(space, ctk_pair64(h[i - 1], h[i])) & mask);
}

#if defined(__x86_64__)
#define TARGET_AVX512 __attribute__((target("avx512f,avx512dq")))

TARGET_AVX512 static inline __m512i mix8(__m512i z)
{
    z = _mm512_add_epi64(z, _mm512_set1_epi64((long long)CTK_MIX_ADD));
    z = _mm512_mullo_epi64(_mm512_xor_si512(z, _mm512_srli_epi64(z, 30)), _mm512_set1_epi64((long long)CTK_MIX_MUL1));
    z = _mm512_mullo_epi64(_mm512_xor_si512(z, _mm512_srli_epi64(z, 27)), _mm512_set1_epi64((long long)CTK_MIX_MUL2));
    return _mm512_xor_si512(z, _mm512_srli_epi64(z, 31));
}

/* rows_portable, eight lanes at a time; the last group's missing lanes are masked off. */
TARGET_AVX512 static void rows_avx512(const uint64_t *h, size_t count, uint64_t space, uint64_t mask, ptrdiff_t *rows)
{
    const __m512i pair = _mm512_set1_epi64((long long)CTK_PAIR_MUL);
    const __m512i family = _mm512_set1_epi64((long long)(space * CTK_NAMESPACE_MUL));
    const __m512i bits = _mm512_set1_epi64((long long)mask);
    for (size_t i = 1; i < count; i += 8) {
        size_t left = count - i;
        __mmask8 lanes = left >= 8 ? 0xFF : (__mmask8)((1u << left) - 1);
        __m512i a = _mm512_maskz_loadu_epi64(lanes, h + i - 1);
        __m512i b = _mm512_maskz_loadu_epi64(lanes, h + i);
        __m512i f = mix8(_mm512_xor_si512(mix8(_mm512_xor_si512(_mm512_mullo_epi64(a, pair), b)), family));
        f = _mm512_and_si512(f, bits);
        f = _mm512_add_epi64(f, _mm512_slli_epi64(f, 1));      /* 3 · f */
        _mm512_mask_storeu_epi64(rows + i, lanes, f);
    }
}
#endif

bool ctk_pair_rows_vectorized(void)
{
#if defined(__x86_64__)
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq");
#else
    return false;
#endif
}

static void copy_hashes(const ctk_token *tokens, size_t count, uint64_t *hashes)
{
    for (size_t i = 0; i < count; i++) hashes[i] = tokens[i].hash;
}

void ctk_pair_rows(const ctk_token *tokens, size_t count, uint64_t space, uint64_t mask,
                   uint64_t *hashes, ptrdiff_t *rows)
{
    copy_hashes(tokens, count, hashes);
#if defined(__x86_64__)
    if (ctk_pair_rows_vectorized()) {
        rows_avx512(hashes, count, space, mask, rows);
        return;
    }
#endif
    rows_portable(hashes, count, space, mask, rows);
}

void ctk_pair_rows_portable(const ctk_token *tokens, size_t count, uint64_t space, uint64_t mask,
                            uint64_t *hashes, ptrdiff_t *rows)
{
    copy_hashes(tokens, count, hashes);
    rows_portable(hashes, count, space, mask, rows);
}
