/*
 * tokenize.c — the scanner: ctk_tokenize.
 *
 * One left-to-right pass. At each token start the first byte picks a rule:
 *
 *   ASCII letter   URL (http:// https:// www.), emoticon (xD, T_T, o_O), word,
 *                  or a URL with no scheme when the word is a host ("bit.ly/…",
 *                  "NFL.com")
 *   ASCII digit    keycap emoji (1️⃣), number, or word when letters follow ("2nd")
 *   # * @          keycap, hashtag, mention, else punctuation (also ＃ ＠)
 *   ! ? . …        punctuation runs
 *   : ; = < > ^ - \ emoticon, else punctuation or symbol
 *   non-ASCII      invalid UTF-8 (U+FFFD symbol), emoji cluster, word, number,
 *                  punctuation, symbol; whitespace and default-ignorables are
 *                  skipped
 *
 * The ASCII paths read bytes through a class table and lower-case words
 * themselves; ICU is only called for non-ASCII characters (normalize.c,
 * emoji.c, chars.c).
 *
 * Output: the text of each token is appended to the caller's buffer, then the
 * token (with the hash of that text) to the caller's array. When either is
 * full the pass goes on writing nothing, only counting, so that stats can
 * report the sizes needed (CTK_ERROR_NOSPACE).
 */
#include "internal.h"
#include "ascii16.h"
#include "hash.h"

_Static_assert(CTK_OPT_DEFAULT == (CTK_OPT_NEGATION | CTK_OPT_ELONGATION | CTK_OPT_ENTITIES),
               "CTK_OPT_DEFAULT must stay the documented union");

/* What a word scan saw, for the flags, the stats and the choice of text path. */
typedef struct ctk_facts {
    uint32_t letters;  /* letters (L*) */
    uint32_t upper;    /* of which upper case */
    uint32_t other;    /* of which not in the Latin script */
    bool nonascii;     /* needs ICU */
    bool special;      /* an entity or a typographic apostrophe: needs the reader */
    bool elongated;    /* an ASCII letter 3+ times in a row */
} ctk_facts;

/* ------------------------------------------------------------------------- */
/* Small helpers                                                             */
/* ------------------------------------------------------------------------- */

CTK_INLINE bool is_ascii_alpha(uint32_t cp)
{
    return cp < 0x80 && (ctk__ascii[cp] & CTK_A_ALPHA);
}

/* Whether the character at `i` is a letter (a word may start there), also
 * one written as a numeric character reference ("&#233;", "&#65;"), which a
 * word takes as it takes the letter ("caf&#233;" is "café"). */
static bool alpha_at(const ctk_scanner *s, size_t i)
{
    size_t len;
    uint32_t cp = ctk__peek(s, i, &len);
    if (cp < 0x80) return (ctk__ascii[cp] & CTK_A_ALPHA) != 0;
    if (cp == CTK_EOF || ctk__is_apostrophe(cp)) return false;
    return (ctk__uclass(cp) & CTK_U_ALPHA) != 0;
}

/* The invisible format characters that may sit inside a word: soft hyphen,
 * combining grapheme joiner, word joiner, zero-width no-break space (BOM), the
 * bidirectional marks, embeddings and isolates (U+061C ALM, U+200E LRM,
 * U+200F RLM, U+202A–U+202E, U+2066–U+2069) that copied text carries, and the
 * variation selectors (U+FE00–U+FE0F; scan_word lets one end the word after
 * an emoji's base, "xℹ️", or a keycap's). Default-ignorable, so NFKC_Casefold
 * deletes them; followed by a word character they keep the word going, as
 * ZWJ and ZWNJ do. (U+200B, a zero-width space, still separates words.) */
CTK_INLINE bool is_invisible_in_word(uint32_t cp)
{
    return cp == 0x00AD || cp == 0x034F || cp == 0x2060 || cp == 0xFEFF || cp == 0x061C || cp == 0x200E ||
           cp == 0x200F || (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069) ||
           (cp >= 0xFE00 && cp <= 0xFE0F);
}

/* The code point that ends right before `i` (> 0), or CTK_EOF when its bytes
 * are not one valid character. */
static uint32_t cp_before(const ctk_scanner *s, size_t i)
{
    size_t start = i - 1;
    while (start > 0 && i - start < 4 && (s->src[start] & 0xC0) == 0x80) start--;
    uint32_t cp;
    bool invalid;
    size_t len = ctk__utf8_decode(s->src + start, i - start, &cp, &invalid);
    return invalid || start + len != i ? CTK_EOF : cp;
}

/* Whether the character at `i` is a decimal digit (ASCII or Nd). */
static bool digit_at(const ctk_scanner *s, size_t i)
{
    if (i >= s->n) return false;
    uint8_t b = s->src[i];
    if (b < 0x80) return (ctk__ascii[b] & CTK_A_DIGIT) != 0;
    uint32_t cp;
    bool invalid;
    ctk__utf8_decode(s->src + i, s->n - i, &cp, &invalid);
    return !invalid && (ctk__uclass(cp) & CTK_U_DIGIT);
}

/* Case-insensitive ASCII prefix test. */
static bool has_prefix_ci(const ctk_scanner *s, size_t i, const char *lit, size_t len)
{
    if (s->n - i < len) return false;
    for (size_t k = 0; k < len; k++) {
        uint8_t b = s->src[i + k];
        if (b >= 'A' && b <= 'Z') b = (uint8_t)(b | 0x20);
        if (b != (uint8_t)lit[k]) return false;
    }
    return true;
}

/* ------------------------------------------------------------------------- */
/* Emitting tokens                                                           */
/* ------------------------------------------------------------------------- */

/* Whether a word "no" that ends at `end` is the abbreviation of number: a '.'
 * and a digit after it, spaces between allowed ("No.1 fan", "No. 1"). Asked
 * only of the word "no". */
static __attribute__((noinline)) bool number_sign_at(const ctk_scanner *s, size_t end)
{
    if (end >= s->n || s->src[end] != '.') return false;
    size_t j = end + 1;
    while (j < s->n && s->src[j] == ' ') j++;
    return digit_at(s, j);
}

/* Whether the word at `j` (after spaces) is `word` (ASCII, lower case), any
 * case, with each letter perhaps repeated when `stretched` ("waaait"), and no
 * word character or '_' after it. */
static bool next_word_is(const ctk_scanner *s, size_t j, const char *word, bool stretched)
{
    while (j < s->n && s->src[j] == ' ') j++;
    for (const char *w = word; *w; w++) {
        if (j >= s->n || (s->src[j] | 0x20) != *w) return false;
        j++;
        while (stretched && j < s->n && (s->src[j] | 0x20) == *w) j++;
    }
    size_t len;
    uint32_t cp = ctk__peek(s, j, &len);
    return !ctk__is_word_char(cp) && cp != '_';
}

/* Whether the word that ends right before `end` is `word` (ASCII, lower
 * case), any case, with no word character or '_' before it: next_word_is
 * looking back ("RT@user", "can not wait"). */
static bool word_ends_at(const ctk_scanner *s, size_t end, const char *word)
{
    size_t len = strlen(word);
    if (end < len) return false;
    for (size_t k = 0; k < len; k++)
        if ((s->src[end - len + k] | 0x20) != word[k]) return false;
    return !ctk__after_word(s, end - len);
}

/* Whether a cue (its text `t`, `len` bytes, the source [start, end)) begins
 * an idiom that negates nothing after it: "can't wait" (also "cant",
 * "cannot", "can not"; eager, not patient), "no doubt(s)" (surely),
 * "nothing but" (only) and "not only" ("not only … but also": both). The cue
 * is then no cue and opens no scope, as "No.1" does. Asked only of cues. */
