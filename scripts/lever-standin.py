#!/usr/bin/env python3
"""The scikit-learn stand-in behind the README's last lever measurements.

TF-IDF word 1-2-grams (sublinear) and character 2-5-grams inside words, a
balanced logistic regression (C 2, or STANDIN_C from the environment), the
five folds of train.tsv cut in tweet-id (time) order as `sentiment train` cuts
them; prints the folds' macro-recall, their mean, and dev's with a model
fitted on all of train.

    python3 -m venv /tmp/sk && /tmp/sk/bin/pip install scikit-learn
    /tmp/sk/bin/python scripts/lever-standin.py VARIANT

VARIANT: base; names (a capitalised word inside a sentence becomes NAME);
hashtags (every hashtag becomes one token, HASHTAG); skip (words, bigrams and
bigrams over a gap of one word); across (character 2-5-grams across word
boundaries, spaces included, instead of inside words); nbmix (the logistic
regression's log-probabilities plus w times a multinomial naive Bayes's on the
same features, uniform prior, smoothing 0.1, for w 0, 0.1, 0.25 and 0.5);
prune (label noise: the training rows of each fit are scored by four inner
time folds of their own, and a row is dropped when another class's
probability reaches that class's mean probability over its own rows and is
the largest such, the confident-learning rule; the held-out rows keep every
label); prune10 (a row is dropped when the inner folds give its own label a
probability under 0.1); nb (each column scaled by its naive Bayes log-count
ratio, the largest |log(p_c/q_c)| over the classes from the fit's rows, counts
of present features smoothed by 1, as `sentiment train` scales its buckets);
nbstable (the same ratio computed in four time periods of the fit's rows, and
each class's scale the lower bound |mean| - std/sqrt(4) over the periods, so
a feature that leans one way in one period and another in the next, a topic's
word more than a sentiment's, weighs less); distant (a lexicon from distant
supervision: the fit's tweets with only happy emoticons count as positive and
those with only sad ones as negative, whatever their labels; each word's
smoothed log-odds between the two, for words on 3 such tweets or more; the
tweet's sum, maximum, minimum and last score and its counts of words scoring
above 0.5 and below -0.5 as six dense columns; the training rows' columns
come from lexicons of four inner time folds, so no row scores its own
emoticon); feda (domain adaptation by feature augmentation: each fit row's
columns also copied into a block of its own time period, one of four, so that
what holds in one period only can be learned there; held-out rows have only
the shared block); noise (feature noising: two more copies of each fit row,
each nonzero column dropped with probability 0.3, a regularizer; the copies
triple the loss, so C is to be read a third as large); ordinal (the classes
read as an ordered scale, Frank and Hall's way: two unweighted binary logistic
regressions on the same columns, p(above negative) and p(positive), composed
as p(negative) = 1 - the first, p(positive) = the second, p(neutral) = their
difference, and the label the class with the largest p(c)/prior(c), the Bayes
rule for macro-recall; flat is the unweighted three-class model under the
same rule beside it; ordmix the mean of the two models' probabilities under
that rule); stack (the word and the character columns each fit a
balanced logistic regression of their own, and a third, balanced, learns how
to weigh the two from their log-probabilities on four inner time folds of the
fit's rows); pairs (a third block of TF-IDF columns: every unordered pair
of two different words in the tweet, wherever they stand, for pairs seen in
two fit tweets or more, a degree-2 conjunction of the bag of words); tail
(words and bigrams, and the tweet's last three words again as features of
their own, END:word, since a tweet's verdict often comes last); svm (the
same columns, a balanced linear support vector machine, one class against the
rest with the squared hinge loss, labels by the largest margin: the loss of
the TweetEval paper's SVM in place of the logistic one); stems (words and
bigrams with each word cut to its Snowball stem, "loving" and "loved" both
"love"; the character block unchanged; needs `pip install nltk`);
stemsplus (words and bigrams as they are, and each word's stem beside them
as a feature of its own, STEM:love, where the stem differs from the word);
periodbias (each fit row's time period, one of four, as a one-hot column of
its own at 10, which the penalty barely touches: an intercept per period that
soaks up each period's class mix, so the word weights need not; held-out rows
take the mean of the four, 2.5 in each column).
"""
import functools
import os
import re
import sys

