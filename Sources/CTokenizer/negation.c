/*
 * negation.c — negation cues and the punctuation that ends their scope.
 *
 * A cue is matched on the normalized (case-folded, apostrophe-unified) word:
 * the list below, or any word ending in "n't". Tweets often drop the
 * apostrophe, so the apostrophe-less forms are cues too.
 */
#include "internal.h"

/* The cues, by length. Every cue either starts with 'n' or ends with 't'
 * ("without" does both), but "w/o": the scanner's words are filtered on that
 * before they come here. A switch on the length and fixed-length compares,
 * which the compiler makes integer compares, instead of searching one list. */
#define CUE(literal) (memcmp(text, literal, sizeof literal - 1) == 0)

bool ctk__is_negator(const char *text, size_t len)
{
    if (len < 2) return false;
    char last = text[len - 1];
    if (text[0] != 'n' && last != 't') return len == 3 && CUE("w/o");
    if (last == 't' && len >= 3 && text[len - 2] == '\'' && text[len - 3] == 'n') return true;
    switch (len) {
    case 2: return CUE("no");
    case 3: return CUE("nor") || CUE("not");
    case 4: return CUE("aint") || CUE("cant") || CUE("dont") || CUE("isnt") || CUE("none") || CUE("wont");
    case 5:
        return CUE("arent") || CUE("didnt") || CUE("hadnt") || CUE("hasnt") || CUE("never") || CUE("w/out") ||
               CUE("wasnt");
    case 6:
        return CUE("cannot") || CUE("doesnt") || CUE("havent") || CUE("mustnt") || CUE("neednt") || CUE("nobody") ||
               CUE("werent");
    case 7:
        return CUE("couldnt") || CUE("neither") || CUE("nothing") || CUE("nowhere") || CUE("without") ||
               CUE("wouldnt");
    case 8: return CUE("shouldnt");
    default: return false;
    }
}

#undef CUE

/* The elongation mark cuts a run of three or more letters to two, so a
 * stretched cue ("nooooot") reaches the list as "noot". Each doubled letter
 * may stand for one letter of a cue: every way of undoubling them is tried
 * (a word has few). A cue of two letters is left out: a stretched "no"
 * ("noooo, my phone") is an exclamation, not a determiner that negates what
 * follows. */
bool ctk__is_stretched_negator(const char *text, size_t len)
{
    if (len < 4 || len > 16) return false;
    size_t doubled[16];
    size_t count = 0;
    for (size_t i = 1; i < len; i++)
        if (text[i] == text[i - 1]) doubled[count++] = i;
    if (count == 0 || count > 6) return false;
    for (unsigned mask = 1; mask < (1u << count); mask++) {
        char word[16];
        size_t n = 0;
        size_t next = 0;
        for (size_t i = 0; i < len; i++) {
            if (next < count && doubled[next] == i) {
                if (mask & (1u << next++)) continue;
            }
            word[n++] = text[i];
        }
        if (n >= 3 && ctk__is_negator(word, n)) return true;
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
    /* The other characters whose NFKC_Casefold is clause punctuation, so the
     * decision agrees with the token's text: the Greek question mark (';'),
     * the one and two dot leaders ('.', ".."), and the vertical (U+FE10–FE19,
     * FE30) and small (U+FE50–FE57) forms. (TokenizerTests checks every P*.) */
    case 0x037E:
    case 0x2024: case 0x2025:
    case 0xFE10: case 0xFE11: case 0xFE12: case 0xFE13: case 0xFE14: case 0xFE15: case 0xFE16: case 0xFE19:
    case 0xFE30:
    case 0xFE50: case 0xFE51: case 0xFE52: case 0xFE54: case 0xFE55: case 0xFE56: case 0xFE57:
        return true;
    default:
        return false;
    }
}