static __attribute__((noinline)) bool negation_idiom_at(const ctk_scanner *s, const char *t, size_t len,
                                                        size_t start, size_t end)
{
    switch (len) {
    case 2: /* "no" */
        return memcmp(t, "no", 2) == 0 && (next_word_is(s, end, "doubt", false) || next_word_is(s, end, "doubts", false));
    case 3: /* "not": "not only", and "can not wait" */
        if (memcmp(t, "not", 3) != 0) return false;
        if (next_word_is(s, end, "only", false)) return true;
        if (!next_word_is(s, end, "wait", true)) return false;
        {
            size_t j = start;
            while (j > 0 && s->src[j - 1] == ' ') j--;
            return j < start && word_ends_at(s, j, "can");
        }
    case 4: return memcmp(t, "cant", 4) == 0 && next_word_is(s, end, "wait", true);
    case 5: return memcmp(t, "can't", 5) == 0 && next_word_is(s, end, "wait", true);
    case 6: return memcmp(t, "cannot", 6) == 0 && next_word_is(s, end, "wait", true);
    case 7: /* "nothing" */
        return memcmp(t, "nothing", 7) == 0 && next_word_is(s, end, "but", false);
    default:
        return false;
    }
}

/* Appends a token whose text was written from `text_start` to the end of the
 * text so far; applies the negation scope. Inlined into the fast path of
 * words (most tokens); `emit` is the out-of-line form for the others. */
CTK_INLINE void emit_body(ctk_scanner *s, ctk_kind kind, unsigned flags, size_t src_start, size_t src_end,
                           size_t text_start)
{
    size_t text_len = s->text_length - text_start;
    if (s->options & CTK_OPT_NEGATION) {
        /* Every cue starts with 'n' or ends with "nt", "'t", "ot", "ut" or "/o"
         * ("w/o"): test that inline first (negation.c keeps the list). */
        /* `t` is formed only when the text is there (a size query passes no buffer). */
        const char *t = kind == CTK_WORD && !s->text_full && text_len >= 2 ? s->text + text_start : NULL;
        if (t && (t[0] == 'n' ||
                  (t[text_len - 1] == 't' && (t[text_len - 2] == 'n' || t[text_len - 2] == '\'' ||
                                              t[text_len - 2] == 'o' || t[text_len - 2] == 'u')) ||
                  (t[text_len - 1] == 'o' && t[text_len - 2] == '/')) &&
            ctk__is_negator(t, text_len) && !(text_len == 2 && number_sign_at(s, src_end)) &&
            !negation_idiom_at(s, t, text_len, src_start, src_end)) {
            /* (The one cue of two letters is "no": not one in "No.1".) */
            flags |= CTK_FLAG_NEGATOR;
            s->in_negation = true;
        } else if (t && (flags & CTK_FLAG_ELONGATED) && ctk__is_stretched_negator(t, text_len)) {
            flags |= CTK_FLAG_NEGATOR;
            s->in_negation = true;
        } else if (s->in_negation) {
            flags |= CTK_FLAG_NEGATED;
        }
    }
    if (s->token_count < s->token_capacity) {
        ctk_token *t = &s->tokens[s->token_count];
        /* Most tokens are short: their hash inline (hash.h), the rest by call.
         * (A full text buffer may be none at all: a size query.) */
        if (s->text_full)
            t->hash = 0;
        else if (text_len <= 16)
            t->hash = ctk__hash_short((const uint8_t *)(text_len ? s->text + text_start : ""), text_len, s->hash_state);
        else
            t->hash = ctk__hash_with_state(s->text + text_start, text_len, s->hash_state);
        t->text_offset = (uint32_t)text_start;
        t->text_length = (uint32_t)text_len;
        t->source_offset = (uint32_t)src_start;
        t->source_length = (uint32_t)(src_end - src_start);
        t->kind = (uint16_t)kind;
        t->flags = (uint16_t)flags;
        t->reserved = 0;
    }
    s->token_count++;
}

/* emit_body out of line, for every token but the fast path's words. */
static __attribute__((noinline)) void emit(ctk_scanner *s, ctk_kind kind, unsigned flags, size_t src_start,
                                           size_t src_end, size_t text_start)
{
    emit_body(s, kind, flags, src_start, src_end, text_start);
}

/* A token with fixed ASCII text ("<url>", "<user>", an emoticon). */
static size_t emit_literal(ctk_scanner *s, ctk_kind kind, unsigned flags, size_t start,
                           size_t end, const char *lit, size_t len)
{
    size_t t0 = s->text_length;
    ctk__put(s, lit, len);
    emit(s, kind, flags, start, end, t0);
    return end;
}

/* A punctuation token: clause punctuation ends the negation scope, and
 * CTK_OPT_DROP_PUNCT leaves the token (and its text) out. */
static size_t emit_punct(ctk_scanner *s, size_t start, size_t end, bool clause, unsigned flags,
                         const char *lit, size_t len)
{
    if (clause) s->in_negation = false;
    if (s->options & CTK_OPT_DROP_PUNCT) return end;
    size_t t0 = s->text_length;
    if (lit)
        ctk__put(s, lit, len);
    else
        ctk__fold_span(s, start, end, 0);
    emit(s, CTK_PUNCT, flags, start, end, t0);
    return end;
}

/* ------------------------------------------------------------------------- */
/* Words, hashtags, numbers                                                  */
/* ------------------------------------------------------------------------- */

static size_t bare_url(ctk_scanner *s, size_t i);

/* Whether a '.' or '-' follows the word that ends at `end`, so that it may be
 * the first label of a host (bare_url decides). */
CTK_INLINE bool host_may_go_on(const ctk_scanner *s, size_t end)
{
    return end < s->n && (s->src[end] == '.' || s->src[end] == '-');
}

/* Whether the ASCII digit at `i` is the base of a keycap emoji ("0️⃣"), which
 * a number or a word ends before ("10️⃣" is 1 and 0️⃣, as its grapheme
 * clusters are). */
CTK_INLINE bool keycap_at(const ctk_scanner *s, size_t i)
{
    return (ctk__ascii[s->src[i]] & CTK_A_DIGIT) && ctk__keycap_scan(s, i);
}

/* Whether an apostrophe ending at `j` joins two parts of a word. */
CTK_INLINE bool apostrophe_joins(const ctk_scanner *s, size_t j)
{
    return j < s->n && alpha_at(s, j);
}

/* Where a possessive "'s" that starts at `j` ends — an apostrophe (any of the
 * word apostrophes, or "&#39;") and an "s" or "S" with no word character or
 * "_" after it — or `j` when there is none. A link, mention, hashtag or
 * number takes it into its token, text unchanged ("NFL.com's", "@user's",
 * "#Yankees's", "the 90's"), as a word keeps it ("NFL's"), instead of leaving
 * a quote and a stray word "s". One byte is tested first: ASCII text that
 * holds no apostrophe or '&' takes no other step. */
static size_t possessive_end(const ctk_scanner *s, size_t j)
{
    if (j >= s->n || (s->src[j] != '\'' && s->src[j] != '&' && s->src[j] < 0x80)) return j;
    size_t len;
    uint32_t a = ctk__peek(s, j, &len);
    size_t after = j + len;
    if (!ctk__is_apostrophe(a) || after >= s->n || (s->src[after] | 0x20) != 's') return j;
    uint32_t next = ctk__peek(s, after + 1, &len);
    return ctk__is_word_char(next) || next == '_' ? j : after + 1;
}

/* possessive_end after a mention or a hashtag, also with spaces before the
 * apostrophe: a client that completes "@rihanna" or "#Yankees" adds a space
 * after it, so "@rihanna 's new show" is "@rihanna's new show". (After a word,
 * a link or a number a spaced "'s" is left a quote and a word.) */
