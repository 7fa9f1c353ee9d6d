/*
 * entities.c — the HTML entities tweets are published with (CTK_OPT_ENTITIES):
 * &amp; &lt; &gt; &quot; &#39; &apos;. Names are matched exactly (lower case,
 * with the semicolon), as Twitter writes them; anything else stays literal.
 */
#include "internal.h"

typedef struct ctk_entity {
    const char *name; /* including '&' and ';' */
    uint8_t length;
    uint8_t ch;
} ctk_entity;

static const ctk_entity entities[] = {
    { "&amp;", 5, '&' },
    { "&lt;", 4, '<' },
    { "&gt;", 4, '>' },
    { "&quot;", 6, '"' },
    { "&#39;", 5, '\'' },
    { "&apos;", 6, '\'' },
};

size_t ctk__entity(const uint8_t *p, size_t n, uint32_t *cp)
{
    if (n < 4) return 0;
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
