/*
 * emoticon.c — ASCII emoticons.
 *
 * Recognized (entities decoded, so "&lt;3" is "<3" and "&gt;:(" is ">:("):
 *   western  [>] eyes [tear] [nose] mouth [mouth…]
 *            eyes : ; =   tear ' (only ":'(" and ":')")   nose -
 *            mouths ) ( ] [ D P p O o 3 * | / \  (3 only with :)
 *            ">" (angry brows) only with : ; and the mouths ) ( D P p
 *   x faces  xD XD xP (the word "xp"/"XP" is left alone)
 *   hearts   <3 </3 (more 3s allowed)
 *   kaomoji  ^_^ ^-^ ^.^ ^^ -_- -.- T_T T.T T-T ;_; >_< >.< o_O O_o o_o O_O
 *            o.O O.o \o/
 * Repeated mouths are one emoticon: ":)))" → ":)", "XDDD" → "xd", "<333" → "<3".
 *
 * False positives avoided:
 *   - an emoticon that ends in a letter or digit, or whose mouth is / or \,
 *     must not be followed by a word character ("Note:Don't", ":/path"),
 *     nor a slash mouth by another slash ("ftp://…");
 *   - a digit mouth (":3") must not follow a word character, nor be followed
 *     by a dash ("-", en dash "–", em dash "—") and a digit: it is part of the
 *     word or score ("Ep:3", "score:3-2", "score :3–2"); a letter before any
 *     other mouth is fine ("great:)");
 *   - a heart must not follow a digit: "1<3" is a comparison or a score
 *     ("lost 1<3-2"), unless the digit ends an emoticon ("<3<3" is two);
 *   - x faces, "=" eyes and kaomoji with letters must not follow a word
 *     character (so the "x" inside a word is never an emoticon);
 *   - times and ratios ("3:30", "16:9") are numbers: the scanner reads the
 *     digits first and never asks here.
 *
 * Text: the nose is dropped and case folded where it does not change the
 * meaning: ":-D" → ":D", ":P" → ":p", ":O" → ":o", "XD" → "xd".
 */
#include "internal.h"

typedef struct ctk_cursor {
    const ctk_scanner *s;
    size_t pos;
} ctk_cursor;

static inline uint32_t next(ctk_cursor *c)
{
    size_t len;
    uint32_t cp = ctk__peek(c->s, c->pos, &len);
    c->pos += len;
    return cp;
}

static inline uint32_t look(const ctk_cursor *c)
{
    size_t len;
    return ctk__peek(c->s, c->pos, &len);
}

static size_t western(const ctk_scanner *s, size_t i, char *out, size_t *out_len)
{
    ctk_cursor c = { s, i };
    size_t k = 0;
    uint32_t ch = next(&c);
    bool angry = false;
    if (ch == '>') {
        angry = true;
        out[k++] = '>';
        ch = next(&c);
        if (ch != ':' && ch != ';') return 0;
    }
    if (ch != ':' && ch != ';' && ch != '=') return 0;
    uint32_t eyes = ch;
    if (eyes == '=' && ctk__after_word(s, i)) return 0;
    out[k++] = (char)eyes;

    ch = next(&c);
    bool tear = false;
    if (ch == '\'' && eyes == ':') {
        tear = true;
        ch = next(&c);
    }
    if (ch == '-') ch = next(&c);

    uint32_t mouth = ch;
    char m;
    bool repeat = false, alnum_end = false, slash = false;
    switch (mouth) {
    case ')': case '(': case ']': case '[':
        m = (char)mouth; repeat = true; break;
    case 'D':
        m = 'D'; repeat = true; alnum_end = true; break;
    case 'P': case 'p':
        m = 'p'; repeat = true; alnum_end = true; break;
    case 'O': case 'o':
        m = 'o'; alnum_end = true; break;
    case '3':
        m = '3'; alnum_end = true; break;
    case '*': case '|':
        m = (char)mouth; break;
    case '/': case '\\':
        m = (char)mouth; slash = true; break;
    default:
        return 0;
    }
    if (tear && mouth != ')' && mouth != '(') return 0;
    if (m == '3' && eyes != ':') return 0; /* ":3" only: ";3" is mostly "&lt;3" undecoded */
    if (m == '3' && ctk__after_word(s, i)) return 0; /* "Ep:3" */
    if (angry && !(mouth == ')' || mouth == '(' || m == 'D' || m == 'p')) return 0;
    if (tear) out[k++] = '\'';
    out[k++] = m;

    size_t end = c.pos;
    if (repeat) {
        for (;;) {
            uint32_t x = look(&c);
            if (x == mouth || (m == 'p' && (x == 'p' || x == 'P'))) {
                next(&c);
                end = c.pos;
            } else {
                break;
            }
        }
    }
    uint32_t after = look(&c);
    if ((alnum_end || slash) && ctk__is_word_char(after)) return 0;
    if (slash && (after == '/' || after == '\\')) return 0;
    if (m == '3' && (after == '-' || after == 0x2013 || after == 0x2014)) {
        size_t dash, len;
        ctk__peek(s, c.pos, &dash);
        uint32_t digit = ctk__peek(s, c.pos + dash, &len);
        if (digit != CTK_EOF && (ctk__uclass(digit) & CTK_U_DIGIT)) return 0; /* ":3-2", ":3–2" */
    }
    *out_len = k;
    return end;
}

