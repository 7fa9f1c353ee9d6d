/*
 * entities.c — the HTML character references tweets are published with
 * (CTK_OPT_ENTITIES): the named references of HTML 4 that a tweet dump
 * plausibly holds — &amp; &lt; &gt; &quot; &apos;, the Latin-1 set (&nbsp;
 * through &yuml;: letters such as &eacute; &ntilde; &uuml;, and &pound;
 * &copy; &reg; &deg; …), the typographic punctuation and spaces (&hellip;
 * &mdash; &ndash; &lsquo; &rsquo; &ldquo; &rdquo; &bull; &thinsp; …), the
 * letters of HTML 4's Latin Extended (&oelig; &scaron; …) and a few symbols
 * (&euro; &trade; &hearts; &rarr; …) — and the numeric character references,
 * &#NNN; and &#xHH; ("&#039;", "&#8211;", "&#x2019;"). Names are matched
 * exactly, in their case (&Eacute; is É, &eacute; é, &EACUTE; nothing), with
 * the semicolon; a numeric reference needs its semicolon, at most 8 digits
 * and a Unicode scalar value other than U+0000 (not a surrogate); anything
 * else stays literal.
 */
#include "internal.h"

typedef struct ctk_entity {
    char name[CTK_ENTITY_NAME_MAX + 1]; /* between '&' and ';' */
    uint32_t ch;
} ctk_entity;

/* Sorted by name, bytewise (upper case first): ctk__entity searches it by
 * halves. */
