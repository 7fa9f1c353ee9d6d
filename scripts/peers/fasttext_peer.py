#!/usr/bin/env python3
"""fastText as a peer: train a supervised model on the shared training data,
then time batch prediction over the dump (classification only, model loaded,
lines already decoded in memory), one thread.

Prints one JSON object: tweets, seconds of each run, tweets_per_second (median),
the training time and settings, and accuracy / macro recall on the dev split.
With --serve it times one run each time "run" arrives on stdin (see
common.serve), so Bench can take turns with its own runs, and prints the same
object at end of input.

    taskset -c 0 .venv-peers/bin/python scripts/peers/fasttext_peer.py \
        --train ../shared/data/semeval/train.tsv --dev ../shared/data/semeval/dev.tsv \
        --dump /tmp/plain.txt
"""
import argparse
import os
import tempfile
import time

import fasttext

from common import log, macro_recall, median, read_lines, read_tsv, report, serve, time_runs


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--train", required=True)
    parser.add_argument("--dev")
    parser.add_argument("--dump", required=True)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--serve", action="store_true", help="time one run per 'run' line on stdin instead of --repeat runs")
    parser.add_argument("--k", type=int, default=3, help="labels per prediction (3 = every class's probability, as we output)")
    # Settings: fastText's supervised defaults except the ones that help tweets
    # (bigrams, more epochs, a higher rate) and dim 50 instead of 100 (half the
    # work per feature, so the faster peer: 2M buckets x 50 floats ~ 400 MB, as
    # in the 420 MB). bucket stays at its 2M default.
    parser.add_argument("--dim", type=int, default=50)
    parser.add_argument("--epoch", type=int, default=10)
    parser.add_argument("--lr", type=float, default=0.5)
    parser.add_argument("--word-ngrams", type=int, default=2)
    parser.add_argument("--bucket", type=int, default=2_000_000)
    args = parser.parse_args()

    pairs = read_tsv(args.train)
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False, encoding="utf-8") as f:
        for label, text in pairs:
            f.write(f"__label__{label} {text}\n")
        train_file = f.name
    settings = dict(dim=args.dim, epoch=args.epoch, lr=args.lr, wordNgrams=args.word_ngrams,
                    bucket=args.bucket, loss="softmax", thread=1, verbose=0, seed=1)
    log(f"fastText: training on {len(pairs)} tweets {settings}")
    start = time.perf_counter()
    model = fasttext.train_supervised(input=train_file, **settings)
    train_seconds = time.perf_counter() - start
    os.unlink(train_file)

    dev = None
    if args.dev:
        gold_pairs = read_tsv(args.dev)
        labels, _ = model.predict([t for _, t in gold_pairs], k=1)
        predicted = [l[0].replace("__label__", "") for l in labels]
        gold = [g for g, _ in gold_pairs]
        dev = dict(tweets=len(gold), accuracy=sum(g == p for g, p in zip(gold, predicted)) / len(gold),
                   macro_recall=macro_recall(gold, predicted))

    lines = read_lines(args.dump)
    # One call over the whole list: fastText's C++ batch path (multilinePredict), one thread.
    predict = lambda: model.predict(lines, k=args.k)
    if args.serve:
        log(f"fastText: predicting {len(lines)} tweets, k={args.k}, one run per request after a warm-up")
        seconds, cpu_seconds = serve(predict, warmup=1)
    else:
        log(f"fastText: predicting {len(lines)} tweets, k={args.k}, {args.repeat} runs after a warm-up")
        seconds, cpu_seconds = time_runs(predict, args.repeat, warmup=1)
    report(dict(peer="fastText", version=getattr(fasttext, "__version__", "0.9.2 (fasttext-wheel)"),
                method=f"model.predict(list, k={args.k}) (C++ batch predict, one thread)",
                settings=settings, train_seconds=train_seconds, tweets=len(lines), sampled=False,
                seconds=seconds, cpu_seconds=cpu_seconds,
                tweets_per_second=len(lines) / median(seconds), tweets_per_cpu_second=len(lines) / median(cpu_seconds), dev=dev))


if __name__ == "__main__":
    main()
