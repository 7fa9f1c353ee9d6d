/*
 * emoji.c — emoji as whole grapheme clusters.
 *
 * A cluster starts with
 *   - an Extended_Pictographic code point (text-default pictographs below
 *     U+2300 — © ® ‼ ⁉ ™ ℹ ↔ … — only when U+FE0F follows, so that they stay
 *     symbols and punctuation in running text),
 *   - a pair of regional indicators (a flag; a lone one is an emoji too),
 *   - a lone skin-tone modifier, or
 *   - a keycap: 0–9 # * with an optional U+FE0F, then U+20E3,
 * and continues with variation selectors, skin tones (Emoji_Modifier),
 * U+20E3, tag characters (subdivision flags), other Grapheme_Extend marks,
 * and ZWJ + another pictograph (a ZWJ not followed by one ends the cluster).
 *
 * The token text drops U+FE0E, U+FE0F and skin tones: "❤️" → "❤", "👍🏽" → "👍".
 */
#include "internal.h"

#include <unicode/uchar.h>

#define ZWJ 0x200D
#define VS15 0xFE0E
#define VS16 0xFE0F
#define KEYCAP 0x20E3

static inline bool is_regional(uint32_t cp) { return cp >= 0x1F1E6 && cp <= 0x1F1FF; }
static inline bool is_skin_tone(uint32_t cp) { return cp >= 0x1F3FB && cp <= 0x1F3FF; }
static inline bool is_tag(uint32_t cp) { return cp >= 0xE0020 && cp <= 0xE007F; }

static inline bool is_pictographic(uint32_t cp)
{
    return cp >= 0xA9 && cp != CTK_EOF && u_hasBinaryProperty((UChar32)cp, UCHAR_EXTENDED_PICTOGRAPHIC);
}

bool ctk__is_pictographic(uint32_t cp)
{
    return is_pictographic(cp);
}

/* Raw UTF-8 peek: a cluster is read as written (a reference to an emoji is
 * one alone, ctk__is_emoji_alone). */
static inline uint32_t peek_raw(const ctk_scanner *s, size_t i, size_t *len)
{
    if (i >= s->n) {
        *len = 0;
        return CTK_EOF;
    }
    uint32_t cp;
    bool invalid;
    *len = ctk__utf8_decode(s->src + i, s->n - i, &cp, &invalid);
    return invalid ? CTK_EOF : cp;
}

/* Extends a cluster that ends at `j`. */
static size_t extend(const ctk_scanner *s, size_t j)
{
    for (;;) {
        size_t len;
        uint32_t cp = peek_raw(s, j, &len);
        if (cp == CTK_EOF || cp < 0x80) return j;
        if (cp == VS16 || cp == VS15 || cp == KEYCAP || is_skin_tone(cp) || is_tag(cp)) {
            j += len;
            continue;
        }
        if (cp == ZWJ) {
            size_t len2;
            uint32_t next = peek_raw(s, j + len, &len2);
            if (next != CTK_EOF && (is_pictographic(next) || is_regional(next))) {
                j += len + len2;
                continue;
            }
            return j;
        }
        if (u_hasBinaryProperty((UChar32)cp, UCHAR_GRAPHEME_EXTEND)) {
            j += len;
            continue;
        }
        return j;
    }
}

size_t ctk__emoji_scan(const ctk_scanner *s, size_t i, uint32_t cp, size_t len)
{
    size_t j = i + len;
    if (is_regional(cp)) {
        size_t len2;
        uint32_t next = peek_raw(s, j, &len2);
        if (is_regional(next)) j += len2;
        return extend(s, j);
    }
    if (is_skin_tone(cp)) return extend(s, j);
    if (!is_pictographic(cp)) return 0;
    if (cp < 0x2300 && !u_hasBinaryProperty((UChar32)cp, UCHAR_EMOJI_PRESENTATION)) {
        size_t len2;
        if (peek_raw(s, j, &len2) != VS16) return 0;
    }
    return extend(s, j);
}

bool ctk__is_emoji_alone(uint32_t cp)
{
    if (is_regional(cp) || is_skin_tone(cp)) return true;
    if (!is_pictographic(cp)) return false;
    return cp >= 0x2300 || u_hasBinaryProperty((UChar32)cp, UCHAR_EMOJI_PRESENTATION);
}

size_t ctk__keycap_scan(const ctk_scanner *s, size_t i)
{
    /* base [EF B8 8F] E2 83 A3 — checked on bytes so ASCII text never calls ICU. */
    const uint8_t *p = s->src + i + 1;
    size_t left = s->n - i - 1;
    if (left >= 3 && p[0] == 0xEF && p[1] == 0xB8 && p[2] == 0x8F) {
        p += 3;
        left -= 3;
    }
    if (left >= 3 && p[0] == 0xE2 && p[1] == 0x83 && p[2] == 0xA3)
        return extend(s, (size_t)(p + 3 - s->src));
    return 0;
}

void ctk__emoji_write(ctk_scanner *s, size_t start, size_t end)
{
    bool first = true;
    for (size_t i = start; i < end;) {
        size_t len;
        uint32_t cp = peek_raw(s, i, &len);
        i += len;
        if (cp == VS16 || cp == VS15 || (!first && is_skin_tone(cp))) continue;
        first = false;
        uint8_t buf[4];
        ctk__put(s, buf, ctk__utf8_encode(cp, buf));
    }
}