static size_t tag_possessive_end(const ctk_scanner *s, size_t j)
{
    size_t k = j;
    while (k < s->n && s->src[k] == ' ') k++;
    if (k == j) return possessive_end(s, j);
    size_t end = possessive_end(s, k);
    return end > k ? end : j;
}

/* Whether a word that ends at `j` may have a clitic written apart after it:
 * a space, then an apostrophe, a space or a byte that may begin either (the
 * test of every word; spaced_clitic_end decides). */
CTK_INLINE bool clitic_may_follow(const ctk_scanner *s, size_t j)
{
    if (CTK_LIKELY(j + 2 >= s->n || s->src[j] != ' ')) return false;
    uint8_t b = s->src[j + 1];
    return b == '\'' || b == ' ' || b == '&' || b >= 0x80;
}

/* Whether [c, c + m) are the letters of a clitic: "s", "re", "ll", "ve",
 * "m" or "d", and also "t" when `t` ("n't"), in any case. */
static bool is_clitic(const ctk_scanner *s, size_t c, size_t m, bool t)
{
    if (m == 0 || m > 2) return false;
    char l0 = (char)(s->src[c] | 0x20), l1 = m == 2 ? (char)(s->src[c + 1] | 0x20) : 0;
    return m == 1 ? l0 == 's' || l0 == 'm' || l0 == 'd' || (t && l0 == 't')
                  : (l0 == 'r' && l1 == 'e') || (l0 == 'l' && l1 == 'l') || (l0 == 'v' && l1 == 'e');
}

/* Whether the word [start, end) ends in a clitic after an apostrophe (any of
 * the word apostrophes, or one written as a reference): "don't", "it's". */
static bool ends_in_clitic(const ctk_scanner *s, size_t start, size_t end)
{
    size_t after = 0; /* where the last apostrophe ends */
    for (size_t i = start; i < end;) {
        size_t len;
        if (ctk__is_apostrophe(ctk__peek(s, i, &len))) after = i + len;
        i += len;
    }
    return after && is_clitic(s, after, end - after, true);
}

/* Where a clitic written apart from the word [start, j) ends — spaces,
 * an apostrophe (any of the word apostrophes, or "&#39;"), and "s", "re",
 * "ll", "ve", "m" or "d" in any case with no word character, '_' or
 * apostrophe after it — or `j` when there is none. Pre-tokenized dumps write
 * "it 's", "Sam Smith 's song", "they 're", "I 'm", as the Penn Treebank
 * splits them; the clitic is the word's, as in "it's" and "Smith's" (and as
 * a spaced "'s" after a mention or a hashtag is theirs: tag_possessive_end),
 * not a quote and a word "s". A quoted letter ("some good 'd' right") and a
 * quote that begins a word ("he said 'sorry'", "it 'sup") are left as they
 * are, and so are "'t" ("don 't"; the "n't" of "do n't" is a word already)
 * and a clitic after a word that ends in one ("don't 's"; "O'Rilley 's" is
 * "o'rilley's"). */
static __attribute__((noinline)) size_t spaced_clitic_end(const ctk_scanner *s, size_t start, size_t j)
{
    size_t k = j;
    while (k < s->n && s->src[k] == ' ') k++;
    size_t len;
    uint32_t a = ctk__peek(s, k, &len);
    if (k == j || !ctk__is_apostrophe(a)) return j;
    size_t c = k + len, m = 0; /* the clitic's letters: [c, c + m) */
    while (c + m < s->n && m < 3 && (ctk__ascii[s->src[c + m]] & CTK_A_ALPHA)) m++;
    if (!is_clitic(s, c, m, false)) return j;
    uint32_t next = ctk__peek(s, c + m, &len);
    if (ctk__is_word_char(next) || next == '_' || ctk__is_apostrophe(next) || ends_in_clitic(s, start, j)) return j;
    return c + m;
}

/* Writes the text of a clitic spaced_clitic_end found, which ends at `end`:
 * "'" and its letters, lower-cased; counts them in `*letters` and
 * `*upper`. */
static void put_spaced_clitic(ctk_scanner *s, size_t end, uint32_t *letters, uint32_t *upper)
{
    size_t c = end;
    while (ctk__ascii[s->src[c - 1]] & CTK_A_ALPHA) c--;
    ctk__put_byte(s, '\'');
    for (; c < end; c++) {
        uint8_t b = s->src[c];
        *letters += 1;
        *upper += (ctk__ascii[b] & CTK_A_UPPER) != 0;
        ctk__put_byte(s, (uint8_t)(b | 0x20));
    }
}

/*
 * Scans a word from `i`: letters, digits and marks, also written as numeric
 * character references ("caf&#233;", "cafe&#769;"), with inner apostrophes
 * (followed by a letter), inner ZWJ/ZWNJ (followed by a letter: Indic and
 * Arabic scripts) and inner soft hyphens and the like (followed by a word
 * character: is_invisible_in_word). Invalid UTF-8 ends a word, as the U+FFFD
 * symbol it is read as would ("sad" and a cut emoji are "sad" and U+FFFD, as
 * in a Swift String). A hashtag body takes underscores instead of apostrophes.
 */
static size_t scan_word(const ctk_scanner *s, size_t i, ctk_facts *f, bool hashtag)
{
    const uint8_t *src = s->src;
    size_t n = s->n, start = i;
    /* Locals, not *f, in the loop: the compiler cannot keep *f in registers. */
    uint32_t letters = 0, upper = 0;
    uint8_t last = 0;
    unsigned run = 0;
    bool elongated = false;
    while (i < n) {
        uint8_t b = src[i];
        if (CTK_LIKELY(b < 0x80)) {
            uint8_t a = ctk__ascii[b];
            if (a & CTK_A_ALPHA) {
                letters++;
                upper += (a >> 1) & 1u; /* CTK_A_UPPER */
                uint8_t l = (uint8_t)(b | 0x20);
                if (CTK_UNLIKELY(l == last)) {
                    if (++run == 3) elongated = true;
                } else {
                    last = l;
                    run = 1;
                }
                i++;
                continue;
            }
            last = 0;
            if (a & CTK_A_DIGIT) {
                i++;
                continue;
            }
            if (b == '&' && (s->options & CTK_OPT_ENTITIES)) {
                /* A letter, digit or mark written as a reference ("caf&#233;"):
                 * the word goes on through it, as through the character. */
                uint32_t cp;
                size_t len = ctk__entity(src + i, n - i, &cp);
                size_t next_len;
                if (len && (ctk__is_word_char(cp) ||
                            (is_invisible_in_word(cp) && ctk__is_word_char(ctk__peek(s, i + len, &next_len))))) {
                    unsigned k = ctk__uclass(cp);
                    if (k & CTK_U_LETTER) {
                        letters++;
                        if (k & CTK_U_UPPER) upper++;
                        if (!(k & CTK_U_LATIN)) f->other++;
                    }
                    f->special = true;
                    if (cp >= 0x80) f->nonascii = true;
                    i += len;
                    continue;
                }
            }
            if (hashtag) {
                if (b == '_') {
                    i++;
                    continue;
                }
                break;
            }
            if (b == '\'' || b == '&') {
                size_t len;
                uint32_t cp = ctk__peek(s, i, &len);
                if (ctk__is_apostrophe(cp) && apostrophe_joins(s, i + len)) {
                    if (len > 1) f->special = true;
                    i += len;
                    continue;
                }
            }
            break;
        }

        last = 0;
        uint32_t cp;
        bool invalid;
        size_t len = ctk__utf8_decode(src + i, n - i, &cp, &invalid);
        if (invalid) break;
        if ((cp == 0xFE0F || cp == 0x20E3) && i > start && keycap_at(s, i - 1)) {
            /* The digit before is a keycap's base ("day1️⃣"): the word ends before it. */
            i--;
            break;
        }
        if (ctk__is_apostrophe(cp)) {
            if (hashtag || !apostrophe_joins(s, i + len)) break;
            f->special = true;
            i += len;
            continue;
        }
        if (cp == 0x200C || cp == 0x200D) {
            /* Joiners inside Indic and Arabic-script words. */
            if (!alpha_at(s, i + len)) break;
            f->nonascii = true;
            i += len;
            continue;
        }
        if (cp >= 0xFE00 && cp <= 0xFE0F && ctk__is_pictographic(cp_before(s, i))) {
            /* "xℹ️": the selector asks for the emoji of the character before. */
            break;
        }
        if (is_invisible_in_word(cp)) {
            /* NFKC_Casefold deletes it: "beauti\u00ADful" is "beautiful",
             * "lov\uFE0Fe" is "love". */
            size_t next_len;
            if (!ctk__is_word_char(ctk__peek(s, i + len, &next_len))) break;
            f->nonascii = true;
            i += len;
            continue;
        }
        unsigned k = ctk__uclass(cp);
        if (!(k & CTK_U_WORD)) break;
        f->nonascii = true;
        if (k & CTK_U_LETTER) {
            letters++;
            if (k & CTK_U_UPPER) upper++;
            if (!(k & CTK_U_LATIN)) f->other++;
        }
        i += len;
    }
    f->letters += letters;
    f->upper += upper;
    f->elongated |= elongated;
    return i;
}

