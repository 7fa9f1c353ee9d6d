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
#include "internal.h"

#define K0 0x9E3779B97F4A7C15ull /* 2^64 / golden ratio */
#define K1 0xC2B2AE3D27D4EB4Full
#define K2 0x165667B19E3779F9ull
#define K3 0xD6E8FEB86659FD93ull

/* The 128-bit product of a and b, its halves folded by xor. */
static inline uint64_t fold_mul(uint64_t a, uint64_t b)
{
#if defined(__SIZEOF_INT128__)
    __uint128_t r = (__uint128_t)a * b;
    return (uint64_t)r ^ (uint64_t)(r >> 64);
#else
    uint64_t ha = a >> 32, la = (uint32_t)a, hb = b >> 32, lb = (uint32_t)b;
    uint64_t rh = ha * hb, rm0 = ha * lb, rm1 = hb * la, rl = la * lb;
    uint64_t t = rl + (rm0 << 32);
    uint64_t carry = t < rl;
    uint64_t lo = t + (rm1 << 32);
    carry += lo < t;
    uint64_t hi = rh + (rm0 >> 32) + (rm1 >> 32) + carry;
    return lo ^ hi;
#endif
}

static inline uint64_t read64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    v = __builtin_bswap64(v);
#endif
    return v;
}

static inline uint64_t read32(const uint8_t *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    v = __builtin_bswap32(v);
#endif
    return v;
}

uint64_t ctk__hash_state(uint64_t seed)
{
    return seed ^ fold_mul(seed ^ K0, K1);
}

uint64_t ctk_hash64(const void *bytes, size_t count, uint64_t seed)
{
    return ctk__hash_with_state(bytes, count, ctk__hash_state(seed));
}

uint64_t ctk__hash_with_state(const void *bytes, size_t count, uint64_t state)
{
    const uint8_t *p = (const uint8_t *)bytes;
    uint64_t len = (uint64_t)count;
    uint64_t h = state;
    uint64_t a, b;

    if (count <= 16) {
        if (count >= 4) {
            /* Two overlapping 32-bit reads from each end cover 4–16 bytes. */
            size_t q = (count >> 3) << 2;
            a = (read32(p) << 32) | read32(p + q);
            b = (read32(p + count - 4) << 32) | read32(p + count - 4 - q);
        } else if (count > 0) {
            a = ((uint64_t)p[0] << 16) | ((uint64_t)p[count >> 1] << 8) | p[count - 1];
            b = 0;
        } else {
            a = b = 0;
        }
    } else {
        size_t i = count;
        if (i > 48) {
            uint64_t h1 = h, h2 = h;
            do {
                h = fold_mul(read64(p) ^ K1, read64(p + 8) ^ h);
                h1 = fold_mul(read64(p + 16) ^ K2, read64(p + 24) ^ h1);
                h2 = fold_mul(read64(p + 32) ^ K3, read64(p + 40) ^ h2);
                p += 48;
                i -= 48;
            } while (i > 48);
            h ^= h1 ^ h2;
        }
        while (i > 16) {
            h = fold_mul(read64(p) ^ K1, read64(p + 8) ^ h);
            p += 16;
            i -= 16;
        }
        /* The last 16 bytes, overlapping what came before when i < 16. */
        a = read64(p + i - 16);
        b = read64(p + i - 8);
    }

    a ^= K1;
    b ^= h;
#if defined(__SIZEOF_INT128__)
    __uint128_t r = (__uint128_t)a * b;
    a = (uint64_t)r;
    b = (uint64_t)(r >> 64);
#else
    {
        uint64_t x = a, y = b;
        uint64_t ha = x >> 32, la = (uint32_t)x, hb = y >> 32, lb = (uint32_t)y;
        uint64_t rh = ha * hb, rm0 = ha * lb, rm1 = hb * la, rl = la * lb;
        uint64_t t = rl + (rm0 << 32);
        uint64_t carry = t < rl;
        uint64_t lo = t + (rm1 << 32);
        carry += lo < t;
        a = lo;
        b = rh + (rm0 >> 32) + (rm1 >> 32) + carry;
    }
#endif
    return fold_mul(a ^ K0 ^ len, b ^ K2);
}
