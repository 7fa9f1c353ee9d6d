/*
 * hash.h — the parts of ctk_hash64 that the tokenizer inlines: the
 * multiply-fold steps, and the whole hash of an input of up to 16 bytes, which
 * most tokens are (`emit` hashes each token's text; a call per token cost more
 * than the hash itself). hash.c holds the entry points and the longer inputs.
 *
 * STABILITY: model files store these values. Never change a constant or a
 * step; Tests/CTokenizerTests pins known outputs.
 */
#ifndef CTK_HASH_H
#define CTK_HASH_H

#include "internal.h"

#define CTK_HASH_K0 0x9E3779B97F4A7C15ull /* 2^64 / golden ratio */
#define CTK_HASH_K1 0xC2B2AE3D27D4EB4Full
#define CTK_HASH_K2 0x165667B19E3779F9ull
#define CTK_HASH_K3 0xD6E8FEB86659FD93ull

/* The 128-bit product of a and b, as its low and high halves. */
CTK_INLINE void ctk__mul128(uint64_t a, uint64_t b, uint64_t *lo, uint64_t *hi)
{
#if defined(__SIZEOF_INT128__)
    __uint128_t r = (__uint128_t)a * b;
    *lo = (uint64_t)r;
    *hi = (uint64_t)(r >> 64);
#else
    uint64_t ha = a >> 32, la = (uint32_t)a, hb = b >> 32, lb = (uint32_t)b;
    uint64_t rh = ha * hb, rm0 = ha * lb, rm1 = hb * la, rl = la * lb;
    uint64_t t = rl + (rm0 << 32);
    uint64_t carry = t < rl;
    uint64_t l = t + (rm1 << 32);
    carry += l < t;
    *lo = l;
    *hi = rh + (rm0 >> 32) + (rm1 >> 32) + carry;
#endif
}

/* The 128-bit product of a and b, its halves folded by xor. */
CTK_INLINE uint64_t ctk__fold_mul(uint64_t a, uint64_t b)
{
    uint64_t lo, hi;
    ctk__mul128(a, b, &lo, &hi);
    return lo ^ hi;
}

/* Little-endian reads, on every platform. */
CTK_INLINE uint64_t ctk__read64le(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    v = __builtin_bswap64(v);
#endif
    return v;
}

CTK_INLINE uint64_t ctk__read32le(const uint8_t *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    v = __builtin_bswap32(v);
#endif
    return v;
}

/* The last mix: the two words the input was read into (a, b), the running
 * state h and the input's length. */
CTK_INLINE uint64_t ctk__hash_finish(uint64_t a, uint64_t b, uint64_t h, uint64_t length)
{
    uint64_t lo, hi;
    ctk__mul128(a ^ CTK_HASH_K1, b ^ h, &lo, &hi);
    return ctk__fold_mul(lo ^ CTK_HASH_K0 ^ length, hi ^ CTK_HASH_K2);
}

/* ctk__hash_with_state for count <= 16: two overlapping 32-bit reads from
 * each end cover 4–16 bytes; three bytes cover 1–3. */
CTK_INLINE uint64_t ctk__hash_short(const uint8_t *p, size_t count, uint64_t state)
{
    uint64_t a, b;
    if (count >= 4) {
        size_t q = (count >> 3) << 2;
        a = (ctk__read32le(p) << 32) | ctk__read32le(p + q);
        b = (ctk__read32le(p + count - 4) << 32) | ctk__read32le(p + count - 4 - q);
    } else if (count > 0) {
        a = ((uint64_t)p[0] << 16) | ((uint64_t)p[count >> 1] << 8) | p[count - 1];
        b = 0;
    } else {
        a = b = 0;
    }
    return ctk__hash_finish(a, b, state, (uint64_t)count);
}

#endif /* CTK_HASH_H */
