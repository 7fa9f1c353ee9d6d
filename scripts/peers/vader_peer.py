#!/usr/bin/env python3
"""VADER as a peer: time SentimentIntensityAnalyzer.polarity_scores over the
dump's first --sample tweets (VADER is pure Python, ~20k tweets/s: the whole
dump would take minutes), and extrapolate tweets/s from the sample. The output
says so: "sampled": true with the sample size (false when the sample is the
whole dump).

    taskset -c 0 .venv-peers/bin/python scripts/peers/vader_peer.py --dump /tmp/plain.txt
"""
import argparse

from vaderSentiment.vaderSentiment import SentimentIntensityAnalyzer

from common import log, macro_recall, median, read_lines, read_tsv, report, time_runs

# VADER's README thresholds on the compound score.
POSITIVE, NEGATIVE = 0.05, -0.05


def label(compound):
    return "positive" if compound >= POSITIVE else "negative" if compound <= NEGATIVE else "neutral"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dump", required=True)
    parser.add_argument("--dev")
    parser.add_argument("--sample", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    analyzer = SentimentIntensityAnalyzer()
    dev = None
    if args.dev:
        pairs = read_tsv(args.dev)
        predicted = [label(analyzer.polarity_scores(t)["compound"]) for _, t in pairs]
        gold = [g for g, _ in pairs]
        dev = dict(tweets=len(gold), accuracy=sum(g == p for g, p in zip(gold, predicted)) / len(gold),
                   macro_recall=macro_recall(gold, predicted), thresholds=[NEGATIVE, POSITIVE])

    lines = read_lines(args.dump, limit=args.sample)
    with open(args.dump, "rb") as f:
        sampled = len(lines) < sum(1 for _ in f)
    log(f"VADER: scoring a sample of {len(lines)} tweets, {args.repeat} runs after a warm-up")

    def run():
        score = analyzer.polarity_scores
        for line in lines:
            score(line)

    seconds, cpu_seconds = time_runs(run, args.repeat, warmup=1)
    report(dict(peer="VADER", version="vaderSentiment 3.3.2", method="polarity_scores per tweet, one thread",
                tweets=len(lines), sampled=sampled,
                note=(f"timed on the dump's first {len(lines)} tweets; tweets/s extrapolated to the whole dump"
                      if sampled else f"timed on the whole dump, {len(lines)} tweets"),
                seconds=seconds, cpu_seconds=cpu_seconds,
                tweets_per_second=len(lines) / median(seconds), tweets_per_cpu_second=len(lines) / median(cpu_seconds), dev=dev))


if __name__ == "__main__":
    main()