static size_t xface(const ctk_scanner *s, size_t i, char *out, size_t *out_len)
{
    if (ctk__after_word(s, i)) return 0;
    ctk_cursor c = { s, i };
    uint32_t x = next(&c);
    uint32_t mouth = next(&c);
    if (!(mouth == 'D' || (mouth == 'P' && x == 'x'))) return 0;
    size_t end = c.pos;
    while (look(&c) == mouth) {
        next(&c);
        end = c.pos;
    }
    if (ctk__is_word_char(look(&c))) return 0;
    out[0] = 'x';
    out[1] = mouth == 'D' ? 'd' : 'p';
    *out_len = 2;
    return end;
}

static size_t heart(const ctk_scanner *s, size_t i, char *out, size_t *out_len)
{
    if (i > 0 && (ctk__ascii[s->src[i - 1]] & CTK_A_DIGIT) && s->emoticon_end != i) return 0; /* "1<3" */
    ctk_cursor c = { s, i };
    size_t k = 0;
    out[k++] = (char)next(&c); /* '<' */
    uint32_t ch = next(&c);
    if (ch == '/') {
        out[k++] = '/';
        ch = next(&c);
    }
    if (ch != '3') return 0;
    out[k++] = '3';
    size_t end = c.pos;
    while (look(&c) == '3') {
        next(&c);
        end = c.pos;
    }
    if (ctk__is_word_char(look(&c))) return 0;
    *out_len = k;
    return end;
}

static const char *const kaomoji[] = {
    "^_^", "^-^", "^.^", "^^", "-_-", "-.-", "T_T", "T.T", "T-T", ";_;", ">_<", ">.<",
    "o_O", "O_o", "o_o", "O_O", "o.O", "O.o", "\\o/",
};

static size_t kaomoji_match(const ctk_scanner *s, size_t i, char *out, size_t *out_len)
{
    for (size_t k = 0; k < sizeof kaomoji / sizeof kaomoji[0]; k++) {
        const char *face = kaomoji[k];
        ctk_cursor c = { s, i };
        size_t j = 0;
        bool letters = false;
        for (; face[j]; j++) {
            if (next(&c) != (uint8_t)face[j]) break;
            if (ctk__ascii[(uint8_t)face[j]] & CTK_A_ALPHA) letters = true;
        }
        if (face[j]) continue;
        if (letters && ctk__after_word(s, i)) continue;
        if (ctk__is_word_char(look(&c))) continue;
        memcpy(out, face, j);
        *out_len = j;
        return c.pos;
    }
    return 0;
}

size_t ctk__emoticon_match(const ctk_scanner *s, size_t i, char out[CTK_EMOTICON_MAX],
                           size_t *out_len)
{
    size_t len;
    uint32_t first = ctk__peek(s, i, &len);
    size_t end = 0;
    switch (first) {
    case ':': case '=':
        return western(s, i, out, out_len);
    case ';': case '>':
        end = western(s, i, out, out_len);
        return end ? end : kaomoji_match(s, i, out, out_len);
    case '<':
        return heart(s, i, out, out_len);
    case 'x': case 'X':
        return xface(s, i, out, out_len);
    case '^': case '-': case 'T': case 'o': case 'O': case '\\':
        return kaomoji_match(s, i, out, out_len);
    default:
        return 0;
    }
}
