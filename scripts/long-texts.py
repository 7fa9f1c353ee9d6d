#!/usr/bin/env python3
"""How sure `sentiment classify` is of texts longer than a tweet.

Builds 300 texts of k random dev tweets each (k = 3, 5, 10, 20, 40), has each
binary given on the command line classify them, and prints, per binary, the
mean distance between a class's probability and that class's share of the
k gold labels, and the mean top probability. The README's long-text figures
come from:

    python3 scripts/long-texts.py OLD/sentiment .build/release/sentiment
"""
import json
import random
import subprocess
import sys

DEV = "../shared/data/semeval/dev.tsv"
CLASSES = ["negative", "neutral", "positive"]


def classify(binary, texts):
    out = subprocess.run([binary, "classify"], input=("\n".join(texts) + "\n").encode(),
                         capture_output=True, check=True).stdout.decode().splitlines()
    return [json.loads(line)["probabilities"] for line in out]


def main(binaries):
    with open(DEV, encoding="utf-8") as f:
        rows = [line.rstrip("\n").split("\t", 2) for line in f][1:]
    for k in [3, 5, 10, 20, 40]:
        rng = random.Random(k)
        docs = [rng.sample(rows, k) for _ in range(300)]
        texts = [" ".join(row[2] for row in doc) for doc in docs]
        shares = [[sum(row[1] == c for row in doc) / k for c in CLASSES] for doc in docs]
        size = sum(len(t.encode()) for t in texts) / len(texts)
        line = f"{k:2} tweets a text ({size:.0f} bytes on average):"
        for binary in binaries:
            probabilities = classify(binary, texts)
            distance = sum(abs(p[c] - s[i]) for p, s in zip(probabilities, shares)
                           for i, c in enumerate(CLASSES)) / (3 * len(texts))
            top = sum(max(p.values()) for p in probabilities) / len(texts)
            line += f"  {binary}: |p - share| {distance:.3f}, top p {top:.2f}"
        print(line)


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