static const ctk_entity ctk_entities[] = {
    { "AElig", 0x00C6 },  /* latin capital letter ae */
    { "Aacute", 0x00C1 }, /* latin capital letter a with acute */
    { "Acirc", 0x00C2 },  /* latin capital letter a with circumflex */
    { "Agrave", 0x00C0 }, /* latin capital letter a with grave */
    { "Aring", 0x00C5 },  /* latin capital letter a with ring above */
    { "Atilde", 0x00C3 }, /* latin capital letter a with tilde */
    { "Auml", 0x00C4 },   /* latin capital letter a with diaeresis */
    { "Ccedil", 0x00C7 }, /* latin capital letter c with cedilla */
    { "Dagger", 0x2021 }, /* double dagger */
    { "ETH", 0x00D0 },    /* latin capital letter eth */
    { "Eacute", 0x00C9 }, /* latin capital letter e with acute */
    { "Ecirc", 0x00CA },  /* latin capital letter e with circumflex */
    { "Egrave", 0x00C8 }, /* latin capital letter e with grave */
    { "Euml", 0x00CB },   /* latin capital letter e with diaeresis */
    { "Iacute", 0x00CD }, /* latin capital letter i with acute */
    { "Icirc", 0x00CE },  /* latin capital letter i with circumflex */
    { "Igrave", 0x00CC }, /* latin capital letter i with grave */
    { "Iuml", 0x00CF },   /* latin capital letter i with diaeresis */
    { "Ntilde", 0x00D1 }, /* latin capital letter n with tilde */
    { "OElig", 0x0152 },  /* latin capital ligature oe */
    { "Oacute", 0x00D3 }, /* latin capital letter o with acute */
    { "Ocirc", 0x00D4 },  /* latin capital letter o with circumflex */
    { "Ograve", 0x00D2 }, /* latin capital letter o with grave */
    { "Oslash", 0x00D8 }, /* latin capital letter o with stroke */
    { "Otilde", 0x00D5 }, /* latin capital letter o with tilde */
    { "Ouml", 0x00D6 },   /* latin capital letter o with diaeresis */
    { "Prime", 0x2033 },  /* double prime */
    { "Scaron", 0x0160 }, /* latin capital letter s with caron */
    { "THORN", 0x00DE },  /* latin capital letter thorn */
    { "Uacute", 0x00DA }, /* latin capital letter u with acute */
    { "Ucirc", 0x00DB },  /* latin capital letter u with circumflex */
    { "Ugrave", 0x00D9 }, /* latin capital letter u with grave */
    { "Uuml", 0x00DC },   /* latin capital letter u with diaeresis */
    { "Yacute", 0x00DD }, /* latin capital letter y with acute */
    { "Yuml", 0x0178 },   /* latin capital letter y with diaeresis */
    { "aacute", 0x00E1 }, /* latin small letter a with acute */
    { "acirc", 0x00E2 },  /* latin small letter a with circumflex */
    { "acute", 0x00B4 },  /* acute accent */
    { "aelig", 0x00E6 },  /* latin small letter ae */
    { "agrave", 0x00E0 }, /* latin small letter a with grave */
    { "amp", 0x0026 },    /* ampersand */
    { "apos", 0x0027 },   /* apostrophe */
    { "aring", 0x00E5 },  /* latin small letter a with ring above */
    { "atilde", 0x00E3 }, /* latin small letter a with tilde */
    { "auml", 0x00E4 },   /* latin small letter a with diaeresis */
    { "bdquo", 0x201E },  /* double low-9 quotation mark */
    { "brvbar", 0x00A6 }, /* broken bar */
    { "bull", 0x2022 },   /* bullet */
    { "ccedil", 0x00E7 }, /* latin small letter c with cedilla */
    { "cedil", 0x00B8 },  /* cedilla */
    { "cent", 0x00A2 },   /* cent sign */
    { "circ", 0x02C6 },   /* modifier letter circumflex accent */
    { "clubs", 0x2663 },  /* black club suit */
    { "copy", 0x00A9 },   /* copyright sign */
    { "curren", 0x00A4 }, /* currency sign */
    { "dagger", 0x2020 }, /* dagger */
    { "darr", 0x2193 },   /* downwards arrow */
    { "deg", 0x00B0 },    /* degree sign */
    { "diams", 0x2666 },  /* black diamond suit */
    { "divide", 0x00F7 }, /* division sign */
    { "eacute", 0x00E9 }, /* latin small letter e with acute */
    { "ecirc", 0x00EA },  /* latin small letter e with circumflex */
    { "egrave", 0x00E8 }, /* latin small letter e with grave */
    { "emsp", 0x2003 },   /* em space */
    { "ensp", 0x2002 },   /* en space */
    { "eth", 0x00F0 },    /* latin small letter eth */
    { "euml", 0x00EB },   /* latin small letter e with diaeresis */
    { "euro", 0x20AC },   /* euro sign */
    { "fnof", 0x0192 },   /* latin small letter f with hook */
    { "frac12", 0x00BD }, /* vulgar fraction one half */
    { "frac14", 0x00BC }, /* vulgar fraction one quarter */
    { "frac34", 0x00BE }, /* vulgar fraction three quarters */
    { "gt", 0x003E },     /* greater-than sign */
    { "harr", 0x2194 },   /* left right arrow */
    { "hearts", 0x2665 }, /* black heart suit */
    { "hellip", 0x2026 }, /* horizontal ellipsis */
    { "iacute", 0x00ED }, /* latin small letter i with acute */
    { "icirc", 0x00EE },  /* latin small letter i with circumflex */
    { "iexcl", 0x00A1 },  /* inverted exclamation mark */
    { "igrave", 0x00EC }, /* latin small letter i with grave */
    { "iquest", 0x00BF }, /* inverted question mark */
    { "iuml", 0x00EF },   /* latin small letter i with diaeresis */
    { "laquo", 0x00AB },  /* left-pointing double angle quotation mark */
    { "larr", 0x2190 },   /* leftwards arrow */
    { "ldquo", 0x201C },  /* left double quotation mark */
    { "lsaquo", 0x2039 }, /* single left-pointing angle quotation mark */
    { "lsquo", 0x2018 },  /* left single quotation mark */
    { "lt", 0x003C },     /* less-than sign */
    { "macr", 0x00AF },   /* macron */
    { "mdash", 0x2014 },  /* em dash */
    { "micro", 0x00B5 },  /* micro sign */
    { "middot", 0x00B7 }, /* middle dot */
    { "nbsp", 0x00A0 },   /* no-break space */
    { "ndash", 0x2013 },  /* en dash */
    { "not", 0x00AC },    /* not sign */
    { "ntilde", 0x00F1 }, /* latin small letter n with tilde */
    { "oacute", 0x00F3 }, /* latin small letter o with acute */
    { "ocirc", 0x00F4 },  /* latin small letter o with circumflex */
    { "oelig", 0x0153 },  /* latin small ligature oe */
    { "ograve", 0x00F2 }, /* latin small letter o with grave */
    { "ordf", 0x00AA },   /* feminine ordinal indicator */
    { "ordm", 0x00BA },   /* masculine ordinal indicator */
    { "oslash", 0x00F8 }, /* latin small letter o with stroke */
    { "otilde", 0x00F5 }, /* latin small letter o with tilde */
    { "ouml", 0x00F6 },   /* latin small letter o with diaeresis */
    { "para", 0x00B6 },   /* pilcrow sign */
    { "permil", 0x2030 }, /* per mille sign */
    { "plusmn", 0x00B1 }, /* plus-minus sign */
    { "pound", 0x00A3 },  /* pound sign */
    { "prime", 0x2032 },  /* prime */
    { "quot", 0x0022 },   /* quotation mark */
    { "raquo", 0x00BB },  /* right-pointing double angle quotation mark */
    { "rarr", 0x2192 },   /* rightwards arrow */
    { "rdquo", 0x201D },  /* right double quotation mark */
    { "reg", 0x00AE },    /* registered sign */
    { "rsaquo", 0x203A }, /* single right-pointing angle quotation mark */
    { "rsquo", 0x2019 },  /* right single quotation mark */
    { "sbquo", 0x201A },  /* single low-9 quotation mark */
    { "scaron", 0x0161 }, /* latin small letter s with caron */
    { "sect", 0x00A7 },   /* section sign */
    { "shy", 0x00AD },    /* soft hyphen */
    { "spades", 0x2660 }, /* black spade suit */
    { "sup1", 0x00B9 },   /* superscript one */
    { "sup2", 0x00B2 },   /* superscript two */
    { "sup3", 0x00B3 },   /* superscript three */
    { "szlig", 0x00DF },  /* latin small letter sharp s */
    { "thinsp", 0x2009 }, /* thin space */
    { "thorn", 0x00FE },  /* latin small letter thorn */
    { "tilde", 0x02DC },  /* small tilde */
    { "times", 0x00D7 },  /* multiplication sign */
    { "trade", 0x2122 },  /* trade mark sign */
    { "uacute", 0x00FA }, /* latin small letter u with acute */
    { "uarr", 0x2191 },   /* upwards arrow */
    { "ucirc", 0x00FB },  /* latin small letter u with circumflex */
    { "ugrave", 0x00F9 }, /* latin small letter u with grave */
    { "uml", 0x00A8 },    /* diaeresis */
    { "uuml", 0x00FC },   /* latin small letter u with diaeresis */
    { "yacute", 0x00FD }, /* latin small letter y with acute */
    { "yen", 0x00A5 },    /* yen sign */
    { "yuml", 0x00FF },   /* latin small letter y with diaeresis */
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

/* The named reference at p (p[0] == '&'): its length, or 0. The name is the
 * ASCII letters and digits up to the ';', at most CTK_ENTITY_NAME_MAX. */
static size_t named_reference(const uint8_t *p, size_t n, uint32_t *cp)
{
    size_t len = 0;
    while (len < CTK_ENTITY_NAME_MAX && 1 + len < n && (ctk__ascii[p[1 + len]] & CTK_A_ALNUM)) len++;
    if (len == 0 || 1 + len >= n || p[1 + len] != ';') return 0;
    const char *name = (const char *)p + 1;
    size_t lo = 0, hi = sizeof ctk_entities / sizeof ctk_entities[0];
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const char *e = ctk_entities[mid].name;
        int c = strncmp(name, e, len);
        if (c == 0) c = e[len] == 0 ? 0 : -1; /* a shorter name sorts first */
        if (c == 0) {
            *cp = ctk_entities[mid].ch;
            return len + 2;
        }
        if (c < 0) hi = mid;
        else lo = mid + 1;
    }
    return 0;
}

size_t ctk__entity(const uint8_t *p, size_t n, uint32_t *cp)
{
    if (n < 4) return 0;
    if (p[1] == '#') return numeric_reference(p, n, cp);
    return named_reference(p, n, cp);
}

bool ctk__entity_word_ends_at(const ctk_scanner *s, size_t i)
{
    if (!(s->options & CTK_OPT_ENTITIES) || i < 4) return false;
    /* The longest reference, "&#x" and 8 digits and ';', is 12 bytes (a
     * name is shorter); none holds a '&' but its first, so the nearest '&'
     * is its start. */
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
