/*
 * token_keys.c — ctk_token_keys: each token's key and table slot and each
 * bigram's weight row, which the scorer prefetches before it sums them.
 *
 * A bigram's row takes five 64-bit multiplications in a chain (`ctk_pair64`,
 * `ctk_feature64`), a key two more and its slot one. With AVX-512's 64-bit
 * vector multiplications eight tokens take the instructions of one
 * (Docs/performance.md).
 */
#include "ctk.h"
#if defined(__x86_64__)
#include <immintrin.h>
#endif

void ctk_token_keys_portable(const ctk_token *tokens, size_t count, size_t contrast_from, size_t slot_count,
                             uint64_t space, uint64_t mask, uint64_t *keys, ptrdiff_t *slots, ptrdiff_t *rows)
{
    for (size_t i = 0; i < count; i++) {
        uint64_t key = ctk_token_key(tokens[i].hash, tokens[i].kind, tokens[i].flags, i >= contrast_from);
        keys[i] = key;
        slots[i] = (ptrdiff_t)ctk_slot_index(key, slot_count);
    }
    if (rows) {
        for (size_t i = 1; i < count; i++)
            rows[i] = 3 * (ptrdiff_t)(ctk_feature64(space, ctk_pair64(tokens[i - 1].hash, tokens[i].hash)) & mask);
    }
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

/* ctk_token_keys_portable, eight lanes at a time; the last group's missing
 * lanes are masked off (not even read). */
TARGET_AVX512 static void keys_avx512(const ctk_token *tokens, size_t count, size_t contrast_from,
                                      size_t slot_count, uint64_t space, uint64_t mask,
                                      uint64_t *keys, ptrdiff_t *slots, ptrdiff_t *rows)
{
    /* A token is four 64-bit words: the hash is word 0; kind and flags are
     * the low 32 bits of word 3. */
    _Static_assert(sizeof(ctk_token) == 32, "ctk_token is four words");
    _Static_assert(offsetof(ctk_token, kind) == 24 && offsetof(ctk_token, flags) == 26, "kind and flags in word 3");
    const __m512i first4 = _mm512_setr_epi64(0, 4, 8, 12, 0, 0, 0, 0);   /* word 0 of four tokens */
    const __m512i fourth4 = _mm512_setr_epi64(3, 7, 11, 15, 0, 0, 0, 0);  /* word 3 of four tokens */
    const __m512i halves = _mm512_setr_epi64(0, 1, 2, 3, 8, 9, 10, 11);
    const __m512i lane = _mm512_setr_epi64(0, 1, 2, 3, 4, 5, 6, 7);
    const __m512i pair = _mm512_set1_epi64((long long)CTK_PAIR_MUL);
    const __m512i family = _mm512_set1_epi64((long long)(space * CTK_NAMESPACE_MUL));
    const __m512i bits = _mm512_set1_epi64((long long)mask);
    const __m512i capacity = _mm512_set1_epi64((long long)slot_count);
    __m512i previous = _mm512_setzero_si512();
    for (size_t i = 0; i < count; i += 8) {
        size_t left = count - i;
        __mmask8 lanes = left >= 8 ? 0xFF : (__mmask8)((1u << left) - 1);
        /* Eight tokens are 32 words, four vectors of two tokens each (a
         * short last group's missing words masked off), from which the
         * hashes and the words holding kind and flags are picked. */
        uint32_t words = left >= 8 ? 0xFFFFFFFFu : (uint32_t)((1ull << (4 * left)) - 1);
        const long long *base = (const long long *)(const void *)(tokens + i);
        __m512i t01 = _mm512_maskz_loadu_epi64((__mmask8)words, base);
        __m512i t23 = _mm512_maskz_loadu_epi64((__mmask8)(words >> 8), base + 8);
        __m512i t45 = _mm512_maskz_loadu_epi64((__mmask8)(words >> 16), base + 16);
        __m512i t67 = _mm512_maskz_loadu_epi64((__mmask8)(words >> 24), base + 24);
        __m512i hash = _mm512_permutex2var_epi64(_mm512_permutex2var_epi64(t01, first4, t23), halves,
                                                 _mm512_permutex2var_epi64(t45, first4, t67));
        __m512i traits = _mm512_permutex2var_epi64(_mm512_permutex2var_epi64(t01, fourth4, t23), halves,
                                                   _mm512_permutex2var_epi64(t45, fourth4, t67));

        __m512i kind = _mm512_and_si512(traits, _mm512_set1_epi64(0xFFFF));
        __m512i negated = _mm512_and_si512(_mm512_srli_epi64(traits, 16), _mm512_set1_epi64(CTK_FLAG_NEGATED));
        __m512i key = _mm512_xor_si512(hash, _mm512_mullo_epi64(kind, _mm512_set1_epi64((long long)CTK_KEY_KIND_MUL)));
        key = _mm512_xor_si512(key, _mm512_mullo_epi64(negated, _mm512_set1_epi64((long long)CTK_KEY_NEGATED_MUL)));
        __mmask8 contrast = _mm512_cmpge_epu64_mask(_mm512_add_epi64(lane, _mm512_set1_epi64((long long)i)),
                                                    _mm512_set1_epi64((long long)contrast_from));
        key = _mm512_mask_xor_epi64(key, contrast, key, _mm512_set1_epi64((long long)CTK_KEY_CONTRAST));
        key = _mm512_mask_mov_epi64(key, _mm512_cmpeq_epi64_mask(key, _mm512_setzero_si512()), _mm512_set1_epi64(1));
        _mm512_mask_storeu_epi64(keys + i, lanes, key);
        /* The low 32 bits times the capacity, the high half of that. */
        _mm512_mask_storeu_epi64(slots + i, lanes, _mm512_srli_epi64(_mm512_mul_epu32(key, capacity), 32));

        if (rows) {
            /* Lane k pairs token i + k − 1 with token i + k: the hashes one lane
             * up, the last of the group before coming in at lane 0. */
            __m512i before = _mm512_alignr_epi64(hash, previous, 7);
            __m512i f = mix8(_mm512_xor_si512(mix8(_mm512_xor_si512(_mm512_mullo_epi64(before, pair), hash)), family));
            f = _mm512_and_si512(f, bits);
            f = _mm512_add_epi64(f, _mm512_slli_epi64(f, 1));      /* 3 · f */
            _mm512_mask_storeu_epi64(rows + i, i == 0 ? (__mmask8)(lanes & 0xFE) : lanes, f);
            previous = hash;
        }
    }
}
#endif

bool ctk_token_keys_vectorized(void)
{
#if defined(__x86_64__)
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq");
#else
    return false;
#endif
}

void ctk_token_keys(const ctk_token *tokens, size_t count, size_t contrast_from, size_t slot_count,
                    uint64_t space, uint64_t mask, uint64_t *keys, ptrdiff_t *slots, ptrdiff_t *rows)
{
#if defined(__x86_64__)
    if (ctk_token_keys_vectorized()) {
        keys_avx512(tokens, count, contrast_from, slot_count, space, mask, keys, slots, rows);
        return;
    }
#endif
    ctk_token_keys_portable(tokens, count, contrast_from, slot_count, space, mask, keys, slots, rows);
}