/* Writes the text of a word or hashtag body [start, end) and emits it; the
 * token spans [src_start, src_end) of the input (src_end ≥ end: a hashtag's
 * possessive is in the token, not in its text; a word's spaced clitic,
 * spaced_clitic_end, is in both). Returns src_end. */
static size_t produce_word(ctk_scanner *s, ctk_kind kind, size_t src_start, size_t start,
                           size_t end, size_t src_end, const ctk_facts *f)
{
    size_t t0 = s->text_length;
    bool elong = kind == CTK_WORD && (s->options & CTK_OPT_ELONGATION);
    ctk__elong_begin(s, elong);

    if (f->nonascii) {
        ctk__fold_span(s, start, end, CTK_FOLD_APOSTROPHES);
    } else if (f->special || (elong && f->elongated)) {
        /* ASCII with entities, typographic apostrophes or elongation. */
        for (size_t i = start; i < end;) {
            uint32_t cp;
            bool invalid;
            i += ctk__read(s, i, &cp, &invalid);
            if (ctk__is_apostrophe(cp)) cp = '\'';
            bool letter = is_ascii_alpha(cp);
            if (cp >= 'A' && cp <= 'Z') cp |= 0x20;
            ctk__put_cp(s, cp, letter);
        }
    } else {
        /* The fast path: plain ASCII letters, digits, '\'' and '_'. */
        size_t k = end - start;
        if (!s->text_full && k <= s->text_capacity - s->text_length) {
            const uint8_t *in = s->src + start;
            uint8_t *out = (uint8_t *)s->text + s->text_length;
            for (size_t j = 0; j < k; j++) {
                uint8_t b = in[j];
                out[j] = (uint8_t)(b + (((unsigned)(b - 'A') < 26u) << 5));
            }
        } else {
            s->text_full = true;
        }
        s->text_length += k;
    }

    uint32_t letters = f->letters, upper = f->upper;
    if (kind == CTK_WORD && src_end > end) put_spaced_clitic(s, src_end, &letters, &upper);

    unsigned flags = 0;
    if (s->el_hit) flags |= CTK_FLAG_ELONGATED;
    if (letters >= 2 && upper == letters) flags |= CTK_FLAG_ALLCAPS;
    s->el_on = false;
    s->stats->latin_letters += letters - f->other;
    s->stats->other_letters += f->other;
    emit(s, kind, flags, src_start, src_end, t0);
    return src_end;
}

/* Whether the character at `i` is no word character, '_' or '/' (or the end):
 * a slash abbreviation may end there. */
static bool slash_word_ends_at(const ctk_scanner *s, size_t i)
{
    size_t len;
    uint32_t cp = ctk__peek(s, i, &len);
    return !ctk__is_word_char(cp) && cp != '_' && cp != '/';
}

/* Whether the letters `lit` (lower case) are at `j`, in any case, and a slash
 * abbreviation may end after them. */
static bool slash_part_at(const ctk_scanner *s, size_t j, const char *lit)
{
    size_t len = strlen(lit);
    return has_prefix_ci(s, j, lit, len) && slash_word_ends_at(s, j + len);
}

/* The abbreviations tweets write with a slash, at a word "w", "b", "s" or
 * "and" at `i` with a '/' right after it (and none before it), as whole
 * words: "w/o" and "w/out" (without, which are negation cues as "without"
 * is), "b/c" (because), "w/e" (whatever, or the weekend), "w/end" (the
 * weekend), "w/b" (will be, welcome back), "b/w" (between), "s/o" (a
 * shout-out) and "and/or"; and "w/" (with) as a word before white space,
 * punctuation, a word of two or more characters ("w/ friends", "w/the team":
 * word:w/ word:the …) or a "u" ("w/u", with you: word:w/ word:u). Returns the
 * end of the token it emits, or 0: "w/a", "s/of", "his/her", "sand/or" and
 * "1/2" are read as before, each part a token and the '/' punctuation. Any
 * case; text lower-cased. */
static __attribute__((noinline)) size_t slash_word(ctk_scanner *s, size_t i)
{
    const uint8_t *src = s->src;
    size_t j = i + 2; /* after the '/' of a one-letter word */
    if (i > 0 && src[i - 1] == '/') return 0;
    uint8_t first = (uint8_t)(src[i] | 0x20);
    size_t end = 0;
    if (src[i + 1] != '/') {
        /* The one word of three letters: "and/or". */
        if (has_prefix_ci(s, i, "and/", 4) && slash_part_at(s, i + 4, "or")) end = i + 6;
    } else if (first == 'w') {
        if (slash_part_at(s, j, "o") || slash_part_at(s, j, "e") || slash_part_at(s, j, "b"))
            end = j + 1;
        else if (slash_part_at(s, j, "out") || slash_part_at(s, j, "end"))
            end = j + 3;
        else if (slash_word_ends_at(s, j) || slash_part_at(s, j, "u"))
            end = j;
        else {
            /* A word of two or more characters glued after it: "w/the". */
            size_t len;
            uint32_t cp = ctk__peek(s, j, &len);
            if (ctk__is_word_char(cp) && ctk__is_word_char(ctk__peek(s, j + len, &len))) end = j;
        }
    } else if (first == 'b') {
        if (slash_part_at(s, j, "c") || slash_part_at(s, j, "w")) end = j + 1;
    } else if (first == 's') {
        if (slash_part_at(s, j, "o")) end = j + 1;
    }
    if (!end) return 0;
    size_t t0 = s->text_length;
    unsigned letters = 0, upper = 0;
    for (size_t k = i; k < end; k++) {
        uint8_t b = src[k];
        if (ctk__ascii[b] & CTK_A_ALPHA) {
            letters++;
            upper += (ctk__ascii[b] & CTK_A_UPPER) != 0;
        }
        ctk__put_byte(s, (uint8_t)(b >= 'A' && b <= 'Z' ? b | 0x20 : b));
    }
    s->stats->latin_letters += letters;
    emit(s, CTK_WORD, letters >= 2 && upper == letters ? CTK_FLAG_ALLCAPS : 0, i, end, t0);
    return end;
}

/* Any word: scanned first, then written. */
static size_t word_general(ctk_scanner *s, size_t i)
{
    ctk_facts f = { 0 };
    size_t end = scan_word(s, i, &f, false);
    size_t link;
    if (CTK_UNLIKELY((end - i == 1 || end - i == 3) && end < s->n && s->src[end] == '/') && (link = slash_word(s, i)))
        return link;
    if (host_may_go_on(s, end) && (link = bare_url(s, i))) return link;
    size_t src_end = clitic_may_follow(s, end) ? spaced_clitic_end(s, i, end) : end;
    return produce_word(s, CTK_WORD, i, i, end, src_end, &f);
}