import numpy as np
from scipy.sparse import csr_matrix, diags, hstack, vstack
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import accuracy_score, recall_score
from sklearn.naive_bayes import MultinomialNB
from sklearn.svm import LinearSVC

DATA = "../shared/data/semeval/"
URL = re.compile(r"https?://\S+|www\.\S+")
MENTION = re.compile(r"@\w+")
TOKEN = re.compile(r"(?u)[\w#@']+|[^\w\s]+")
HAPPY = re.compile(r"(?<!\S)(?:[:=;8][-o*']?[)\]dDpP}>]|<3|\^_?\^|[(\[][-o*']?[:=]|x[Dd]|XD)(?!\S)")
SAD = re.compile(r"(?<!\S)(?:[:=;][-']?[(\[{/\\|]|[)\]][-']?[:=]|</3|D[:=])(?!\S)")
WORD = re.compile(r"(?u)[\w#']+")
VARIANTS = ("base", "names", "hashtags", "skip", "across", "nbmix", "prune", "prune10", "nb", "nbstable", "distant", "feda", "noise", "ordinal", "flat", "ordmix", "stack", "pairs", "tail", "svm", "stems", "stemsplus", "periodbias")
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


def unigrams_bigrams(words):
    """`words` and their bigrams, as the base vectorizer's word 1-2-grams read them."""
    return words + [a + " " + b for a, b in zip(words, words[1:])]


def alphanumeric(words):
    """The `words` that hold a letter or digit (no punctuation runs)."""
    return [w for w in words if any(ch.isalnum() for ch in w)]


def skipgrams(text):
    words = TOKEN.findall(text.lower())
    return unigrams_bigrams(words) + [a + " _ " + b for a, b in zip(words, words[2:])]


def pairs(text):
    """Every unordered pair of two different words of the tweet (pairs' third block)."""
    kept = sorted(set(alphanumeric(TOKEN.findall(text.lower()))))
    return [a + " & " + b for i, a in enumerate(kept) for b in kept[i + 1:]]


def tail(text):
    """Words and bigrams, and the last three words again, marked as the tweet's end (tail)."""
    words = TOKEN.findall(text.lower())
    return unigrams_bigrams(words) + ["END:" + w for w in alphanumeric(words)[-3:]]


@functools.cache
def stem(word):
    """`word`'s Snowball (Porter 2) stem, or `word` itself when it holds no letter (needs nltk)."""
    from nltk.stem.snowball import EnglishStemmer
    return EnglishStemmer().stem(word) if any(ch.isalpha() for ch in word) else word


def stems(text):
    """Words and bigrams with each word cut to its Snowball stem (stems)."""
    return unigrams_bigrams([stem(w) for w in TOKEN.findall(text.lower())])


def stemsplus(text):
    """Words and bigrams as they are, and each word's stem beside it where the two differ (stemsplus)."""
    words = TOKEN.findall(text.lower())
    return unigrams_bigrams(words) + ["STEM:" + stem(w) for w in words if stem(w) != w]


# The variants whose word block is read by an analyzer of their own.
WORD_ANALYZERS = {"skip": skipgrams, "tail": tail, "stems": stems, "stemsplus": stemsplus}


def emoticon_free_words(text):
    """The lowercased words of `text` with its emoticons taken out (distant's lexicon and columns)."""
    return WORD.findall(SAD.sub(" ", HAPPY.sub(" ", text)).lower())


