"""Shared helpers for the peer benchmarks: read dumps and TSV, time, report as JSON."""
import json
import os
import resource
import sys
import time


def read_lines(path, limit=None):
    """The dump's tweets, one per line, as str (decoded outside the timing)."""
    lines = []
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            lines.append(line.rstrip("\n"))
            if limit is not None and len(lines) >= limit:
                break
    return lines


def read_tsv(path):
    """(label, text) pairs of a SemEval TSV with an `id label text` header."""
    pairs = []
    with open(path, encoding="utf-8") as f:
        header = f.readline().rstrip("\n").split("\t")
        label_col, text_col = header.index("label"), header.index("text")
        for line in f:
            fields = line.rstrip("\n").split("\t")
            if len(fields) > max(label_col, text_col):
                pairs.append((fields[label_col], fields[text_col]))
    return pairs


def macro_recall(gold, predicted, labels=("negative", "neutral", "positive")):
    recalls = []
    for label in labels:
        total = sum(1 for g in gold if g == label)
        hit = sum(1 for g, p in zip(gold, predicted) if g == label and p == label)
        recalls.append(hit / total if total else 0.0)
    return sum(recalls) / len(recalls)


def median(values):
    s = sorted(values)
    n = len(s)
    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2


def time_runs(body, repeats, warmup=1):
    """Wall-clock and CPU seconds (this process: user + system) of each timed
    run of body() after `warmup` untimed runs. On a shared machine the CPU
    seconds are the steadier figure."""
    for _ in range(warmup):
        body()
    runs = [time_once(body) for _ in range(repeats)]
    return [s for s, _ in runs], [c for _, c in runs]


def time_once(body):
    """(wall-clock seconds, CPU seconds) of one run of body()."""
    start, cpu_start = time.perf_counter(), time.process_time()
    body()
    return time.perf_counter() - start, time.process_time() - cpu_start


def serve(body, warmup=1):
    """Like time_runs, but one timed run each time a line "run" arrives on
    stdin, so the caller can interleave these runs with its own. Prints
    {"ready": true} after the warm-up and {"seconds": s, "cpu_seconds": c}
    after each run, one JSON line each; returns both lists at end of input."""
    for _ in range(warmup):
        body()
    emit(dict(ready=True))
    seconds, cpu_seconds = [], []
    for line in sys.stdin:
        if line.strip() != "run":
            raise SystemExit(f"peer: expected 'run' on stdin, got {line.strip()!r}")
        wall, cpu = time_once(body)
        seconds.append(wall)
        cpu_seconds.append(cpu)
        emit(dict(seconds=wall, cpu_seconds=cpu))
    return seconds, cpu_seconds


def emit(message):
    """One JSON line on stdout, flushed (the reader waits for it)."""
    json.dump(message, sys.stdout)
    sys.stdout.write("\n")
    sys.stdout.flush()


def affinity():
    try:
        return sorted(os.sched_getaffinity(0))
    except AttributeError:
        return None


def peak_rss_mb():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def report(result):
    """One JSON object on stdout; progress went to stderr."""
    result["cores"] = affinity()
    result["peak_rss_mb"] = round(peak_rss_mb(), 1)
    emit(result)


def log(message):
    print(f"peer: {message}", file=sys.stderr, flush=True)
