#!/usr/bin/env python3
"""The scikit-learn stand-in behind the README's last lever measurements.

TF-IDF word 1-2-grams (sublinear) and character 2-5-grams inside words, a
balanced logistic regression (C 2), the five folds of train.tsv cut in
tweet-id (time) order as `sentiment train` cuts them; prints the folds'
macro-recall, their mean, and dev's with a model fitted on all of train.

    python3 -m venv /tmp/sk && /tmp/sk/bin/pip install scikit-learn
    /tmp/sk/bin/python scripts/lever-standin.py VARIANT

VARIANT: base; names (a capitalised word inside a sentence becomes NAME);
hashtags (every hashtag becomes one token, HASHTAG); skip (words, bigrams and
bigrams over a gap of one word); across (character 2-5-grams across word
boundaries, spaces included, instead of inside words).
"""
import re
import sys

import numpy as np
from scipy.sparse import hstack
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import accuracy_score, recall_score

DATA = "../shared/data/semeval/"
URL = re.compile(r"https?://\S+|www\.\S+")
MENTION = re.compile(r"@\w+")
TOKEN = re.compile(r"(?u)[\w#@']+|[^\w\s]+")
# Capitalised words that are not names (sentence openers, days, common words).
NOT_NAMES = set("I I'm I'll I've I'd A The This That It My We You He She They What When Why How Who Where If "
                "But And So Just Not No Yes Oh Can Do Don't Is Are Was Will Would Should Could Have Has Had Let "
                "Get Got Go Going Thank Thanks Happy Good Great Love Best New Today Tomorrow Tonight Monday "
                "Tuesday Wednesday Thursday Friday Saturday Sunday".split())


def load(name):
    ids, labels, texts = [], [], []
    with open(DATA + name, encoding="utf-8") as f:
        next(f)
        for line in f:
            tweet_id, label, text = line.rstrip("\n").split("\t", 2)
            ids.append(int(tweet_id))
            labels.append(label)
            texts.append(text)
    return np.array(ids), np.array(labels), texts


def masked(text):
    return MENTION.sub(" @USER ", URL.sub(" URL ", text))


def names(text):
    out, start = [], True
    for word in text.split():
        core = word.strip(".,!?:;\"'()")
        is_name = (not start and core[:1].isupper() and not core.isupper()
                   and core.isalpha() and core not in NOT_NAMES)
        out.append("NAME" if is_name else word)
        start = word.endswith((".", "!", "?", ":"))
    return " ".join(out)


def skipgrams(text):
    words = TOKEN.findall(text.lower())
    return (words + [a + " " + b for a, b in zip(words, words[1:])]
            + [a + " _ " + b for a, b in zip(words, words[2:])])


def main(variant):
    prepare = {
        "base": masked,
        "names": lambda t: names(masked(t)),
        "hashtags": lambda t: re.sub(r"#\w+", " HASHTAG ", masked(t)),
        "skip": masked,
        "across": masked,
    }[variant]
    ids, y, texts = load("train.tsv")
    _, dev_y, dev_texts = load("dev.tsv")
    texts = [prepare(t) for t in texts]
    dev_texts = [prepare(t) for t in dev_texts]
    folds = np.array_split(np.argsort(ids), 5)

    def fit(rows):
        if variant == "skip":
            words = TfidfVectorizer(lowercase=True, sublinear_tf=True, analyzer=skipgrams)
        else:
            words = TfidfVectorizer(lowercase=True, ngram_range=(1, 2), sublinear_tf=True, token_pattern=TOKEN.pattern)
        chars = TfidfVectorizer(lowercase=True, analyzer="char" if variant == "across" else "char_wb", ngram_range=(2, 5), sublinear_tf=True, min_df=2)
        docs = [texts[i] for i in rows]
        model = LogisticRegression(C=2.0, class_weight="balanced", max_iter=1000)
        model.fit(hstack([words.fit_transform(docs), chars.fit_transform(docs)]).tocsr(), y[rows])
        return lambda d: model.predict(hstack([words.transform(d), chars.transform(d)]).tocsr())

    scores = []
    for k in range(5):
        rest = np.concatenate([folds[j] for j in range(5) if j != k])
        predicted = fit(rest)([texts[i] for i in folds[k]])
        scores.append(recall_score(y[folds[k]], predicted, average="macro"))
    predicted = fit(np.arange(len(texts)))(dev_texts)
    print(variant, "folds", [round(s, 4) for s in scores], "cross-validation", round(float(np.mean(scores)), 4),
          "dev", round(recall_score(dev_y, predicted, average="macro"), 4),
          "accuracy", round(accuracy_score(dev_y, predicted), 4))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
