/*
 * ctk.h — the CTokenizer public interface: a tweet-aware tokenizer with English
 * normalization, written in C over ICU4C.
 *
 * Every symbol starts with `ctk_` (functions, types) or `CTK_` (constants).
 * ICU headers stay out of this file on purpose: Debian renames ICU's symbols by
 * version (`unorm2_normalize_72`) through header macros that Swift cannot see,
 * so only the `.c` files talk to ICU.
 *
 * Memory: the tokenizer never allocates per token. The caller owns the token
 * array and the text buffer; a call that does not fit returns CTK_ERROR_NOSPACE
 * and reports the sizes it needs, so the caller can grow its buffers and call
 * again. There is no global mutable state: any number of threads may call
 * `ctk_tokenize` at once, each with its own buffers.
 */
#ifndef CTK_H
#define CTK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------- */
/* Token kinds                                                               */
/* ------------------------------------------------------------------------- */

/** What a token is. The normalized text each kind carries is given here. */
typedef enum ctk_kind {
    /** A word, case-folded (NFKC_Casefold for non-ASCII), apostrophes kept:
     *  "Don't" → "don't", "I’m" → "i'm" (typographic apostrophes become '\''),
     *  and a clitic written apart after a word ("it 's", "Sam Smith 's", "I
     *  'm": "'s", "'re", "'ll", "'ve", "'m", "'d") is part of it, text and
     *  token ("it's", "smith's", "i'm"); letter runs of 3+ shortened to 2
     *  ("soooo" → "soo", CTK_FLAG_ELONGATED); the slash abbreviations "w/"
     *  (before white space, punctuation, a "u" or a word of two or more
     *  characters), "w/o", "w/out", "b/c", "w/e", "w/end", "w/b", "b/w",
     *  "s/o" and "and/or" are words ("W/O" → "w/o"), where "his/her" or "1/2"
     *  are two tokens and a '/'. */
    CTK_WORD = 1,
    /** Digits with inner separators: "3", "1,000", "3.14", "10:30"; a
     *  possessive "'s" after them is part of the token, not of its text
     *  ("Channel 5's", "2013’s": "5", "2013"). Two or more digits that end in
     *  0, with an "'s" after them, are the plural of a decade or a round
     *  number and a CTK_WORD, as when written without the apostrophe: "the
     *  90's", "1970’s", "100's" → "90s", "1970s", "100s". */
    CTK_NUMBER = 2,
    /** A URL (http://…, https://…, www.…, a host ending in a common
     *  top-level domain followed by '/': "bit.ly/…", "pic.twitter.com/…", or
     *  a bare host ending in .com .net .org .edu .gov .io .tv .ly or .co.uk:
     *  "NFL.com", with its possessive "'s": "NFL.com's"): text is "<url>". */
    CTK_URL = 3,
    /** An @mention (or ＠mention, the full-width sign), with its possessive
     *  "'s", also after spaces, as a client that completes the mention writes
     *  it ("@user's", "@user 's"): text is "<user>". */
    CTK_USER = 4,
    /** A #hashtag (or ＃hashtag, the full-width sign): text is the tag word,
     *  folded, without the '#' ("#NotCool" → "notcool"), nor the possessive
     *  "'s" the token takes, also after spaces ("#Yankees's", "#Yankees 's" →
     *  "yankees"). */
    CTK_HASHTAG = 5,
    /** One emoji grapheme cluster (ZWJ sequences, flags, keycaps kept whole,
     *  also after digits or letters: "10️⃣" is the number 1 and the emoji 0⃣);
     *  text drops U+FE0F and skin-tone modifiers ("❤️" → "❤", "👍🏽" → "👍"). */
    CTK_EMOJI = 6,
    /** An ASCII emoticon: ":)", ":-(", ":D", "<3", ";)", ":'(", "xD", ":P" …;
     *  text drops the nose ("-") and folds case only where it does not change
     *  meaning (":-D" → ":D", "XD" → "xd"). */
    CTK_EMOTICON = 7,
    /** Punctuation: a run of '!' and '?' is one token whose text keeps at most
     *  three characters ("!!!!!" → "!!!", CTK_FLAG_EMPHASIS when 2 or more);
     *  "..." (or "…") is one token "..."; any other punctuation is one token
     *  per character. */
    CTK_PUNCT = 8,
    /** Any other symbol that is not a letter, digit, emoji or punctuation. */
    CTK_SYMBOL = 9
} ctk_kind;

