/*
 * internal.h — what the CTokenizer source files share. Not installed, not
 * seen by Swift: only the `.c` files of this target include it.
 *
 * Naming: internal functions and tables start with `ctk__` (two underscores)
 * so they never collide with the public `ctk_` names. ICU headers are not
 * included here on purpose; the files that call ICU include them themselves
 * (see ctk.h on Debian's versioned symbol names).
 *
 * Ownership: nothing in this target allocates. The scanner lives on the stack
 * of `ctk_tokenize`; it borrows the caller's input, token array and text
 * buffer for the length of one call.
 */
#ifndef CTK_INTERNAL_H
#define CTK_INTERNAL_H

#include "ctk.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#if defined(__GNUC__) || defined(__clang__)
#define CTK_LIKELY(x)   __builtin_expect(!!(x), 1)
#define CTK_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define CTK_INLINE      static inline __attribute__((always_inline))
#else
#define CTK_LIKELY(x)   (x)
#define CTK_UNLIKELY(x) (x)
#define CTK_INLINE      static inline
#endif

/** What `ctk__peek` returns at the end of the input. */
#define CTK_EOF         0xFFFFFFFFu
#define CTK_REPLACEMENT 0xFFFDu

/* ------------------------------------------------------------------------- */
/* Character classes (chars.c)                                               */
/* ------------------------------------------------------------------------- */

/** Classes of ASCII bytes, a bit set per byte in `ctk__ascii`. */
enum {
    CTK_A_SPACE  = 1u << 0, /* whitespace and control characters: skipped */
    CTK_A_UPPER  = 1u << 1,
    CTK_A_LOWER  = 1u << 2,
    CTK_A_DIGIT  = 1u << 3,
    CTK_A_PUNCT  = 1u << 4, /* Unicode general category P* */
    CTK_A_SYMBOL = 1u << 5, /* Unicode general category S* ($ + < = > ^ ` | ~) */
};
#define CTK_A_ALPHA (CTK_A_UPPER | CTK_A_LOWER)
#define CTK_A_ALNUM (CTK_A_ALPHA | CTK_A_DIGIT)

/** The class of each ASCII byte (0x00–0x7F); 0 for bytes 0x80–0xFF. Immutable. */
extern const uint8_t ctk__ascii[256];

/** Classes of non-ASCII code points, from ICU properties (`ctk__uclass`). */
enum {
    CTK_U_SKIP   = 1u << 0, /* White_Space, Default_Ignorable_Code_Point, Cc */
    CTK_U_ALPHA  = 1u << 1, /* Alphabetic: starts and continues words */
    CTK_U_MARK   = 1u << 2, /* Mn, Mc, Me: continues words */
    CTK_U_DIGIT  = 1u << 3, /* Nd */
    CTK_U_LETTER = 1u << 4, /* L*: counted in the stats */
    CTK_U_UPPER  = 1u << 5, /* Uppercase */
    CTK_U_LATIN  = 1u << 6, /* a letter in the Latin script */
    CTK_U_PUNCT  = 1u << 7, /* P* */
};
#define CTK_U_WORD (CTK_U_ALPHA | CTK_U_MARK | CTK_U_DIGIT)

/** The CTK_U_… classes of a code point (any; ASCII answered from the table). */
unsigned ctk__uclass(uint32_t cp);

/** Whether a code point continues a word: ASCII alnum, Alphabetic, marks, Nd. */
bool ctk__is_word_char(uint32_t cp);

/** Whether the character that ends at `src[i]` (exclusive; the byte before it
 *  is ≥ 0x80) is a word character; false when its bytes are invalid. */
bool ctk__word_char_ends_at(const uint8_t *src, size_t i);

/** Apostrophes read as '\'' inside words: ' ‘ ’ ʼ, and the full-width ＇
 *  (which NFKC_Casefold makes '\'' anyway: "don＇t" is "don't"). */
CTK_INLINE bool ctk__is_apostrophe(uint32_t cp)
{
    return cp == '\'' || cp == 0x2019 || cp == 0x2018 || cp == 0x02BC || cp == 0xFF07;
}

/* ------------------------------------------------------------------------- */
/* UTF-8 (utf8.c) and HTML entities (entities.c)                             */
/* ------------------------------------------------------------------------- */

/**
 * Decodes one character from `s` (`n` ≥ 1 bytes available). Returns the number
 * of bytes consumed (≥ 1, ≤ n). An ill-formed sequence reads as U+FFFD with
 * `*invalid` set; its length is the maximal subpart (Unicode's recommended
 * practice), so a truncated sequence is one U+FFFD and a bad byte is another.
 */
size_t ctk__utf8_decode(const uint8_t *s, size_t n, uint32_t *cp, bool *invalid);

/** Encodes a scalar value into `out`; returns 1–4. */
size_t ctk__utf8_encode(uint32_t cp, uint8_t out[4]);

/** The longest name of a named reference entities.c decodes ("hellip"). */
#define CTK_ENTITY_NAME_MAX 6