/*
 * A word, with a fast path for the common case: ASCII letters and digits with
 * inner ASCII apostrophes, lower-cased into the text buffer while they are
 * scanned. Anything else — a non-ASCII letter or apostrophe, an entity, an
 * elongated letter, a text buffer that may not have room — throws the fast
 * attempt away and takes the general path (scan_word, then produce_word).
 */
CTK_INLINE size_t word_body(ctk_scanner *s, size_t i)
{
    const uint8_t *src = s->src;
    size_t n = s->n;
    size_t t0 = s->text_length;
    if (s->text_full || s->text_capacity - t0 < n - i) return word_general(s, i);

    uint8_t *out = (uint8_t *)s->text + t0;
    unsigned seen = 0;      /* the classes met */
    size_t apostrophes = 0;
    size_t j = i;
    for (;;) {
#if CTK_HAVE_ASCII16
        /* Sixteen bytes at a time while sixteen remain (the text buffer has
         * room for them: the check above keeps n - i free). */
        while (j + 16 <= n) {
            unsigned upper, digit;
            unsigned alnum = ctk__ascii16(src + j, out + (j - i), &upper, &digit);
            unsigned run = (unsigned)__builtin_ctz(~alnum); /* ~alnum has bits 16..31 set */
            unsigned in = (1u << run) - 1;
            if (digit & in) seen |= CTK_A_DIGIT;
            if (alnum & ~upper & ~digit & in) seen |= CTK_A_LOWER;
            j += run;
            if (run < 16) break;
        }
#endif
        while (j < n) {
            uint8_t b = src[j];
            unsigned a = ctk__ascii[b]; /* 0 for non-ASCII */
            if (!(a & CTK_A_ALNUM)) break;
            out[j - i] = (uint8_t)(b | ((a & CTK_A_UPPER) << 4)); /* UPPER is 2: +32 */
            seen |= a;
            j++;
        }
        /* An ASCII apostrophe between letters keeps the word going. */
        if (CTK_UNLIKELY(j + 1 < n && src[j] == '\'' && (ctk__ascii[src[j + 1]] & CTK_A_ALPHA))) {
            out[j - i] = '\'';
            apostrophes++;
            j++;
            continue;
        }
        break;
    }
    if (j < n) {
        uint8_t b = src[j];
        if (b >= 0x80) {
            /* Does the word go on in non-ASCII (a letter, ’, a joiner, a soft hyphen)? */
            uint32_t cp;
            bool invalid;
            ctk__utf8_decode(src + j, n - j, &cp, &invalid);
            if (!invalid && (ctk__is_apostrophe(cp) || cp == 0x200C || cp == 0x200D || is_invisible_in_word(cp) ||
                             cp == 0x20E3 || (ctk__uclass(cp) & CTK_U_WORD)))
                return word_general(s, i);
        } else if ((b == '&' && (s->options & CTK_OPT_ENTITIES)) ||
                   (b == '\'' && j + 1 < n &&
                    (src[j + 1] >= 0x80 || (src[j + 1] == '&' && (s->options & CTK_OPT_ENTITIES))))) {
            return word_general(s, i); /* "don&#39;t", "l'été", "l'&#233;t&#233;" */
        }
    }

    size_t len = j - i;
    size_t link;
    /* "w/o", "w/", "b/c", "s/o", "and/or" (slash_word). */
    if (CTK_UNLIKELY((len == 1 || len == 3) && j < n && src[j] == '/') && (link = slash_word(s, i))) return link;
    size_t letters = len - apostrophes;
    if (seen & CTK_A_DIGIT) {
        for (size_t k = 0; k < len; k++) letters -= (ctk__ascii[out[k]] & CTK_A_DIGIT) != 0;
    }
#if CTK_HAVE_ASCII16
    if ((s->options & CTK_OPT_ELONGATION) && len <= 16 && s->text_capacity - t0 >= 16) {
        if (ctk__triple16(out, len)) return word_general(s, i);
    } else
#endif
    if ((s->options & CTK_OPT_ELONGATION) && len >= 3) {
        for (size_t k = 2; k < len; k++) {
            if (out[k] == out[k - 1] && out[k] == out[k - 2] && (ctk__ascii[out[k]] & CTK_A_ALPHA))
                return word_general(s, i);
        }
    }
    if (host_may_go_on(s, j) && (link = bare_url(s, i))) return link;
    bool allcaps = letters >= 2 && !(seen & CTK_A_LOWER);

    s->text_length = t0 + len;
    size_t end = j;
    if (CTK_UNLIKELY(clitic_may_follow(s, j)) && (end = spaced_clitic_end(s, i, j)) > j) {
        /* "it 's": the word's own clitic ("it's"). */
        uint32_t clitic_letters = 0, clitic_upper = 0;
        put_spaced_clitic(s, end, &clitic_letters, &clitic_upper);
        letters += clitic_letters;
        allcaps = letters >= 2 && !(seen & CTK_A_LOWER) && clitic_upper == clitic_letters;
    }
    s->stats->latin_letters += letters;
    emit_body(s, CTK_WORD, allcaps ? CTK_FLAG_ALLCAPS : 0, i, end, t0);
    return end;
}

/* word_body out of line, for the callers off the hot path (the dispatch loop
 * inlines word_body through ascii_letter: a call per word, and one more to
 * emit, cost about as much as a short word's scan). */
static __attribute__((noinline)) size_t word(ctk_scanner *s, size_t i)
{
    return word_body(s, i);
}

/* A hashtag at '#' or '＃' (i, `sign` bytes): the sign + letters, digits,
 * marks and '_', with at least one letter, not right after a word character,
 * and a possessive "'s" after them in the token (not in its text).
 * Returns 0 when there is none. */
static size_t hashtag(ctk_scanner *s, size_t i, size_t sign)
{
    if (ctk__after_word(s, i)) return 0;
    ctk_facts f = { 0 };
    size_t end = scan_word(s, i + sign, &f, true);
    if (f.letters == 0) return 0;
    /* "#Yankees's", "#Yankees 's": the possessive is the hashtag's, not a word
     * "s"; the tag is "yankees", as Twitter links it. */
    return produce_word(s, CTK_HASHTAG, i, i + sign, end, tag_possessive_end(s, end), &f);
}

/* Decimal digits (ASCII or any Nd) from `i`. */
static size_t scan_digits(const ctk_scanner *s, size_t i, bool *nonascii)
{
    while (i < s->n) {
        uint8_t b = s->src[i];
        if (b < 0x80) {
            if (!(ctk__ascii[b] & CTK_A_DIGIT)) break;
            i++;
            continue;
        }
        uint32_t cp;
        bool invalid;
        size_t len = ctk__utf8_decode(s->src + i, s->n - i, &cp, &invalid);
        if (invalid || !(ctk__uclass(cp) & CTK_U_DIGIT)) break;
        *nonascii = true;
        i += len;
    }
    return i;
}

/* Digits with inner separators (, . : followed by a digit): "1,000", "3.14",
 * "10:30", with a possessive "'s" after them ("Channel 5's": number:5). Digits
 * directly followed by a letter make a word ("2nd", "4ever", "90s"), and so
 * do two or more digits that end in 0 with an "'s" after them, the plural of
 * a decade or a round number that "the 90's", "1970’s" and "100's of fans"
 * write: the word "90s", "1970s", "100s", as "the 90s" reads. */