/* ------------------------------------------------------------------------- */
/* Token flags (bit set)                                                     */
/* ------------------------------------------------------------------------- */

/** The token lies in a negation scope: after a negation cue ("not", "no",
 *  "never", "n't" words, "cannot", "nothing", "dont", "w/o" …) up to the next clause
 *  punctuation (. , ; : ! ? and "…", in any form whose NFKC is one of them:
 *  "；" "﹒" "‥" …; also "‼️" and "⁉️", which are emoji tokens). The cue itself
 *  is not marked NEGATED. "No" before a '.' and a digit is the abbreviation of
 *  number, not a cue ("No.1 fan", "No. 1"), and the cues of the idioms "can't
 *  wait" ("cant", "cannot", "can not"), "no doubt", "nothing but" and "not
 *  only" negate nothing: no cue, no scope ("can't wait to go" is eager). */
#define CTK_FLAG_NEGATED   (1u << 0)
/** A letter was repeated 3+ times in the source and shortened ("soooo"). */
#define CTK_FLAG_ELONGATED (1u << 1)
/** The word was written in capitals (2+ letters, all upper case): "GREAT". */
#define CTK_FLAG_ALLCAPS   (1u << 2)
/** The token is a negation cue ("not", "never", "don't" …). */
#define CTK_FLAG_NEGATOR   (1u << 3)
/** A punctuation run of 2+ characters ("!!", "?!"). */
#define CTK_FLAG_EMPHASIS  (1u << 4)
/** The token is an invalid UTF-8 sequence, read as a U+FFFD symbol (which ends a word, as a valid U+FFFD does). */
#define CTK_FLAG_INVALID   (1u << 5)

/* ------------------------------------------------------------------------- */
/* Options (bit set) for ctk_tokenize                                        */
/* ------------------------------------------------------------------------- */

/** Mark negation scopes (CTK_FLAG_NEGATED, CTK_FLAG_NEGATOR). */
#define CTK_OPT_NEGATION    (1u << 0)
/** Shorten elongated letter runs to two letters. */
#define CTK_OPT_ELONGATION  (1u << 1)
/** Decode the HTML entities tweets are published with: &amp; &lt; &gt; &quot;
 *  &apos;, the named references of HTML 4's Latin-1 letters and symbols
 *  (&nbsp; &eacute; &ntilde; &pound; &copy; …), typographic punctuation
 *  (&hellip; &mdash; &rsquo; &ldquo; &bull; …) and a few more (&euro;
 *  &trade; &hearts; …; entities.c has the list), and the numeric references
 *  &#NNN; and &#xHH; (so "&lt;3" is the emoticon "<3", "don&#039;t" the word
 *  "don't", "&nbsp;" a space and "&#8211;" the punctuation "–"). An
 *  apostrophe so written joins a word, as "'" does, and a letter, digit or
 *  mark so written is part of the word, as the character would be
 *  ("caf&#233;" and "caf&eacute;" are the word "café"); any other character
 *  so written is read as the character by itself: "&hellip;" is "...", and
 *  "&hearts;" the emoji "♥" (or "<3" with CTK_OPT_EMOJI_FACES). */
#define CTK_OPT_ENTITIES    (1u << 2)
/** Leave punctuation tokens out of the output (they still end negation). */
#define CTK_OPT_DROP_PUNCT  (1u << 3)
/** Read a face or heart emoji as the emoticon it draws: "😂" is the emoticon
 *  ":D", "😢" is ":'(", "❤️" is "<3" (kind CTK_EMOTICON, that text). Models
 *  trained on tweets with emoticons but no emoji then score emoji too. Not in
 *  CTK_OPT_DEFAULT; the shipped model's settings turn it on. */
#define CTK_OPT_EMOJI_FACES (1u << 4)
/** The revision of CTK_OPT_EMOJI_FACES's table: raised whenever an emoji comes
 *  to read as another emoticon, since a model's predictions then change. A
 *  model's id includes it (revision 2: smiling faces with hearts read by their
 *  smile, "😍" as ":D", no longer as "<3"). EmojiFacesRevisionTests pins the
 *  table's readings to it, so a changed table fails until it is raised. */
