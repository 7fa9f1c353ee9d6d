/*
 * chars.c — character classes: a table for ASCII (the fast path never leaves
 * it) and ICU properties for everything else.
 */
#include "internal.h"

#include <unicode/uchar.h>
#include <unicode/unorm2.h>
#include <unicode/uscript.h>

#define SP CTK_A_SPACE
#define UP CTK_A_UPPER
#define LO CTK_A_LOWER
#define DI CTK_A_DIGIT
#define PU CTK_A_PUNCT
#define SY CTK_A_SYMBOL

const uint8_t ctk__ascii[256] = {
    SP, SP, SP, SP, SP, SP, SP, SP, SP, SP, SP, SP, SP, SP, SP, SP,  /* 00 */
    SP, SP, SP, SP, SP, SP, SP, SP, SP, SP, SP, SP, SP, SP, SP, SP,  /* 10 */
    SP, PU, PU, PU, SY, PU, PU, PU, PU, PU, PU, SY, PU, PU, PU, PU,  /* 20 */
    DI, DI, DI, DI, DI, DI, DI, DI, DI, DI, PU, PU, SY, SY, SY, PU,  /* 30 */
    PU, UP, UP, UP, UP, UP, UP, UP, UP, UP, UP, UP, UP, UP, UP, UP,  /* 40 */
    UP, UP, UP, UP, UP, UP, UP, UP, UP, UP, UP, PU, PU, PU, SY, PU,  /* 50 */
    SY, LO, LO, LO, LO, LO, LO, LO, LO, LO, LO, LO, LO, LO, LO, LO,  /* 60 */
    LO, LO, LO, LO, LO, LO, LO, LO, LO, LO, LO, PU, SY, PU, SY, SP,  /* 70 */
    /* 80–FF: 0, not ASCII (so loops over bytes need no separate test) */
};

#undef SP
#undef UP
#undef LO
#undef DI
#undef PU
#undef SY

/* Whether a letter counts as Latin: one of the Latin script, or one of no
 * script (Common) whose NFKC decomposition begins with a Latin letter, as the
 * mathematical alphanumerics of "fancy font" posts do ("𝐈 𝐥𝐨𝐯𝐞 𝐭𝐡𝐢𝐬" is
 * "I love this"; U+1D400–U+1D7FF) and the letterlike symbols that fill their
 * gaps ("ℎ", "ℬ", "ℍ"). Their bold Greek letters decompose to Greek, and
 * U+30FC "ー" to itself: neither is Latin. */
static bool is_latin_letter(UChar32 c)
{
    UErrorCode status = U_ZERO_ERROR;
    UScriptCode script = uscript_getScript(c, &status);
    if (script != USCRIPT_COMMON) return script == USCRIPT_LATIN;
    const UNormalizer2 *nfkc = unorm2_getNFKCInstance(&status);
    UChar decomposition[32];
    int32_t length = U_SUCCESS(status) ? unorm2_getDecomposition(nfkc, c, decomposition, 32, &status) : 0;
    if (U_FAILURE(status) || length <= 0) return false;
    UChar32 first;
    int32_t i = 0;
    U16_NEXT(decomposition, i, length, first);
    return uscript_getScript(first, &status) == USCRIPT_LATIN && U_SUCCESS(status);
}

unsigned ctk__uclass(uint32_t cp)
{
    if (cp < 0x80) {
        uint8_t a = ctk__ascii[cp];
        unsigned k = 0;
        if (a & CTK_A_SPACE) k |= CTK_U_SKIP;
        if (a & CTK_A_ALPHA) k |= CTK_U_ALPHA | CTK_U_LETTER | CTK_U_LATIN;
        if (a & CTK_A_UPPER) k |= CTK_U_UPPER;
        if (a & CTK_A_DIGIT) k |= CTK_U_DIGIT;
        if (a & CTK_A_PUNCT) k |= CTK_U_PUNCT;
        return k;
    }
    UChar32 c = (UChar32)cp;
    unsigned k = 0;
    int8_t type = u_charType(c);
    uint32_t mask = U_MASK(type);
    if (mask & U_GC_L_MASK) {
        /* The Hangul fillers (U+115F, U+1160, U+3164, U+FFA0) are letters that
         * NFKC_Casefold deletes: as letters they would start words with no text. */
        if (u_hasBinaryProperty(c, UCHAR_DEFAULT_IGNORABLE_CODE_POINT)) return CTK_U_SKIP;
        k |= CTK_U_LETTER | CTK_U_ALPHA;
        if (u_isUUppercase(c)) k |= CTK_U_UPPER;
        if (is_latin_letter(c)) k |= CTK_U_LATIN;
    } else if (mask & U_GC_M_MASK) {
        k |= CTK_U_MARK;
    } else if (type == U_DECIMAL_DIGIT_NUMBER) {
        k |= CTK_U_DIGIT;
    } else if (mask & U_GC_P_MASK) {
        k |= CTK_U_PUNCT;
    } else if (type == U_CONTROL_CHAR || u_isUWhiteSpace(c) ||
               u_hasBinaryProperty(c, UCHAR_DEFAULT_IGNORABLE_CODE_POINT)) {
        k |= CTK_U_SKIP;
    } else if (u_hasBinaryProperty(c, UCHAR_ALPHABETIC)) {
        /* Nl (Roman numerals) and the like. */
        k |= CTK_U_ALPHA;
    }
    if ((k & CTK_U_MARK) && u_hasBinaryProperty(c, UCHAR_DEFAULT_IGNORABLE_CODE_POINT)) {
        /* Variation selectors and the like are Mn but invisible: skip them. */
        k = CTK_U_SKIP;
    }
    return k;
}

bool ctk__is_word_char(uint32_t cp)
{
    if (cp < 0x80) return (ctk__ascii[cp] & CTK_A_ALNUM) != 0;
    if (cp == CTK_EOF) return false;
    return (ctk__uclass(cp) & CTK_U_WORD) != 0;
}

bool ctk__word_char_ends_at(const uint8_t *src, size_t i)
{
    /* Back over continuation bytes to the lead byte (a character is at most
     * four bytes). A sequence that does not end exactly at `i` leaves the byte
     * before `i` a stray continuation byte: a U+FFFD, not a word character. */
    size_t start = i - 1;
    while (start > 0 && i - start < 4 && (src[start] & 0xC0) == 0x80) start--;
    uint32_t cp;
    bool invalid;
    size_t len = ctk__utf8_decode(src + start, i - start, &cp, &invalid);
    return !invalid && start + len == i && ctk__is_word_char(cp);
}