/** At `p[0] == '&'`: the length of a recognized entity (a named reference of
 *  entities.c's table, &amp; &eacute; &hellip; &euro; …, or a numeric one,
 *  &#NNN; &#xHH;) and its character (any Unicode scalar value but U+0000),
 *  or 0. */
size_t ctk__entity(const uint8_t *p, size_t n, uint32_t *cp);

/* ------------------------------------------------------------------------- */
/* The scanner (tokenize.c) and its helpers                                  */
/* ------------------------------------------------------------------------- */

typedef struct ctk_scanner {
    const uint8_t *src;      /* the input (borrowed) */
    size_t n;                /* its length */
    uint32_t options;        /* CTK_OPT_… */
    uint64_t hash_state;     /* ctk__hash_state(seed) */

    ctk_token *tokens;       /* caller's array (borrowed) */
    size_t token_capacity;
    size_t token_count;      /* tokens produced, written or not */

    char *text;              /* caller's text buffer (borrowed) */
    size_t text_capacity;
    size_t text_length;      /* bytes produced, written or not */
    bool text_full;          /* a write did not fit: count from now on, write nothing */

    bool in_negation;        /* inside a negation scope */
    size_t emoticon_end;     /* where the last emoticon token ends (the "3" before
                                the second heart of "<3<3" is not a number's) */

    /* Elongation filter over the code points of the token being written. */
    bool el_on;              /* shorten runs of 3+ letters to 2 */
    bool el_hit;             /* a letter was dropped */
    uint32_t el_last;        /* the last letter written, or CTK_EOF */
    uint32_t el_run;         /* how many times in a row */

    const void *normalizer;  /* ICU's NFKC_Casefold instance, fetched lazily */
    int error;               /* a CTK_ERROR_… met on the way (ICU), or 0 */
    ctk_stats *stats;
} ctk_scanner;

/** Reads the character at `i` (< s->n), decoding the HTML entities when
 *  CTK_OPT_ENTITIES is set. Returns its length in bytes. */
CTK_INLINE size_t ctk__read(const ctk_scanner *s, size_t i, uint32_t *cp, bool *invalid)
{
    uint8_t b = s->src[i];
    *invalid = false;
    if (CTK_LIKELY(b < 0x80)) {
        if (b == '&' && (s->options & CTK_OPT_ENTITIES)) {
            size_t len = ctk__entity(s->src + i, s->n - i, cp);
            if (len) return len;
        }
        *cp = b;
        return 1;
    }
    return ctk__utf8_decode(s->src + i, s->n - i, cp, invalid);
}

/** The character at `i` (U+FFFD when invalid) and its length in `*len`, or
 *  CTK_EOF (with `*len` 0) at or past the end. */
CTK_INLINE uint32_t ctk__peek(const ctk_scanner *s, size_t i, size_t *len)
{
    if (i >= s->n) {
        *len = 0;
        return CTK_EOF;
    }
    uint32_t cp;
    bool invalid;
    *len = ctk__read(s, i, &cp, &invalid);
    return cp;
}

/** Whether a numeric character reference of a word character ends right
 *  before `i` ("caf&#233;", the ';' at `i` − 1), with CTK_OPT_ENTITIES. */
bool ctk__entity_word_ends_at(const ctk_scanner *s, size_t i);

/** Whether the character before `i` is a word character or '_': mentions,
 *  hashtags, URLs and the emoticons that could be part of a word do not start
 *  right after one (so "me@x.com", "josé@x.com", "café#x" and "caf&#233;#x"
 *  hold no mention or hashtag). An entity before `i` ends in ';', which is
 *  read back to its '&' only then. */
CTK_INLINE bool ctk__after_word(const ctk_scanner *s, size_t i)
{
    if (i == 0) return false;
    uint8_t b = s->src[i - 1];
    if (CTK_LIKELY(b < 0x80)) {
        if (CTK_UNLIKELY(b == ';')) return ctk__entity_word_ends_at(s, i);
        return (ctk__ascii[b] & CTK_A_ALNUM) || b == '_';
    }
    return ctk__word_char_ends_at(s->src, i);
}

/* --- writing normalized text ---------------------------------------------- */

/** Appends bytes to the text buffer, or only counts them once it is full. */
CTK_INLINE void ctk__put(ctk_scanner *s, const void *p, size_t k)
{
    if (!s->text_full && k <= s->text_capacity - s->text_length)
        memcpy(s->text + s->text_length, p, k);
    else
        s->text_full = true;
    s->text_length += k;
}

CTK_INLINE void ctk__put_byte(ctk_scanner *s, uint8_t b)
{
    if (!s->text_full && s->text_length < s->text_capacity)
        s->text[s->text_length] = (char)b;
    else
        s->text_full = true;
    s->text_length += 1;
}

/** Starts the elongation filter for a token (`on`: CTK_OPT_ELONGATION applies). */
CTK_INLINE void ctk__elong_begin(ctk_scanner *s, bool on)
{
    s->el_on = on;
    s->el_hit = false;
    s->el_last = CTK_EOF;
    s->el_run = 0;
}