#define CTK_EMOJI_FACES_REVISION 2
/** The revision of the tokenizer's readings: raised whenever a change makes
 *  any text read as other tokens, since the predictions of a model trained
 *  before then change. A model's id includes it above 1 (1: before it was
 *  counted; 2: a heart after a digit, ":3" before a dash and a digit, and a
 *  bare domain such as "NFL.com" read anew; 3: a bare "co.uk" as no link, a
 *  possessive "'s" as part of a bare link, a mention, a hashtag or a number
 *  ("NFL.com's", "@user's", "#Yankees's", "the 90's"), a keycap after a digit
 *  or a word ("10️⃣") as an emoji, a mention right after "RT" ("RT@user"),
 *  numeric character references and &nbsp; ("don&#039;t") decoded, and "No."
 *  before a digit ("No.1") as no negation cue; 4: a letter written as a
 *  numeric reference as part of its word ("caf&#233;"), a variation selector
 *  inside a word ignored, a possessive "'s" after a mention or a hashtag and
 *  a space ("@user 's") as part of it, "w/", "w/o", "w/out" and "b/c" as
 *  words, "w/o" and "w/out" as negation cues, "the 90's" as the word "90s",
 *  and the idioms "can't wait", "no doubt", "nothing but" and "not only" as
 *  no negation; 5: a clitic written apart after a word ("it 's", "Sam Smith
 *  's", "I 'm") as part of it, "w/e", "w/end", "w/b", "b/w", "s/o" and
 *  "and/or" as words and "w/u" as "w/" and "u", the named references of
 *  the HTML 4 Latin-1 letters and symbols, typographic punctuation and a few
 *  more decoded ("caf&eacute;", "&hellip;", "&hearts;"), and a character
 *  written as a reference read as the character by itself is: "&#8230;" a
 *  run of dots, "&#9829;" an emoji). */
#define CTK_TOKENIZER_REVISION 5
/** Everything above except CTK_OPT_DROP_PUNCT and CTK_OPT_EMOJI_FACES:
 *  CTK_OPT_NEGATION | CTK_OPT_ELONGATION | CTK_OPT_ENTITIES. Spelled as one
 *  literal because Swift imports only simple macros (tokenize.c checks it). */
#define CTK_OPT_DEFAULT 7u

/* ------------------------------------------------------------------------- */
/* Results                                                                   */
/* ------------------------------------------------------------------------- */

/** One token. 32 bytes. Offsets are byte offsets. */
typedef struct ctk_token {
    /** `ctk_hash64` of the normalized text (text_offset, text_length) with the
     *  seed given to `ctk_tokenize`. */
    uint64_t hash;
    /** Where the normalized text starts in the caller's text buffer. */
    uint32_t text_offset;
    /** Length in bytes of the normalized text (UTF-8, not NUL-terminated). */
    uint32_t text_length;
    /** Where the token starts in the input. */
    uint32_t source_offset;
    /** How many input bytes the token spans. */
    uint32_t source_length;
    /** A `ctk_kind`. */
    uint16_t kind;
    /** A set of CTK_FLAG_… bits. */
    uint16_t flags;
    uint32_t reserved;
} ctk_token;

/** What one call saw and needed. */
typedef struct ctk_stats {
    /** Tokens written; after CTK_ERROR_NOSPACE, tokens needed. */
    size_t token_count;
    /** Text bytes written; after CTK_ERROR_NOSPACE, bytes needed. */
    size_t text_length;
    /** Invalid UTF-8 sequences in the input (each read as U+FFFD). */
    size_t invalid_sequences;
    /** Letters in the Latin script (ASCII letters included), and letters of
     *  no script that stand for Latin ones (the "fancy font" mathematical
     *  alphanumerics, "𝐛𝐨𝐥𝐝"). Letters are counted in CTK_WORD and CTK_HASHTAG tokens only, so URLs and mentions
     *  do not count. */
    size_t latin_letters;
    /** Letters in any other script (Cyrillic, Arabic, Han, Hiragana …). */
    size_t other_letters;
} ctk_stats;

/* ------------------------------------------------------------------------- */
/* Error codes (negative) and their names                                    */
/* ------------------------------------------------------------------------- */

#define CTK_OK               0
/** The token array or the text buffer is too small: `stats` holds the sizes
 *  needed; nothing useful was written. Grow and call again. */
