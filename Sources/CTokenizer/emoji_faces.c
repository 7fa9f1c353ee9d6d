/*
 * emoji_faces.c — emoji read as the emoticon they draw (CTK_OPT_EMOJI_FACES).
 *
 * Tweets with "😂" or "😢" mean what ":D" or ":'(" mean. A model learns the
 * weights of emoticons from older tweets that had no emoji; reading a face or
 * heart emoji as its emoticon lets those weights carry over. Only emoji with a
 * plain emoticon counterpart are listed — smiles, grins, winks, tongues,
 * frowns, tears, sweat and fear, anger, rolled eyes, surprise, a flat mouth,
 * hearts and a broken heart —
 * and only when the cluster is that one code point (plus a variation selector
 * or a skin tone): ZWJ sequences and flags stay emoji. The emoticon texts are
 * the canonical spellings emoticon.c writes.
 *
 * A smiling face with hearts (😍 😻 🥰) is read by its mouth, not its hearts:
 * a bare "<3" scores neutral under the shipped model (25 of the 121 training
 * tweets with one are labelled neutral, and its own weight leans neutral),
 * while ":D" (222 training tweets, 81% positive) and ":)" carry their smile,
 * so "😍😍😍" alone reads positive. Hearts without a face stay "<3".
 */
#include "internal.h"

typedef struct ctk_face {
    uint32_t cp;
    const char *text;
} ctk_face;