static size_t number(ctk_scanner *s, size_t i)
{
    bool nonascii = false, separated = false;
    size_t j = scan_digits(s, i, &nonascii);
    while (j + 1 < s->n) {
        uint8_t b = s->src[j];
        if (!(b == ',' || b == '.' || b == ':') || !digit_at(s, j + 1)) break;
        j = scan_digits(s, j + 1, &nonascii);
        separated = true;
    }
    if (j < s->n && s->src[j] >= 0x80 && j - 1 > i && keycap_at(s, j - 1)) {
        /* "10️⃣", "3.5️⃣": the last digit is a keycap's, and so is not the number's
         * (nor a separator before it). */
        j--;
        uint8_t b = s->src[j - 1];
        if (b == ',' || b == '.' || b == ':') j--;
    }
    if (!separated && alpha_at(s, j)) return word(s, i);

    size_t t0 = s->text_length;
    if (nonascii)
        ctk__fold_span(s, i, j, 0);
    else
        ctk__put(s, s->src + i, j - i);
    /* "Channel 5's", "2013's": the "'s" is the number's, not a word "s". */
    size_t end = possessive_end(s, j);
    if (end > j && !separated && !nonascii && j - i >= 2 && s->src[j - 1] == '0') {
        /* "the 90's" is "the 90s". */
        ctk__put_byte(s, 's');
        s->stats->latin_letters += 1;
        emit(s, CTK_WORD, 0, i, end, t0);
        return end;
    }
    emit(s, CTK_NUMBER, 0, i, end, t0);
    return end;
}

/* ------------------------------------------------------------------------- */
/* URLs and mentions                                                         */
/* ------------------------------------------------------------------------- */

/* The rest of a URL that starts at `i`, from `body` (after its scheme, or at
 * the '/' after its host), as a token; 0 when nothing is left of the body. It
 * runs to whitespace, a quote or angle bracket (also as an entity), or a
 * non-ASCII character that is not a letter, digit or mark; trailing
 * . , ; : ! ? ' " and a ) or ] that no ( or [ inside the URL opened are left
 * out (not the ';' of a final "&amp;"): "[http://t.co/x]" and
 * "(see http://t.co/x)" end before the bracket, ".../wiki/Foo_(bar)" keeps it. */
static size_t url_rest(ctk_scanner *s, size_t i, size_t body)
{
    size_t j = body;
    size_t opens = 0, closes = 0;             /* ( and ) */
    size_t square_opens = 0, square_closes = 0; /* [ and ] */
    size_t entity_end = 0; /* where the last "&amp;" read ends */
    while (j < s->n) {
        uint8_t b = s->src[j];
        if (b < 0x80) {
            if ((ctk__ascii[b] & CTK_A_SPACE) || b == '"' || b == '<' || b == '>') break;
            if (b == '&' && (s->options & CTK_OPT_ENTITIES)) {
                uint32_t cp;
                size_t len = ctk__entity(s->src + j, s->n - j, &cp);
                /* A reference ends the URL where its character would, or
                 * when it is an apostrophe, as "&#39;" always did: "&amp;",
                 * "&#45;", "&#233;" and "&eacute;" go on, "&#8211;",
                 * "&hellip;", "&quot;", "&lt;" and "&nbsp;" end it. */
                if (len && cp != '&' &&
                    (ctk__is_apostrophe(cp) ||
                     (cp < 0x80 ? (ctk__ascii[cp] & CTK_A_SPACE) || cp == '"' || cp == '<' || cp == '>'
                                : !(ctk__uclass(cp) & CTK_U_WORD))))
                    break;
                j += len ? len : 1;
                if (len) entity_end = j;
                continue;
            }
            opens += b == '(';
            closes += b == ')';
            square_opens += b == '[';
            square_closes += b == ']';
            j++;
            continue;
        }
        uint32_t cp;
        bool invalid;
        size_t len = ctk__utf8_decode(s->src + j, s->n - j, &cp, &invalid);
        if (invalid || !(ctk__uclass(cp) & CTK_U_WORD)) break;
        j += len;
    }
    /* The ';' of an "&amp;" is part of the '&' it spells, not trailing
     * punctuation (cut off, it was a ';' token that ended a negation scope). */
    while (j > body && j != entity_end) {
        uint8_t b = s->src[j - 1];
        if (b == '.' || b == ',' || b == ';' || b == ':' || b == '!' || b == '?' || b == '\'' ||
            b == '"') {
            j--;
        } else if (b == ')' && closes > opens) {
            closes--;
            j--;
        } else if (b == ']' && square_closes > square_opens) {
            square_closes--;
            j--;
        } else {
            break;
        }
    }
    if (j == body) return 0;
    return emit_literal(s, CTK_URL, 0, i, j, "<url>", 5);
}

/* A URL at `i` that starts with "http://", "https://" or "www.", or 0. */
static size_t url(ctk_scanner *s, size_t i)
{
    if (ctk__after_word(s, i)) return 0;
    size_t j;
    if (has_prefix_ci(s, i, "https://", 8))
        j = i + 8;
    else if (has_prefix_ci(s, i, "http://", 7))
        j = i + 7;
    else if (has_prefix_ci(s, i, "www.", 4))
        j = i + 4;
    else
        return 0;
    if (j >= s->n) return 0;
    if (s->src[j] < 0x80 && !(ctk__ascii[s->src[j]] & CTK_A_ALNUM)) {
        /* "www..." or "http:// x": not a URL. (A non-ASCII host is checked in url_rest.) */
        return 0;
    }
    return url_rest(s, i, j);
}

/* Whether [p, p + len) is one of `count` top-level domains, in any case. */
static bool tld_in(const char *const *tlds, size_t count, const uint8_t *p, size_t len)
{
    for (size_t k = 0; k < count; k++) {
        size_t m = strlen(tlds[k]);
        if (m != len) continue;
        size_t c = 0;
        while (c < m && (p[c] | 0x20) == (uint8_t)tlds[k][c]) c++;
        if (c == m) return true;
    }
    return false;
}

/* Whether [p, p + len) is one of the top-level domains a link written without
 * a scheme is read by (bare_url): the common generic ones, a few countries',
 * and those of the link shorteners (bit.ly, youtu.be, goo.gl, t.co, amzn.to,
 * lnkd.in, dlvr.it, instagr.am, ift.tt …). Any case. */
static bool is_link_tld(const uint8_t *p, size_t len)
{
    static const char *const tlds[] = {
        "com", "net", "org", "edu", "gov", "info", "biz",
        "ly", "be", "gl", "me", "co", "io", "tv", "fm", "am", "to", "in", "it", "gd", "mp", "tt",
        "us", "uk", "ca", "au", "de", "fr", "es", "nl", "eu", "jp", "ru",
    };
    return tld_in(tlds, sizeof tlds / sizeof tlds[0], p, len);
}

/* Whether a host that starts at `start`, whose last label is [label, end) and
 * the label before it [prev, label - 1), is a link with no '/' after it: the
 * last label one of com net org edu gov io tv ly, or "uk" after "co" with a
 * name before it ("bbc.co.uk"; "co.uk" alone names no site). Fewer than
 * is_link_tld's: "be", "in", "to", "me", "am", "it", "us" … also end English
 * words run together at a dot ("will.be", "log.in", "go.to"). Any case. */
static bool is_bare_link_tld(const uint8_t *src, size_t start, size_t prev, size_t label, size_t end)
{
    static const char *const tlds[] = { "com", "net", "org", "edu", "gov", "io", "tv", "ly" };
    static const char *const co[] = { "co" };
    if (tld_in(tlds, sizeof tlds / sizeof tlds[0], src + label, end - label)) return true;
    return end - label == 2 && (src[label] | 0x20) == 'u' && (src[label + 1] | 0x20) == 'k' && prev > start &&
           tld_in(co, 1, src + prev, label - 1 - prev);
}

