#!/usr/bin/env python3
"""How far any per-class decision rule could take a model on a labelled file.

Scores FILE (a TSV with `label` and `text` columns, like dev.tsv) with
`sentiment classify`, then labels each tweet by the largest log p(c) + b(c)
and searches the per-class offsets b (neutral's fixed at 0, the others on a
step of 0.02 from -3 to 3, the positive one at every point where a
label changes) for the highest macro-averaged recall. The
offsets are chosen on FILE's own labels, so the figure is an oracle's, a
ceiling for rules such as the prior exponent that `train` picks by
cross-validation, never a rule to ship.

    python3 scripts/decision-ceiling.py [MODEL] [FILE]

MODEL defaults to Models/default, FILE to ../shared/data/semeval/dev.tsv; the
binary is .build/release/sentiment (`make build`). Standard library only.
"""
import json
import math
import subprocess
import sys

LABELS = ("negative", "neutral", "positive")


def read_tsv(path):
    with open(path, encoding="utf-8") as handle:
        header = handle.readline().rstrip("\n").split("\t")
        label_column, text_column = header.index("label"), header.index("text")
        rows = []
        for line in handle:
            fields = line.rstrip("\n").split("\t", len(header) - 1)
            rows.append((fields[label_column], fields[text_column]))
    return rows


def log_probabilities(model, texts):
    # One JSON record a line, so a text that starts with "{" stays text.
    stdin = "".join(json.dumps({"text": text}) + "\n" for text in texts)
    run = subprocess.run(
        [".build/release/sentiment", "classify", "--model", model],
        input=stdin, capture_output=True, text=True, check=False)
    records = [json.loads(line) for line in run.stdout.splitlines()]
    if len(records) != len(texts) or any("error" in record for record in records):
        sys.exit(f"classify gave {len(records)} usable records for {len(texts)} texts: {run.stderr}")
    return [[math.log(max(record["probabilities"][c], 1e-12)) for c in LABELS] for record in records], records


def macro_recall(gold, predicted):
    recalls = []
    for c in range(3):
        members = [p for g, p in zip(gold, predicted) if g == c]
        recalls.append(sum(1 for p in members if p == c) / len(members))
    return sum(recalls) / 3


def main():
    model = sys.argv[1] if len(sys.argv) > 1 else "Models/default"
    path = sys.argv[2] if len(sys.argv) > 2 else "../shared/data/semeval/dev.tsv"
    rows = read_tsv(path)
    gold = [LABELS.index(label) for label, _ in rows]
    scores, records = log_probabilities(model, [text for _, text in rows])

    # The shipped rule's labels; a tweet in another language has none, and
    # its largest probability stands in, as `eval` scores it.
    shipped = []
    for record, row in zip(records, scores):
        shipped.append(LABELS.index(record["label"]) if record["label"] else max(range(3), key=row.__getitem__))
    print(f"{path}: {len(rows)} tweets")
    print(f"model's own rule          macro-recall {macro_recall(gold, shipped):.4f}")
    print(f"largest probability       macro-recall {macro_recall(gold, [max(range(3), key=r.__getitem__) for r in scores]):.4f}")

    # For a fixed negative offset, tweet i goes positive once the positive
    # offset passes its threshold max(negative + offset, neutral) - positive,
    # so one sweep over the sorted thresholds tries every positive offset.
    totals = [gold.count(c) for c in range(3)]

    def recall_of(hits):
        return sum(hits[c] / totals[c] for c in range(3)) / 3

    best = (0.0, 0.0, 0.0)
    for step in range(-150, 151):
        negative = step / 50
        events = []
        hits = [0, 0, 0]
        for row, g in zip(scores, gold):
            other = 0 if row[0] + negative > row[1] else 1
            hits[g] += other == g
            events.append((max(row[0] + negative, row[1]) - row[2], g, other))
        events.sort()
        recall = recall_of(hits)
        # Below every threshold nothing is positive; then one tweet at a time turns.
        if recall > best[0]:
            best = (recall, negative, events[0][0] - 1)
        for index, (threshold, g, other) in enumerate(events):
            hits[g] += (g == 2) - (other == g)
            if index + 1 < len(events) and events[index + 1][0] == threshold:
                continue
            recall = recall_of(hits)
            if recall > best[0]:
                following = events[index + 1][0] if index + 1 < len(events) else threshold + 2
                best = (recall, negative, (threshold + following) / 2)
    print(f"best per-class offsets    macro-recall {best[0]:.4f}"
          f"  (negative {best[1]:+.2f}, positive {best[2]:+.4f} against neutral)")


if __name__ == "__main__":
    main()
