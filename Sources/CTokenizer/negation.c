/*
 * negation.c — negation cues and the punctuation that ends their scope.
 *
 * A cue is matched on the normalized (case-folded, apostrophe-unified) word:
 * the list below, or any word ending in "n't". Tweets often drop the
 * apostrophe, so the apostrophe-less forms are cues too.
 */
#include "internal.h"

typedef struct ctk_cue {
    uint8_t length;
    char text[9];
} ctk_cue;

/* Every cue either starts with 'n' or ends with 't' ("without" does both):
 * the scanner's words are filtered on that before the list is searched. */
static const ctk_cue cues[] = {
    { 2, "no" },      { 3, "nor" },      { 3, "not" },      { 4, "aint" },
    { 4, "cant" },    { 4, "dont" },     { 4, "isnt" },     { 4, "none" },
    { 4, "wont" },    { 5, "arent" },    { 5, "didnt" },    { 5, "hadnt" },
    { 5, "hasnt" },   { 5, "never" },    { 5, "wasnt" },    { 6, "cannot" },
    { 6, "doesnt" },  { 6, "havent" },   { 6, "mustnt" },   { 6, "neednt" },
    { 6, "nobody" },  { 6, "werent" },   { 7, "couldnt" },  { 7, "neither" },
    { 7, "nothing" }, { 7, "nowhere" },  { 7, "without" },  { 7, "wouldnt" },
    { 8, "shouldnt" },
};

bool ctk__is_negator(const char *text, size_t len)
{
    if (len < 2) return false;
    char last = text[len - 1];
    if (text[0] != 'n' && last != 't') return false;
    if (last == 't' && len >= 3 && text[len - 2] == '\'' && text[len - 3] == 'n') return true;
    if (len > 8) return false;
    for (size_t k = 0; k < sizeof cues / sizeof cues[0]; k++) {
        const ctk_cue *c = &cues[k];
        if (c->length > len) break;
        if (c->length == len && c->text[0] == text[0] && memcmp(c->text, text, len) == 0)
            return true;
    }
    return false;
}

bool ctk__is_clause_cp(uint32_t cp)
{
    switch (cp) {
    case '.': case ',': case ';': case ':': case '!': case '?':
    case 0x2026: /* … */
    case 0x203C: case 0x2047: case 0x2048: case 0x2049: /* ‼ ⁇ ⁈ ⁉ */
    case 0x3001: case 0x3002: /* 、 。 */
    case 0xFF01: case 0xFF0C: case 0xFF0E: case 0xFF1A: case 0xFF1B: case 0xFF1F:
    case 0xFF61: case 0xFF64: /* ｡ ､ */
    case 0x060C: case 0x061B: case 0x061F: /* Arabic comma, semicolon, question mark */
    case 0x0964: case 0x0965: /* Devanagari danda */
        return true;
    default:
        return false;
    }
}