/* A URL written without a scheme at the word that starts at `i`, or 0: a host
 * of ASCII letters, digits and hyphens in two or more dot-separated labels,
 * the last a known top-level domain (is_link_tld), then a '/' right away:
 * "bit.ly/abc", "pic.twitter.com/x"; or, with no '/', a host whose top-level
 * domain is in the shorter list of is_bare_link_tld, not right after an '@'
 * or another label (an e-mail address's: "info@bbc.co.uk" holds no link,
 * nor does its "co.uk") nor followed by a word character: "NFL.com",
 * "bbc.co.uk", up to the host ("NFL.com," "NFL.com." end before the
 * punctuation), or a possessive "'s" after it ("NFL.com's"). Not "e.g.", "U.S.", "hello.world", "file.txt" nor "log.in";
 * "www." links are url's. */
static size_t bare_url(ctk_scanner *s, size_t i)
{
    if (ctk__after_word(s, i)) return 0;
    const uint8_t *src = s->src;
    size_t n = s->n, j = i, label, prev = i;
    /* A host name has at most 253 characters: a longer run of labels is none,
     * and stopping there keeps its words ("a-a-a-…", "a.a.a.…"), each of which
     * asks again, from taking quadratic time. */
    size_t end = n - i > 253 ? i + 253 : n;
    bool dotted = false;
    for (;;) {
        label = j;
        while (j < end && ((ctk__ascii[src[j]] & CTK_A_ALNUM) || src[j] == '-')) j++;
        if (j == label || src[label] == '-' || src[j - 1] == '-') return 0;
        /* A '.' with no label after it ends the host: "NFL.com." ends a sentence. */
        if (j + 1 >= end || src[j] != '.' || !(ctk__ascii[src[j + 1]] & CTK_A_ALNUM)) break;
        dotted = true;
        prev = label;
        j++;
    }
    if (!dotted || !is_link_tld(src + label, j - label)) return 0;
    if (j < n && src[j] == '/') return url_rest(s, i, j);
    /* Not the rest of a host refused already: "me@gmail.com", "x@bbc.co.uk". */
    if (i > 0 && (src[i - 1] == '@' || (src[i - 1] == '.' && i > 1 && (ctk__ascii[src[i - 2]] & CTK_A_ALNUM))))
        return 0;
    size_t len;
    if ((j == end && end < n) || !is_bare_link_tld(src, i, prev, label, j) || ctk__is_word_char(ctk__peek(s, j, &len)) ||
        (j < n && src[j] == '_'))
        return 0;
    /* A possessive "'s" belongs to the link, as it would to a word ("NFL's")
     * and does to a link with a scheme: "NFL.com's", "NFL.com’s". */
    return emit_literal(s, CTK_URL, 0, i, possessive_end(s, j), "<url>", 5);
}

/* "@" or "＠" (`sign` bytes) + [A-Za-z0-9_]+, not right after a word character
 * (so not e-mail) other than the word "RT" ("RT@user" is a retweet's). */
static size_t mention(ctk_scanner *s, size_t i, size_t sign)
{
    /* After "RT" Twitter links a mention with no space, as twitter-text does. */
    if (ctk__after_word(s, i) && !word_ends_at(s, i, "rt")) return 0;
    size_t j = i + sign;
    while (j < s->n && s->src[j] < 0x80 &&
           ((ctk__ascii[s->src[j]] & CTK_A_ALNUM) || s->src[j] == '_'))
        j++;
    if (j == i + sign) return 0;
    /* "@user's tweet", "@user 's tweet": the possessive is the mention's, not a
     * word "s". */
    return emit_literal(s, CTK_USER, 0, i, tag_possessive_end(s, j), "<user>", 6);
}

/* ------------------------------------------------------------------------- */
/* Emoji, emoticons, punctuation                                             */
/* ------------------------------------------------------------------------- */

static size_t emoji(ctk_scanner *s, size_t start, size_t end)
{
    if (s->options & CTK_OPT_EMOJI_FACES) {
        const char *face = ctk__emoji_face(s, start, end);
        if (face) return emit_literal(s, CTK_EMOTICON, 0, start, end, face, strlen(face));
    }
    size_t t0 = s->text_length;
    ctk__emoji_write(s, start, end);
    emit(s, CTK_EMOJI, 0, start, end, t0);
    return end;
}

static size_t emoticon(ctk_scanner *s, size_t i)
{
    char text[CTK_EMOTICON_MAX];
    size_t len = 0;
    size_t end = ctk__emoticon_match(s, i, text, &len);
    if (!end) return 0;
    s->emoticon_end = end;
    return emit_literal(s, CTK_EMOTICON, 0, i, end, text, len);
}

/* The characters of a '!'/'?' run, or NULL. */
static const char *bang_chars(uint32_t cp)
{
    switch (cp) {
    case '!': case 0xFF01: return "!";
    case '?': case 0xFF1F: return "?";
    case 0x203C: return "!!";
    case 0x2047: return "??";
    case 0x2048: return "?!";
    case 0x2049: return "!?";
    default: return NULL;
    }
}

/* A run of ! and ?: one token keeping its first three characters, EMPHASIS
 * when it has two or more. */
static size_t bang_run(ctk_scanner *s, size_t i)
{
    char text[3];
    size_t kept = 0, total = 0, j = i;
    for (;;) {
        size_t len;
        uint32_t cp = ctk__peek(s, j, &len);
        const char *chars = bang_chars(cp);
        if (!chars) break;
        for (; *chars; chars++, total++)
            if (kept < 3) text[kept++] = *chars;
        j += len;
    }
    return emit_punct(s, i, j, true, total >= 2 ? CTK_FLAG_EMPHASIS : 0, text, kept);
}

/* A run of dots and "…": "..." when it is two dots or more, else ".". */
static size_t dots(ctk_scanner *s, size_t i)
{
    size_t count = 0, j = i;
    for (;;) {
        size_t len;
        uint32_t cp = ctk__peek(s, j, &len);
        if (cp == '.') count += 1;
        else if (cp == 0x2026) count += 3;
        else break;
        j += len;
    }
    return count == 1 ? emit_punct(s, i, j, true, 0, ".", 1)
                      : emit_punct(s, i, j, true, 0, "...", 3);
}

/* A character written as an entity ("&#8211;", "&nbsp;", "&#8217;",
 * "&hellip;", "&hearts;") that starts no token of another kind, read as the
 * character written plainly is: white space and default-ignorables are
 * skipped, an apostrophe is the punctuation "'" (as a typographic one is),
 * "…" a run of dots and "‼" one of '!' (with the characters, plain or
 * written so, that follow), an emoji by itself an emoji (or the emoticon it
 * draws: "&hearts;" is "<3" with CTK_OPT_EMOJI_FACES, as "♥" is), other
 * punctuation one token (clause punctuation ends the negation scope),
 * anything else a symbol, text as NFKC_Casefold writes it. */
static __attribute__((noinline)) size_t entity_single(ctk_scanner *s, size_t i, uint32_t cp, size_t len)
{
    unsigned k = ctk__uclass(cp);
    if (k & CTK_U_SKIP) return i + len;
    if (ctk__is_apostrophe(cp)) return emit_punct(s, i, i + len, false, 0, "'", 1);
    if (cp == 0x2026) return dots(s, i);
    if (bang_chars(cp)) return bang_run(s, i);
    if (ctk__is_emoji_alone(cp)) {
        const char *face = (s->options & CTK_OPT_EMOJI_FACES) ? ctk__emoji_face_of(cp) : NULL;
        if (face) return emit_literal(s, CTK_EMOTICON, 0, i, i + len, face, strlen(face));
        uint8_t buf[4];
        size_t t0 = s->text_length;
        ctk__put(s, buf, ctk__utf8_encode(cp, buf));
        emit(s, CTK_EMOJI, 0, i, i + len, t0);
        return i + len;
    }
    if (k & CTK_U_PUNCT) return emit_punct(s, i, i + len, ctk__is_clause_cp(cp), 0, NULL, 0);
    size_t t0 = s->text_length;
    ctk__fold_span(s, i, i + len, 0);
    emit(s, CTK_SYMBOL, 0, i, i + len, t0);
    return i + len;
}