/* Sorted by code point (binary search). */
static const ctk_face faces[] = {
    { 0x2639, ":(" },   /* ☹ frowning face */
    { 0x263A, ":)" },   /* ☺ smiling face */
    { 0x2665, "<3" },   /* ♥ heart suit */
    { 0x2764, "<3" },   /* ❤ red heart */
    { 0x1F493, "<3" },  /* 💓 beating heart */
    { 0x1F494, "</3" }, /* 💔 broken heart */
    { 0x1F495, "<3" },  /* 💕 two hearts */
    { 0x1F496, "<3" },  /* 💖 sparkling heart */
    { 0x1F497, "<3" },  /* 💗 growing heart */
    { 0x1F498, "<3" },  /* 💘 heart with arrow */
    { 0x1F499, "<3" },  /* 💙 blue heart */
    { 0x1F49A, "<3" },  /* 💚 green heart */
    { 0x1F49B, "<3" },  /* 💛 yellow heart */
    { 0x1F49C, "<3" },  /* 💜 purple heart */
    { 0x1F49D, "<3" },  /* 💝 heart with ribbon */
    { 0x1F49E, "<3" },  /* 💞 revolving hearts */
    { 0x1F600, ":D" },  /* 😀 grinning face */
    { 0x1F601, ":D" },  /* 😁 beaming face */
    { 0x1F602, ":D" },  /* 😂 tears of joy */
    { 0x1F603, ":D" },  /* 😃 grinning, big eyes */
    { 0x1F604, ":D" },  /* 😄 grinning, smiling eyes */
    { 0x1F605, ":D" },  /* 😅 grinning with sweat */
    { 0x1F606, ":D" },  /* 😆 grinning squinting */
    { 0x1F607, ":)" },  /* 😇 halo */
    { 0x1F609, ";)" },  /* 😉 winking */
    { 0x1F60A, ":)" },  /* 😊 smiling eyes */
    { 0x1F60B, ":p" },  /* 😋 savoring food */
    { 0x1F60C, ":)" },  /* 😌 relieved */
    { 0x1F60D, ":D" },  /* 😍 heart eyes (a grin: see below) */
    { 0x1F60E, ":)" },  /* 😎 smiling face with sunglasses */
    { 0x1F610, ":|" },  /* 😐 neutral face */
    { 0x1F612, ":/" },  /* 😒 unamused */
    { 0x1F613, ":(" },  /* 😓 downcast face with sweat */
    { 0x1F614, ":(" },  /* 😔 pensive */
    { 0x1F615, ":/" },  /* 😕 confused */
    { 0x1F616, ":(" },  /* 😖 confounded */
    { 0x1F617, "<3" },  /* 😗 kissing */
    { 0x1F618, "<3" },  /* 😘 blowing a kiss */
    { 0x1F619, "<3" },  /* 😙 kissing, smiling eyes */
    { 0x1F61A, "<3" },  /* 😚 kissing, closed eyes */
    { 0x1F61B, ":p" },  /* 😛 tongue */
    { 0x1F61C, ";)" },  /* 😜 winking with tongue */
    { 0x1F61D, ":p" },  /* 😝 squinting with tongue */
    { 0x1F61E, ":(" },  /* 😞 disappointed */
    { 0x1F61F, ":(" },  /* 😟 worried */
    { 0x1F620, ">:(" }, /* 😠 angry */
    { 0x1F621, ">:(" }, /* 😡 pouting */
    { 0x1F622, ":'(" }, /* 😢 crying */
    { 0x1F623, ":(" },  /* 😣 persevering */
    { 0x1F624, ">:(" }, /* 😤 steam from nose */
    { 0x1F625, ":'(" }, /* 😥 sad but relieved */
    { 0x1F628, ":(" },  /* 😨 fearful */
    { 0x1F629, ":(" },  /* 😩 weary */
    { 0x1F62B, ":(" },  /* 😫 tired */
    { 0x1F62D, ":'(" }, /* 😭 loudly crying */
    { 0x1F62E, ":o" },  /* 😮 open mouth */
    { 0x1F62F, ":o" },  /* 😯 hushed */
    { 0x1F630, ":(" },  /* 😰 anxious with sweat */
    { 0x1F632, ":o" },  /* 😲 astonished */
    { 0x1F638, ":D" },  /* 😸 grinning cat */
    { 0x1F639, ":D" },  /* 😹 cat with tears of joy */
    { 0x1F63A, ":)" },  /* 😺 smiling cat */
    { 0x1F63B, ":D" },  /* 😻 cat with heart eyes, grinning */
    { 0x1F63E, ">:(" }, /* 😾 pouting cat */
    { 0x1F63F, ":'(" }, /* 😿 crying cat */
    { 0x1F641, ":(" },  /* 🙁 slightly frowning */
    { 0x1F642, ":)" },  /* 🙂 slightly smiling */
    { 0x1F644, ":/" },  /* 🙄 rolling eyes */
    { 0x1F917, ":)" },  /* 🤗 hugging */
    { 0x1F923, ":D" },  /* 🤣 rolling on the floor laughing */
    { 0x1F929, ":D" },  /* 🤩 star-struck */
    { 0x1F92C, ">:(" }, /* 🤬 symbols over mouth */
    { 0x1F970, ":)" },  /* 🥰 smiling with hearts */
    { 0x1F972, ":')" }, /* 🥲 smiling with a tear */
    { 0x1F9E1, "<3" },  /* 🧡 orange heart */
};

static const char *lookup(uint32_t cp)
{
    size_t lo = 0, hi = sizeof faces / sizeof faces[0];
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (faces[mid].cp == cp) return faces[mid].text;
        if (faces[mid].cp < cp) lo = mid + 1;
        else hi = mid;
    }
    return NULL;
}

const char *ctk__emoji_face(const ctk_scanner *s, size_t start, size_t end)
{
    uint32_t cp;
    bool invalid;
    size_t len = ctk__utf8_decode(s->src + start, end - start, &cp, &invalid);
    if (invalid) return NULL;
    const char *text = lookup(cp);
    if (!text) return NULL;
    /* The rest of the cluster may only be variation selectors and skin tones. */
    for (size_t i = start + len; i < end; i += len) {
        uint32_t more;
        len = ctk__utf8_decode(s->src + i, end - i, &more, &invalid);
        if (invalid || !(more == 0xFE0E || more == 0xFE0F || (more >= 0x1F3FB && more <= 0x1F3FF))) return NULL;
    }
    return text;
}

const char *ctk__emoji_face_of(uint32_t cp)
{
    return lookup(cp);
}