/** Whether the filter keeps this code point (`letter`: it is a letter). */
CTK_INLINE bool ctk__elong_keep(ctk_scanner *s, uint32_t cp, bool letter)
{
    if (!s->el_on) return true;
    if (letter && cp == s->el_last) {
        if (++s->el_run >= 3) {
            s->el_hit = true;
            return false;
        }
        return true;
    }
    s->el_last = letter ? cp : CTK_EOF;
    s->el_run = 1;
    return true;
}

/** Appends a code point as UTF-8 through the elongation filter. */
CTK_INLINE void ctk__put_cp(ctk_scanner *s, uint32_t cp, bool letter)
{
    if (!ctk__elong_keep(s, cp, letter)) return;
    if (cp < 0x80) {
        ctk__put_byte(s, (uint8_t)cp);
    } else {
        uint8_t buf[4];
        ctk__put(s, buf, ctk__utf8_encode(cp, buf));
    }
}

/* --- normalize.c ---------------------------------------------------------- */

/** How `ctk__fold_span` reads its span. */
enum {
    CTK_FOLD_APOSTROPHES = 1u << 0, /* ‘ ’ ʼ ＇ become '\'' */
};

/**
 * Writes the NFKC_Casefold of the characters in [start, end) of the input
 * (read with `ctk__read`, so entities are decoded) through the elongation
 * filter. Counts invalid sequences in stats. Uses only stack scratch: long
 * spans are normalized in chunks split where ICU reports a normalization
 * boundary. Sets s->error on an ICU failure.
 */
void ctk__fold_span(ctk_scanner *s, size_t start, size_t end, unsigned mode);

/* --- emoji.c -------------------------------------------------------------- */

/** At a non-ASCII code point `cp` of `len` bytes at `i`: the end of the emoji
 *  grapheme cluster starting there, or 0 when it is not an emoji. */
size_t ctk__emoji_scan(const ctk_scanner *s, size_t i, uint32_t cp, size_t len);

/** Whether a code point alone, with nothing after it, is an emoji cluster
 *  by ctk__emoji_scan's rule (a character written as a reference, "&hearts;",
 *  "&#128512;", is read so). */
bool ctk__is_emoji_alone(uint32_t cp);

/** Whether a code point is Extended_Pictographic (an emoji's base); false for
 *  CTK_EOF. */
bool ctk__is_pictographic(uint32_t cp);

/** At an ASCII byte '0'–'9', '#', '*' at `i`: the end of a keycap sequence
 *  (base, optional U+FE0F, U+20E3), or 0. */
size_t ctk__keycap_scan(const ctk_scanner *s, size_t i);

/* --- emoji_faces.c -------------------------------------------------------- */

/** The emoticon an emoji cluster [start, end) draws (":)", "<3", …), or NULL
 *  (CTK_OPT_EMOJI_FACES). */
const char *ctk__emoji_face(const ctk_scanner *s, size_t start, size_t end);

/** The emoticon a one-code-point emoji draws, or NULL: ctk__emoji_face of a
 *  character written as a reference ("&hearts;" is "<3"). */
const char *ctk__emoji_face_of(uint32_t cp);

/** Writes an emoji cluster's text: its code points minus U+FE0E, U+FE0F and
 *  skin-tone modifiers that follow another code point. */
void ctk__emoji_write(ctk_scanner *s, size_t start, size_t end);

/* --- emoticon.c ----------------------------------------------------------- */

/** The longest normalized emoticon text, in bytes. */
#define CTK_EMOTICON_MAX 8

/** Matches an emoticon at `i`: returns its end (0 when there is none) and its
 *  normalized text in `out` / `*out_len`. */
size_t ctk__emoticon_match(const ctk_scanner *s, size_t i, char out[CTK_EMOTICON_MAX],
                           size_t *out_len);

/* --- hash.c ---------------------------------------------------------------- */

/** ctk_hash64 in two steps, so that one call mixes its seed once for all its
 *  tokens: ctk_hash64(p, n, seed) == ctk__hash_with_state(p, n, ctk__hash_state(seed)). */
uint64_t ctk__hash_state(uint64_t seed);
uint64_t ctk__hash_with_state(const void *bytes, size_t count, uint64_t state);

/* --- negation.c ----------------------------------------------------------- */

/** Whether a normalized word is a negation cue. */
bool ctk__is_negator(const char *text, size_t len);
/** Whether an elongated word, each run already cut to two letters, is a cue a
 *  tweet stretched ("nooot", "nevvver", "cannooot"); a stretched "no" is not. */
bool ctk__is_stretched_negator(const char *text, size_t len);

/** Whether a punctuation character ends a clause (and a negation scope):
 *  . , ; : ! ? … and their full-width, small, vertical, CJK and Arabic forms
 *  (every character whose NFKC_Casefold is clause punctuation). */
bool ctk__is_clause_cp(uint32_t cp);

#endif /* CTK_INTERNAL_H */