#define CTK_ERROR_NOSPACE   (-1)
/** The input is longer than 4 GiB − 1 bytes (offsets are 32-bit). */
#define CTK_ERROR_TOOLARGE  (-2)
/** A required pointer was NULL (input may be NULL only when count is 0;
 *  tokens and text only when their capacity is 0). */
#define CTK_ERROR_INVALID   (-3)
/** ICU failed to normalize (reported with the ICU status name by
 *  `ctk_errmsg`, which cannot say more; this should not happen). */
#define CTK_ERROR_ICU       (-4)

/** A static, human-readable message for a CTK_… result code. Never NULL. */
const char *ctk_errmsg(int code);

/* ------------------------------------------------------------------------- */
/* Functions                                                                 */
/* ------------------------------------------------------------------------- */

/**
 * Tokenizes `count` bytes of UTF-8 at `bytes` (any byte sequence is safe:
 * invalid UTF-8 is read as U+FFFD and counted in stats->invalid_sequences;
 * nothing is read outside [bytes, bytes + count)).
 *
 * ASCII-only input takes a fast path that never enters ICU; non-ASCII text is
 * normalized with ICU's NFKC_Casefold.
 *
 * @param bytes           the input; may be NULL only when count is 0.
 * @param count           its length in bytes.
 * @param options         CTK_OPT_… bits; CTK_OPT_DEFAULT is the usual choice.
 * @param seed            the seed of each token's `hash`.
 * @param tokens          caller-owned array of `token_capacity` tokens.
 * @param token_capacity  a safe size is `count + 1`.
 * @param text            caller-owned buffer for normalized text.
 * @param text_capacity   a safe first guess is `2 * count + 16`; NFKC can
 *                        expand rare characters further, which NOSPACE reports.
 * @param stats           filled on return (required).
 * @return CTK_OK, or a negative CTK_ERROR_… code.
 *
 * Calling with both capacities 0 (and NULL buffers) is a size query: it
 * returns CTK_ERROR_NOSPACE with the exact sizes in stats (or CTK_OK when
 * there are no tokens). Buffers of exactly those sizes then succeed.
 * Memory: the tokenizer itself never allocates; non-ASCII text is normalized
 * through fixed stack buffers (about 9 KiB) in chunks. ICU allocates once per
 * process, when a call first needs its normalization or emoji data (about
 * eight small blocks, kept for the life of the process); ASCII-only input
 * never reaches ICU.
 *
 * Thread-safety: reentrant; no global mutable state.
 */
int ctk_tokenize(const void *bytes, size_t count, uint32_t options, uint64_t seed,
                 ctk_token *tokens, size_t token_capacity,
                 char *text, size_t text_capacity, ctk_stats *stats);

/**
 * The 64-bit hash the tokenizer stores in `ctk_token.hash`: a fast,
 * well-mixed, platform-independent (little-endian reading) hash of `count`
 * bytes. Stable across versions: model files depend on it.
 */
uint64_t ctk_hash64(const void *bytes, size_t count, uint64_t seed);

/* ------------------------------------------------------------------------- */
/* Feature hashing                                                           */
/* ------------------------------------------------------------------------- */

/*
 * How the Sentiment module turns token hashes into feature numbers
 * (`FeatureHash`, which calls these). STABILITY: model files depend on every
 * constant and step; never change one.
 */
#define CTK_MIX_ADD 0x9E3779B97F4A7C15ull
#define CTK_MIX_MUL1 0xBF58476D1CE4E5B9ull
#define CTK_MIX_MUL2 0x94D049BB133111EBull
#define CTK_PAIR_MUL 0x9FB21C651E98DF25ull
#define CTK_NAMESPACE_MUL 0xD6E8FEB86659FD93ull

/** splitmix64's finalizer: a strong, cheap 64-bit mix. */
static inline uint64_t ctk_mix64(uint64_t z) {
    z += CTK_MIX_ADD;
    z = (z ^ (z >> 30)) * CTK_MIX_MUL1;
    z = (z ^ (z >> 27)) * CTK_MIX_MUL2;
    return z ^ (z >> 31);
}

/** An ordered pair of hashes (bigrams, and trigrams by chaining). */
static inline uint64_t ctk_pair64(uint64_t a, uint64_t b) {
    return ctk_mix64(a * CTK_PAIR_MUL ^ b);
}

