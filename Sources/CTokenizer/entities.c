/*
 * entities.c — the HTML entities tweets are published with (CTK_OPT_ENTITIES):
 * &amp; &lt; &gt; &quot; &#39; &apos; &nbsp;, and the numeric character
 * references, &#NNN; and &#xHH; ("&#039;", "&#8211;", "&#x2019;"). Names are
 * matched exactly (lower case, with the semicolon), as Twitter writes them; a
 * reference needs its semicolon, at most 8 digits and a Unicode scalar value
 * other than U+0000 (not a surrogate); anything else stays literal.
 */
#include "internal.h"

typedef struct ctk_entity {
    const char *name; /* including '&' and ';' */
    uint8_t length;
    uint32_t ch;
} ctk_entity;

static const ctk_entity entities[] = {
    { "&amp;", 5, '&' },
    { "&lt;", 4, '<' },
    { "&gt;", 4, '>' },
    { "&quot;", 6, '"' },
    { "&#39;", 5, '\'' },
    { "&apos;", 6, '\'' },
    { "&nbsp;", 6, 0xA0 },
};

/* "&#NNN;" or "&#xHH;" at p (p[0] == '&', p[1] == '#'): its length, or 0. */
static size_t numeric_reference(const uint8_t *p, size_t n, uint32_t *cp)
{
    size_t i = 2;
    bool hex = i < n && (p[i] | 0x20) == 'x';
    if (hex) i++;
    size_t digits = i;
    uint32_t value = 0;
    while (i < n && i - digits < 8) {
        uint8_t b = p[i];
        unsigned d;
        if (b >= '0' && b <= '9') d = b - '0';
        else if (hex && (b | 0x20) >= 'a' && (b | 0x20) <= 'f') d = (b | 0x20) - 'a' + 10;
        else break;
        value = value * (hex ? 16 : 10) + d; /* 8 digits: below 2^32 */
        i++;
    }
    if (i == digits || i >= n || p[i] != ';') return 0;
    if (value == 0 || value > 0x10FFFF || (value >= 0xD800 && value <= 0xDFFF)) return 0;
    *cp = value;
    return i + 1;
}

size_t ctk__entity(const uint8_t *p, size_t n, uint32_t *cp)
{
    if (n < 4) return 0;
    if (p[1] == '#') {
        size_t len = numeric_reference(p, n, cp);
        if (len) return len;
    }
    for (size_t k = 0; k < sizeof entities / sizeof entities[0]; k++) {
        const ctk_entity *e = &entities[k];
        if (n >= e->length && p[1] == (uint8_t)e->name[1] &&
            memcmp(p, e->name, e->length) == 0) {
            *cp = e->ch;
            return e->length;
        }
    }
    return 0;
}

bool ctk__entity_word_ends_at(const ctk_scanner *s, size_t i)
{
    if (!(s->options & CTK_OPT_ENTITIES) || i < 4) return false;
    /* The longest reference, "&#x" and 8 digits and ';', is 12 bytes; none
     * holds a '&' but its first, so the nearest '&' is its start. */
    size_t stop = i > 12 ? i - 12 : 0, k = i - 1; /* k: the ';' */
    while (k > stop) {
        k--;
        if (s->src[k] == '&') {
            uint32_t cp;
            return ctk__entity(s->src + k, i - k, &cp) == i - k && ctk__is_word_char(cp);
        }
    }
    return false;
}
