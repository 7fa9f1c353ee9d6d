/*
 * hash.c — ctk_hash64, the hash stored in every token.
 *
 * A multiply-fold design in the style of wyhash: input is read as
 * little-endian 64- and 32-bit words on every platform, each pair of words is
 * mixed by one 64×64→128-bit multiplication whose halves are xor-folded, and
 * the length and seed enter the final mix. Inputs up to 16 bytes (most tokens)
 * cost one or two multiplications. The constants are odd 64-bit numbers with
 * balanced bits.
 *
 * STABILITY: model files store these values. Never change a constant or a
 * step; Tests/CTokenizerTests pins known outputs.
 */
#include "hash.h"

uint64_t ctk__hash_state(uint64_t seed)
{
    return seed ^ ctk__fold_mul(seed ^ CTK_HASH_K0, CTK_HASH_K1);
}

uint64_t ctk_hash64(const void *bytes, size_t count, uint64_t seed)
{
    return ctk__hash_with_state(bytes, count, ctk__hash_state(seed));
}

uint64_t ctk__hash_with_state(const void *bytes, size_t count, uint64_t state)
{
    const uint8_t *p = (const uint8_t *)bytes;
    if (count <= 16) return ctk__hash_short(p, count, state);

    uint64_t h = state;
    size_t i = count;
    if (i > 48) {
        uint64_t h1 = h, h2 = h;
        do {
            h = ctk__fold_mul(ctk__read64le(p) ^ CTK_HASH_K1, ctk__read64le(p + 8) ^ h);
            h1 = ctk__fold_mul(ctk__read64le(p + 16) ^ CTK_HASH_K2, ctk__read64le(p + 24) ^ h1);
            h2 = ctk__fold_mul(ctk__read64le(p + 32) ^ CTK_HASH_K3, ctk__read64le(p + 40) ^ h2);
            p += 48;
            i -= 48;
        } while (i > 48);
        h ^= h1 ^ h2;
    }
    while (i > 16) {
        h = ctk__fold_mul(ctk__read64le(p) ^ CTK_HASH_K1, ctk__read64le(p + 8) ^ h);
        p += 16;
        i -= 16;
    }
    /* The last 16 bytes, overlapping what came before when i < 16. */
    return ctk__hash_finish(ctk__read64le(p + i - 16), ctk__read64le(p + i - 8), h, (uint64_t)count);
}