/** A feature of the family `space` (a small number) from a hash. */
static inline uint64_t ctk_feature64(uint64_t space, uint64_t hash) {
    return ctk_mix64(hash ^ space * CTK_NAMESPACE_MUL);
}

/*
 * The scorer's token table (TokenTable.swift) finds a token's entry by a key
 * made from the token, and the entry's slot from the key.
 */
#define CTK_KEY_KIND_MUL 0xA0761D6478BD642Full
#define CTK_KEY_NEGATED_MUL 0xE7037ED1A0B428DBull
#define CTK_KEY_CONTRAST 0x8EBC6AF09C88C6E3ull

/**
 * A token's key in the scorer's token table: its hash with its kind, its
 * negation and whether it is in a contrast scope xor-ed in; never 0 (an
 * empty slot). The hash is already strong, so no second mix.
 */
static inline uint64_t ctk_token_key(uint64_t hash, uint16_t kind, uint16_t flags, bool contrast) {
    uint64_t key = hash ^ (uint64_t)kind * CTK_KEY_KIND_MUL ^
                   (uint64_t)(flags & CTK_FLAG_NEGATED) * CTK_KEY_NEGATED_MUL ^ (contrast ? CTK_KEY_CONTRAST : 0);
    return key ? key : 1;
}

/** The slot of `key` in a table of `capacity` (< 2^32) slots: its low 32 bits scaled. */
static inline size_t ctk_slot_index(uint64_t key, size_t capacity) {
    return (size_t)(((key & 0xFFFFFFFFull) * (uint64_t)capacity) >> 32);
}

/**
 * What the scorer's first pass needs of a tweet's `count` tokens, eight at a
 * time (AVX-512) on a processor that has it, checked at run time, one at a
 * time otherwise; the same numbers either way:
 * - keys[i] = ctk_token_key(token i, i ≥ contrast_from) and
 *   slots[i] = ctk_slot_index(keys[i], slot_count) for every token;
 * - unless `rows` is NULL, for 1 ≤ i < count, the weight-row offset of the
 *   feature of family `space` of the pair of tokens i − 1 and i (a bigram):
 *   rows[i] = 3 · (ctk_feature64(space, ctk_pair64(hash i − 1, hash i)) & mask);
 *   rows[0] is left alone. `mask` < 2^31.
 */
void ctk_token_keys(const ctk_token *tokens, size_t count, size_t contrast_from, size_t slot_count,
                    uint64_t space, uint64_t mask, uint64_t *keys, ptrdiff_t *slots, ptrdiff_t *rows);

/** `ctk_token_keys` one token at a time, on any processor (for tests). */
void ctk_token_keys_portable(const ctk_token *tokens, size_t count, size_t contrast_from, size_t slot_count,
                             uint64_t space, uint64_t mask, uint64_t *keys, ptrdiff_t *slots, ptrdiff_t *rows);

/** Whether `ctk_token_keys` takes eight tokens at a time on this processor. */
bool ctk_token_keys_vectorized(void);

/** A short name of a token kind ("word", "number", "url", "user", "hashtag",
 *  "emoji", "emoticon", "punct", "symbol"); "unknown" otherwise. Never NULL. */
const char *ctk_kind_name(int kind);

/**
 * Asks the CPU to start loading the cache line holding `address`, for reading.
 * The scorer issues one per weight row of a tweet before it sums them, so the
 * loads from the model's 6 MiB table overlap instead of waiting one by one.
 */
static inline void ctk_prefetch(const void *address) {
    __builtin_prefetch(address, 0, 3);
}

/*
 * A sequence lock over a slot of `words` 64-bit words, for the scorer's token
 * table, which workers of one process fill and read without locks (see
 * TokenTable.swift). The low 16 bits of word 0 are the slot's sequence: odd
 * while a writer holds the slot, and 2 more after each write. The other bits
 * of word 0, and the other words, are the slot's data.
 *
 * A reader keeps its copy only if word 0 was the same, with an even
 * sequence, before and after it: a write in between changed the sequence,
 * even one that left the same data (a key that came back to the slot while
 * the reader was preempted, which a test of a four-entry table met when the
 * key itself was the lock word). For the sequence to come back to the same
 * value, 32,768 writes of the slot must fall within one read.
 *
 * Every word is read and written with an atomic (relaxed) access, ordered by
 * fences, as in Boehm's "Can seqlocks get along with programming language
 * memory models?" (2012): with plain loads and stores instead, the compiler
 * may split, merge, widen or reorder them — a Swift struct assignment into a
 * slot was compiled to a 16-byte store of the entry's first bytes, key
 * included, before the rest of the entry, so a reader could see the new key
 * over the old entry and keep a torn one. On x86-64 the relaxed accesses are
 * plain moves and the fences emit no instruction; only the compiler is held
 * back. The compare-and-swap of a claim is one locked instruction.
 */