/* One ASCII character (perhaps an entity) as punctuation or a symbol. */
static size_t ascii_single(ctk_scanner *s, size_t i)
{
    size_t len;
    uint32_t cp = ctk__peek(s, i, &len);
    /* The named entities of ASCII punctuation and symbols ("&amp;", "&lt;")
     * are read below, as their characters are; references to others here. */
    if (CTK_UNLIKELY(cp >= 0x80 || (len > 1 && (ctk__uclass(cp) & CTK_U_SKIP))))
        return entity_single(s, i, cp, len);
    char c = (char)cp;
    if (ctk__ascii[cp] & CTK_A_PUNCT)
        return emit_punct(s, i, i + len, ctk__is_clause_cp(cp), 0, &c, 1);
    return emit_literal(s, CTK_SYMBOL, 0, i, i + len, &c, 1);
}

static size_t ascii_other(ctk_scanner *s, size_t i, uint8_t b)
{
    size_t end;
    switch (b) {
    case '#':
        if ((end = ctk__keycap_scan(s, i))) return emoji(s, i, end);
        if ((end = hashtag(s, i, 1))) return end;
        break;
    case '*':
        if ((end = ctk__keycap_scan(s, i))) return emoji(s, i, end);
        break;
    case '@':
        if ((end = mention(s, i, 1))) return end;
        break;
    case '!': case '?':
        return bang_run(s, i);
    case '.':
        return dots(s, i);
    case ':': case ';': case '=': case '<': case '>': case '^': case '-': case '\\':
        if ((end = emoticon(s, i))) return end;
        break;
    case '&':
        if (s->options & CTK_OPT_ENTITIES) {
            uint32_t cp;
            if (ctk__entity(s->src + i, s->n - i, &cp)) {
                if ((cp == '<' || cp == '>') && (end = emoticon(s, i))) return end;
                /* A letter so written starts a word: "&#201;t&#233;" is "été". */
                if (alpha_at(s, i)) return word(s, i);
            }
        }
        break;
    default:
        break;
    }
    return ascii_single(s, i);
}

CTK_INLINE size_t ascii_letter(ctk_scanner *s, size_t i, uint8_t b)
{
    /* Cheap tests of the next byte keep ordinary words off the slow paths. */
    uint8_t l = (uint8_t)(b | 0x20);
    uint8_t next = i + 1 < s->n ? s->src[i + 1] : 0;
    /* The pairs the switch below acts on, tested without branches first: a
     * switch on the first letter is an indirect jump that varies from word to
     * word, and mispredicts about as often. */
    unsigned n2 = (unsigned)(next | 0x20);
    unsigned maybe = ((l == 'h') & (n2 == 't')) | ((l == 'w') & (n2 == 'w')) |
                     ((l == 'x') & ((next == 'D') | (next == 'P'))) |
                     (((l == 't') | (l == 'o')) & ((next == '_') | (next == '.') | (next == '-')));
    if (CTK_LIKELY(!maybe)) return word_body(s, i);
    size_t end;
    switch (l) {
    case 'h':
        if ((next | 0x20) == 't' && (end = url(s, i))) return end;
        break;
    case 'w':
        if ((next | 0x20) == 'w' && (end = url(s, i))) return end;
        break;
    case 'x':
        if ((next == 'D' || next == 'P') && (end = emoticon(s, i))) return end;
        break;
    case 't':
    case 'o':
        if ((next == '_' || next == '.' || next == '-') && (end = emoticon(s, i))) return end;
        break;
    default:
        break;
    }
    return word(s, i);
}

static size_t non_ascii(ctk_scanner *s, size_t i)
{
    uint32_t cp;
    bool invalid;
    size_t len = ctk__utf8_decode(s->src + i, s->n - i, &cp, &invalid);
    if (invalid) {
        s->stats->invalid_sequences++;
        return emit_literal(s, CTK_SYMBOL, CTK_FLAG_INVALID, i, i + len, "\xEF\xBF\xBD", 3);
    }
    if (ctk__is_apostrophe(cp)) return emit_punct(s, i, i + len, false, 0, "'", 1);
    if (cp == 0x2026) return dots(s, i);

    /* The full-width signs start hashtags and mentions as on Twitter: "＃tag", "＠user". */
    size_t end;
    if (cp == 0xFF03 && (end = hashtag(s, i, len))) return end;
    if (cp == 0xFF20 && (end = mention(s, i, len))) return end;

    end = ctk__emoji_scan(s, i, cp, len);
    if (end) {
        /* "‼️" and "⁉️" are emoji (U+FE0F asks for one), and still end the
         * clause as "‼" and "⁉" do: the scope closes before the token. */
        if (ctk__is_clause_cp(cp)) s->in_negation = false;
        return emoji(s, i, end);
    }
    if (bang_chars(cp)) return bang_run(s, i);

    unsigned k = ctk__uclass(cp);
    if (k & CTK_U_SKIP) return i + len;
    if (k & CTK_U_ALPHA) return word(s, i);
    if (k & CTK_U_DIGIT) return number(s, i);
    if (k & CTK_U_PUNCT) return emit_punct(s, i, i + len, ctk__is_clause_cp(cp), 0, NULL, 0);

    size_t t0 = s->text_length;
    ctk__fold_span(s, i, i + len, 0);
    emit(s, CTK_SYMBOL, 0, i, i + len, t0);
    return i + len;
}

/* ------------------------------------------------------------------------- */
/* The pass                                                                  */
/* ------------------------------------------------------------------------- */

static void run(ctk_scanner *s)
{
    const uint8_t *src = s->src;
    size_t n = s->n, i = 0;
    while (i < n) {
        uint8_t b = src[i];
        if (CTK_LIKELY(b < 0x80)) {
            uint8_t a = ctk__ascii[b];
            if (a & CTK_A_SPACE) {
                i++;
            } else if (a & CTK_A_ALPHA) {
                i = ascii_letter(s, i, b);
            } else if (a & CTK_A_DIGIT) {
                size_t end = ctk__keycap_scan(s, i);
                i = end ? emoji(s, i, end) : number(s, i);
            } else {
                i = ascii_other(s, i, b);
            }
        } else {
            i = non_ascii(s, i);
            if (CTK_UNLIKELY(s->error)) return;
        }
    }
}

int ctk_tokenize(const void *bytes, size_t count, uint32_t options, uint64_t seed,
                 ctk_token *tokens, size_t token_capacity, char *text, size_t text_capacity,
                 ctk_stats *stats)
{
    if (!stats) return CTK_ERROR_INVALID;
    memset(stats, 0, sizeof *stats);
    if ((!bytes && count) || (!tokens && token_capacity) || (!text && text_capacity))
        return CTK_ERROR_INVALID;
    if ((uint64_t)count > UINT32_MAX) return CTK_ERROR_TOOLARGE;

    ctk_scanner s;
    memset(&s, 0, sizeof s);
    s.src = (const uint8_t *)bytes;
    s.n = count;
    s.options = options;
    s.hash_state = ctk__hash_state(seed);
    s.tokens = tokens;
    s.token_capacity = token_capacity;
    s.text = text;
    s.text_capacity = text_capacity;
    s.el_last = CTK_EOF;
    s.stats = stats;

    run(&s);

    stats->token_count = s.token_count;
    stats->text_length = s.text_length;
    if (s.error) return s.error;
    if ((uint64_t)s.text_length > UINT32_MAX) return CTK_ERROR_TOOLARGE;
    if (s.token_count > token_capacity || s.text_full) return CTK_ERROR_NOSPACE;
    return CTK_OK;
}