def main(variant):
    if variant not in VARIANTS:
        sys.exit(__doc__)
    prepare = {
        "names": lambda t: names(masked(t)),
        "hashtags": lambda t: re.sub(r"#\w+", " HASHTAG ", masked(t)),
    }.get(variant, masked)
    ids, y, texts = load("train.tsv")
    _, dev_y, dev_texts = load("dev.tsv")
    texts = [prepare(t) for t in texts]
    dev_texts = [prepare(t) for t in dev_texts]
    folds = np.array_split(np.argsort(ids), 5)
    C = float(os.environ.get("STANDIN_C", "2"))
    mixes = (0.0, 0.1, 0.25, 0.5) if variant == "nbmix" else (0.0,)

    def periods(rows):
        """Four time periods of `rows`, in tweet-id order, as positions into `rows`."""
        return np.array_split(np.argsort(ids[rows]), 4)

    def inner_folds(rows):
        """Each period of `rows` held out in turn: (held-out positions, the other three's), into `rows`."""
        parts = periods(rows)
        for k in range(4):
            yield parts[k], np.concatenate([parts[j] for j in range(4) if j != k])

    def fit(rows):
        """The log-probabilities of a model fitted on `rows`, and of the naive Bayes beside it for nbmix."""
        if variant in WORD_ANALYZERS:
            words = TfidfVectorizer(lowercase=True, sublinear_tf=True, analyzer=WORD_ANALYZERS[variant])
        else:
            words = TfidfVectorizer(lowercase=True, ngram_range=(1, 2), sublinear_tf=True, token_pattern=TOKEN.pattern)
        chars = TfidfVectorizer(lowercase=True, analyzer="char" if variant == "across" else "char_wb", ngram_range=(2, 5), sublinear_tf=True, min_df=2)
        # pairs: a third block of word pairs seen in two fit tweets or more.
        extra = [TfidfVectorizer(sublinear_tf=True, analyzer=pairs, min_df=2)] if variant == "pairs" else []
        docs = [texts[i] for i in rows]
        x = hstack([v.fit_transform(docs) for v in [words, chars] + extra]).tocsr()

        def columns(d):
            """The word and character columns of texts `d`, as the fit's vectorizers read them."""
            return hstack([v.transform(d) for v in [words, chars] + extra]).tocsr()
        scale = nb_scale(x, rows) if variant in ("nb", "nbstable") else None
        if scale is not None:
            x = x @ scale
        if variant == "distant":
            dense = np.zeros((len(rows), 6))
            for held, others in inner_folds(rows):
                dense[held] = distant_columns(distant_lexicon(rows[others]), [docs[i] for i in held])
            mean, std = dense.mean(0), dense.std(0) + 1e-9
            lexicon = distant_lexicon(rows)
            x = hstack([x, csr_matrix((dense - mean) / std)]).tocsr()
        if variant == "feda":
            # Each fit row's features also in its own time period's block; held-out rows have only the shared one.
            period = np.zeros(len(rows), dtype=int)
            for k, part in enumerate(periods(rows)):
                period[part] = k
            x = hstack([x] + [diags((period == k).astype(np.float64)) @ x for k in range(4)]).tocsr()
        if variant == "periodbias":
            # Each fit row's time period (one of four) as a one-hot column of its own, scaled so that the
            # penalty barely touches it: a per-period intercept that soaks up each period's class mix.
            onehot = np.zeros((len(rows), 4))
            for k, part in enumerate(periods(rows)):
                onehot[part, k] = 10.0
            x = hstack([x, csr_matrix(onehot)]).tocsr()
        labels = y[rows]
        if variant == "noise":
            # Two more copies of each fit row, each feature dropped with probability 0.3 (feature noising).
            rng = np.random.default_rng(0)
            copies = [x]
            for _ in range(2):
                c = x.copy()
                c.data = c.data * (rng.random(len(c.data)) >= 0.3)
                c.eliminate_zeros()
                copies.append(c)
            x = vstack(copies).tocsr()
            labels = np.concatenate([labels] * 3)
        width = x.shape[1]
        if variant in ("ordinal", "flat", "ordmix", "stack"):
            special = {"ordinal": ordinal, "flat": flat, "ordmix": ordmix, "stack": stacked}[variant](
                x, labels, rows, len(words.vocabulary_))

            return np.unique(y), lambda d: special(columns(d))
        if variant == "svm":
            machine = LinearSVC(C=C, class_weight="balanced", max_iter=5000).fit(x, labels)
            return machine.classes_, lambda d: (machine.decision_function(columns(d)), np.zeros((len(d), 3)))
        model = LogisticRegression(C=C, class_weight="balanced", max_iter=1000).fit(x, labels)
        bayes = MultinomialNB(alpha=0.1, fit_prior=False).fit(x, y[rows]) if variant == "nbmix" else None

        def scores(d):
            xd = columns(d)
            if scale is not None:
                xd = xd @ scale
            if variant == "distant":
                xd = hstack([xd, csr_matrix((distant_columns(lexicon, d) - mean) / std)]).tocsr()
            if variant == "periodbias":  # held-out rows: the mean of the periods' intercepts
                xd = hstack([xd, csr_matrix(np.full((xd.shape[0], 4), 2.5))]).tocsr()
            if xd.shape[1] < width:  # feda: the held-out rows' period blocks are empty
                xd = hstack([xd, csr_matrix((xd.shape[0], width - xd.shape[1]))]).tocsr()
            logistic = model.predict_log_proba(xd)
            return logistic, (bayes.predict_log_proba(xd) if bayes else np.zeros_like(logistic))
        return model.classes_, scores

    def priors(labels):
        """Each class's share of `labels`, in the classes' order (negative, neutral, positive)."""
        return np.array([(labels == c).mean() for c in np.unique(y)])

    def ordinal(x, labels, rows, words_width):
        """Frank and Hall's ordinal composition of two binary models, labels by p(c)/prior(c)."""
        prior = priors(labels)
        above = LogisticRegression(C=C, max_iter=1000).fit(x, labels != "negative")
        top = LogisticRegression(C=C, max_iter=1000).fit(x, labels == "positive")

        def scores(xd):
            a, b = above.predict_proba(xd)[:, 1], top.predict_proba(xd)[:, 1]
            p = np.stack([1 - a, np.maximum(a - b, 1e-9), b], 1)
            return np.log(p / prior), np.zeros((xd.shape[0], 3))
        return scores

    def flat(x, labels, rows, words_width):
        """The unweighted three-class model, labels by p(c)/prior(c) (ordinal's yardstick)."""
        prior = priors(labels)
        model = LogisticRegression(C=C, max_iter=1000).fit(x, labels)
        return lambda xd: (model.predict_log_proba(xd) - np.log(prior), np.zeros((xd.shape[0], 3)))

    def ordmix(x, labels, rows, words_width):
        """The mean of flat's and ordinal's probabilities, labels by p(c)/prior(c)."""
        one, other = flat(x, labels, rows, words_width), ordinal(x, labels, rows, words_width)

        def scores(xd):
            # Both give log(p/prior), and the mean of p/prior is the mean p over prior.
            return np.log((np.exp(one(xd)[0]) + np.exp(other(xd)[0])) / 2), np.zeros((xd.shape[0], 3))
        return scores

    def stacked(x, labels, rows, words_width):
        """A balanced model on each of the word and character blocks, weighed by a third fitted out of fold."""
        blocks = (slice(0, words_width), slice(words_width, x.shape[1]))
        meta_x = np.zeros((len(labels), 6))
        for held, others in inner_folds(rows):
            for b, block in enumerate(blocks):
                part = LogisticRegression(C=C, class_weight="balanced", max_iter=1000)
                part.fit(x[others][:, block], labels[others])
                meta_x[held, 3 * b:3 * b + 3] = part.predict_log_proba(x[held][:, block])
        parts = [LogisticRegression(C=C, class_weight="balanced", max_iter=1000).fit(x[:, block], labels)
                 for block in blocks]
        meta = LogisticRegression(C=1.0, class_weight="balanced", max_iter=1000).fit(meta_x, labels)
        print("  meta weights", np.round(meta.coef_, 3).tolist(), flush=True)

        def scores(xd):
            parts_x = np.hstack([part.predict_log_proba(xd[:, block]) for part, block in zip(parts, blocks)])
            return meta.predict_log_proba(parts_x), np.zeros((xd.shape[0], 3))
        return scores

    def distant_lexicon(rows):
        """Each word's log-odds between the happy-emoticon and sad-emoticon tweets among `rows`."""
        happy, sad = {}, {}
        for i in rows:
            text = texts[i]
            h, s = bool(HAPPY.search(text)), bool(SAD.search(text))
            if h == s:
                continue
            counts = happy if h else sad
            for word in set(emoticon_free_words(text)):
                counts[word] = counts.get(word, 0) + 1
        nh, ns = sum(happy.values()) + 1, sum(sad.values()) + 1
        words = {w for w in set(happy) | set(sad) if happy.get(w, 0) + sad.get(w, 0) >= 3}
        return {w: np.log((happy.get(w, 0) + 1) / nh) - np.log((sad.get(w, 0) + 1) / ns) for w in words}

    def distant_columns(lexicon, docs):
        out = np.zeros((len(docs), 6))
        for r, text in enumerate(docs):
            scores = [lexicon[w] for w in emoticon_free_words(text) if w in lexicon]
            if scores:
                out[r] = [sum(scores), max(scores), min(scores), scores[-1],
                          sum(v > 0.5 for v in scores), sum(v < -0.5 for v in scores)]
        return out

    def ratios(present, labels):
        """Each class's log-count ratio per column, counts smoothed by 1 (classes x columns)."""
        out = []
        for c in np.unique(y):
            inside = np.asarray(present[labels == c].sum(0)).ravel() + 1.0
            outside = np.asarray(present[labels != c].sum(0)).ravel() + 1.0
            out.append(np.log(inside / inside.sum()) - np.log(outside / outside.sum()))
        return np.array(out)

    def nb_scale(x, rows):
        """A diagonal matrix of the columns' naive Bayes scales (nbstable's lower bound over periods)."""
        present = (x > 0).astype(np.float64)
        if variant == "nb":
            scale = np.abs(ratios(present, y[rows])).max(0)
        else:
            per = np.array([ratios(present[part], y[rows][part]) for part in periods(rows)])
            scale = np.maximum(np.abs(per.mean(0)) - per.std(0) / 2.0, 0.0).max(0)
        print("  scale mean", round(float(scale.mean()), 4), "zero", int((scale == 0).sum()), "of", len(scale),
              flush=True)
        return diags(scale)

    def pruned(rows):
        """`rows` less those whose label the confident-learning rule (or prune10's) calls noise."""
        p = np.zeros((len(texts), 3))
        for held, others in inner_folds(rows):
            classes, scores = fit(rows[others])
            p[rows[held]] = np.exp(scores([texts[i] for i in rows[held]])[0])
        p = p[rows]
        given = np.searchsorted(classes, y[rows])
        if variant == "prune10":
            noise = p[np.arange(len(rows)), given] < 0.1
        else:
            threshold = np.array([p[given == c, c].mean() for c in range(3)])
            confident = np.where(p >= threshold, p, -1)
            noise = (confident.max(1) >= 0) & (confident.argmax(1) != given)
        print("  dropped", int(noise.sum()), "of", len(rows), flush=True)
        return rows[~noise]

    def predict(rows, d):
        if variant.startswith("prune"):
            rows = pruned(rows)
        classes, scores = fit(rows)
        logistic, bayes = scores(d)
        return {w: classes[(logistic + w * bayes).argmax(1)] for w in mixes}

    folds_scores = []
    for k in range(5):
        rest = np.concatenate([folds[j] for j in range(5) if j != k])
        predicted = predict(rest, [texts[i] for i in folds[k]])
        folds_scores.append({w: recall_score(y[folds[k]], predicted[w], average="macro") for w in mixes})
    predicted = predict(np.arange(len(texts)), dev_texts)
    for w in mixes:
        scores = [f[w] for f in folds_scores]
        print(variant + (f" w={w}" if variant == "nbmix" else ""), "folds", [round(s, 4) for s in scores],
              "cross-validation", round(float(np.mean(scores)), 4),
              "dev", round(recall_score(dev_y, predicted[w], average="macro"), 4),
              "accuracy", round(accuracy_score(dev_y, predicted[w]), 4))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