/** The bits of a slot's word 0 that hold its sequence. */
#define CTK_SEQLOCK_SEQUENCE ((uint64_t)0xFFFF)

/* Copies the slot into `out` if word 0 held an even sequence, and the same
 * value, before and after; with `key_word` nonzero, only if word `key_word`
 * holds `key` (tested before the rest is copied). */
static inline bool ctk__seqlock_read(const void *slot, size_t key_word, uint64_t key, void *out, size_t words) {
    const uint64_t *from = (const uint64_t *)slot;
    uint64_t *to = (uint64_t *)out;
    uint64_t first = __atomic_load_n(&from[0], __ATOMIC_ACQUIRE);
    if (first & 1) return false;
    if (key_word && __atomic_load_n(&from[key_word], __ATOMIC_RELAXED) != key) return false;
    for (size_t i = 1; i < words; i++) to[i] = __atomic_load_n(&from[i], __ATOMIC_RELAXED);
    /* The data's loads complete before word 0 is read again. */
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
    to[0] = first;
    return __atomic_load_n(&from[0], __ATOMIC_RELAXED) == first;
}

/**
 * Copies the `words` words at `slot` into `out` if word `key_word` (not 0)
 * holds `key` and no write of the slot overlapped the copy; true if so.
 * `out` may be partly written when it returns false.
 */
static inline bool ctk_seqlock_read_key(const void *slot, size_t key_word, uint64_t key, void *out, size_t words) {
    return ctk__seqlock_read(slot, key_word, key, out, words);
}

/** Word `word` of a slot, read once (relaxed), without the lock: a hint only. */
static inline uint64_t ctk_seqlock_peek(const void *slot, size_t word) {
    return __atomic_load_n(&((const uint64_t *)slot)[word], __ATOMIC_RELAXED);
}

/** Copies the slot, whatever it holds, as `ctk_seqlock_read_key` does. */
static inline bool ctk_seqlock_read(const void *slot, void *out, size_t words) {
    return ctk__seqlock_read(slot, 0, 0, out, words);
}

/**
 * Takes `slot` for writing: makes its sequence odd, unless it is odd already
 * (another writer holds the slot). True if it did; `*claimed` is then word 0
 * as it was, for `ctk_seqlock_publish`.
 */
static inline bool ctk_seqlock_claim(void *slot, uint64_t *claimed) {
    uint64_t *word = (uint64_t *)slot;
    uint64_t current = __atomic_load_n(word, __ATOMIC_ACQUIRE);
    if (current & 1) return false;
    if (!__atomic_compare_exchange_n(word, &current, current | 1, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
        return false;
    *claimed = current;
    return true;
}

/**
 * Writes the `words` words at `in` to a slot taken by `ctk_seqlock_claim`
 * (`claimed`: what it returned): words 1 on first, then word 0 — `in`'s data
 * bits with the next even sequence — last, which releases the slot.
 */
static inline void ctk_seqlock_publish(void *slot, uint64_t claimed, const void *in, size_t words) {
    uint64_t *to = (uint64_t *)slot;
    const uint64_t *from = (const uint64_t *)in;
    /* The claim is visible before any store of the data. */
    __atomic_thread_fence(__ATOMIC_RELEASE);
    for (size_t i = 1; i < words; i++) __atomic_store_n(&to[i], from[i], __ATOMIC_RELAXED);
    uint64_t first = (from[0] & ~CTK_SEQLOCK_SEQUENCE) | ((claimed + 2) & CTK_SEQLOCK_SEQUENCE);
    __atomic_store_n(&to[0], first, __ATOMIC_RELEASE);
}

#ifdef __cplusplus
}
#endif

#endif /* CTK_H */
