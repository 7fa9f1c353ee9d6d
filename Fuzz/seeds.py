#!/usr/bin/env python3
"""Writes the tokenizer fuzzer's seed inputs into the folder given.

Each seed is: options byte, buffer-layout byte, hash-seed byte, then text
(Fuzz/tokenizer_fuzz.c). The texts cover what tweets bring and what breaks
tokenizers: entities cut short, emoji sequences, invalid and overlong UTF-8,
NUL bytes, Hangul fillers, combining marks, 50-100 KB runs of one token, and
words of every length up to 64 bytes ending at the end of the input (the
sixteen-byte scan). `make test` replays them once; `make fuzz` starts from them.
"""
import os
import sys

TEXTS = [
    b"Don't be so sooooo SAD :-( &lt;3 @user #NotCool http://t.co/x?y=1). www.example.com!!!",
    b"I can't believe it's not butter... never again!!!?? 3.14 1,000 10:30 2nd 4ever",
    "😂😢❤️👍🏽👨‍👩‍👧‍👦🇺🇸🏴󠁧󠁢󠁳󠁣󠁴󠁿 1️⃣ #️⃣ *️⃣ ‼️ ©️ ™".encode(),
    "l'été naïve Straße ﬁ ﷺ ǅ İstanbul Ⅻ १२३ ٣ мир 日本語 ह‍िन्दी".encode(),
    b"\xff\xfe\xc0\xaf\xe0\x80\xaf\xed\xa0\x80\xed\xbf\xbf\xf4\x90\x80\x80\xf8\x88\x80\x80\x80\xe2\x82\x80\xf0\x9f\x98",
    b"a\x00b\x00\x00c", b"&am", b"&#", b"&#x110000;", b"&#99999999999;", b"&amp;&lt;&gt;&quot;&#39;&apos;",
    b"don&#39;t &lt;/3 &gt;:( &gt;_&lt;",
    b"caf&eacute; &Uuml;ber &hellip;&hellip; don&rsquo;t &hearts;&#128512; beauti&shy;ful &eacutex; &EACUTE; &yuml",
    b"it 's Sam Smith 's they 're I 'm we 'll I 've I 'd don't 's it 'sup 'd' w/e s/o b/w and/or w/u w/end",
    b":) :-) :D xD XDDD :P :p :'( :') <3 </333 ;) ^_^ -_- T_T o_O \\o/ >:( =) :/ :\\ :3 :* :|",
    b"http://", b"https://", b"www.", b"@", b"#", b"#a", b"@a", b"http://a", b"www.a.", b"#_1", b"x", b"xD",
    b"<3", b"<", b">", b":", b"...", b"!", b"?!", "…".encode(),
    # Hangul fillers: letters that NFKC_Casefold deletes (once words with empty text).
    "\u115f".encode(), "\u3164".encode(), "\uffa0".encode(), "a\u115fb".encode(), "#\u1160".encode(),
    "\u200d".encode(), "a\u200db".encode(), "e\u0301\u0301\u0301".encode(), "\u0301".encode(),
    "ﷺ".encode() * 10, "ΐ".encode() * 40,
    # Marks outside the BMP (two UTF-16 units) filling normalize.c's 128-unit chunk whose only
    # boundary is at index 1 (before the "a"): flushing frees one unit, the next mark needs two.
    ("xa" + "\U0001D167" * 64).encode(), ("xa" + "\U0001D167" * 70).encode(),
    ("hi" + "\u0301" * 125 + "\U0001E944" * 2).encode(),
    b"aaaaaaaaaaaaaaa", b"aaaaaaaaaaaaaaaa", b"aaaaaaaaaaaaaaaaa",
    b"abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJ'klm",
    b"SOOOOOOOOOOOOOOOOOOOOOOOOOOO", b"aaa'bbb", b"a'", b"a'\xc3\xa9", b"123abc", b"1.", b"1,2,3.4:5",
    # Bare domains (a short list of top-level domains, co.uk), and what stays words beside them.
    b"NFL.com, great", b"NFL.com.", b"ESPN.com:", b"bbc.co.uk", b"co.uk", b"NFL.com's", b"me@gmail.com",
    b"x@bbc.co.uk", "NFL.com\u00e9".encode(), b"e.g. a.m. U.S. log.in go.to hello.world", b".com", b"a.co", b"a.co.u",
    # Hearts after digits, faces before a dash and a digit (a score), and links ended by a comma.
    b"lost 1<3", b"won 1<3-2", b"<3<3", b"<33<3", b":3<3", b"i <3 u", b"1<", b"9<3",
    "score :3\u20132 (:3\u20142) :3\u2013 x :3\u2013".encode(), b"score:3-2",
    b"not http://t.co/N0ynB9vr, good", b"http://t,co/m3HdIsIcOd", b"http://a,",
]
LONG = [
    b"a" * 100000, b"!" * 100000, "😂".encode() * 25000, ("👨\u200d" * 20000).encode(),
    ("a" + "\u0301" * 30000).encode(), b"x" + b"D" * 50000 + b"a", b"<" + b"3" * 50000 + b"a",
    b"#" + b"1" * 50000, b"http://" + b"." * 50000, b"&lt;" * 20000, b"." * 100000,
    ("\u115f" * 20000).encode(), b"1.1" * 30000, b"@" + b"_" * 50000, b"a'" * 50000,
    b"a-" * 50000 + b".com/", b"a." * 50000 + b"com/", b"a.com" * 20000, b"a.co.uk" * 15000, b"1<3" * 30000,
    ":3\u2013".encode() * 20000,
]


def main(folder):
    os.makedirs(folder, exist_ok=True)
    seeds = []
    for text in TEXTS:
        for options in (0x00, 0x07, 0x1F, 0x17, 0x0F, 0x10, 0x05):
            for layout in (0x00, 0x01, 0x33):
                seeds.append(bytes([options, layout, 7]) + text)
    for text in LONG:
        for options in (0x07, 0x1F):
            seeds.append(bytes([options, 0, 1]) + text)
    for length in range(1, 65):
        for body in (b"a", b"A", b"1", b"ab'", b"xyz"):
            word = (body * 64)[:length]
            for options in (0x00, 0x07):
                seeds.append(bytes([options, 0, 3]) + word)
                seeds.append(bytes([options, 0, 3]) + b" " + word)
    for number, seed in enumerate(seeds):
        with open(os.path.join(folder, f"seed-{number:05d}"), "wb") as out:
            out.write(seed)
    print(f"{len(seeds)} seeds in {folder}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "seeds")
