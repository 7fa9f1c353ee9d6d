#!/bin/sh
# ThreadSanitizer over the Swift code (`make tsan`; not part of `make test`).
#
# Builds every target and test with --sanitize=thread in .build-tsan, a build
# folder of its own (the debug build of `make test` is left alone), runs every
# Swift test there (the command line's tests run the sanitized `sentiment` and
# Bench built beside them), then the sanitized `sentiment classify --threads 4`
# on the training file's texts, four times over. Every process writes its
# reports to .build-tsan/reports (TSAN_OPTIONS' log_path), the processes the
# tests start too, whose standard error a test may not read: any report there
# fails the run and is printed, as is any test that fails.
#
# On two cores the build takes some 12 minutes and the tests some 20. ICU,
# OpenBLAS and SQLite are not instrumented: a race inside them is not seen.
# Each command is printed before it runs.
#
# Environment: SWIFT (default swift), SHARED (the folder of train.tsv; default
# ../shared/data/semeval; without it classify reads Examples/tweets.txt 4,000 times).
set -u
cd "$(dirname "$0")/.."

SWIFT=${SWIFT:-swift}
SHARED=${SHARED:-../shared/data/semeval}
BUILD=.build-tsan
REPORTS=$BUILD/reports

# The tests that cannot run under ThreadSanitizer, for the sanitizer's own reasons:
# - failedReportWriteKeepsTheEarlierReport (eval) and failedWriteKeepsTheLastResults
#   (Bench) run the program under `ulimit -f 8` and `ulimit -f 1`. The sanitizer's
#   runtime keeps the shadow of read-only memory in a file it writes at start
#   (/tmp/tsan.rodata.PID) and maps; the limit cuts the file short, and the
#   process dies of SIGBUS in the runtime (MemoryAccessRange) before main.
# The tests with a one-minute time limit (a guard against a hang), which counts
# from the test's start, run after the suite, on their own (some 10 seconds):
# with the whole suite sharing two cores under the sanitizer, the limit ran out
# while specialFilesAreRefused (model files) trained its small model, and while
# shutdownFinishesRequestsInFlight (operations) waited for a test server's slot.
ALONE='specialFilesAreRefused|shutdownFinishesRequestsInFlight'
SKIP="failedReportWriteKeepsTheEarlierReport|failedWriteKeepsTheLastResults|$ALONE"

run() {
  echo "+ $*" >&2
  "$@"
}

failed=""
run "$SWIFT" build --build-tests --sanitize=thread --scratch-path "$BUILD" || exit 1
rm -rf "$REPORTS" && mkdir -p "$REPORTS"
export TSAN_OPTIONS="log_path=$(pwd)/$REPORTS/tsan halt_on_error=0${TSAN_OPTIONS:+ $TSAN_OPTIONS}"
echo "+ export TSAN_OPTIONS=\"$TSAN_OPTIONS\"" >&2

# The tests' output goes to a log; what failed, and the count, are shown.
echo "+ $SWIFT test --skip-build --sanitize=thread --scratch-path $BUILD --skip '$SKIP' >$BUILD/tests.log" >&2
"$SWIFT" test --skip-build --sanitize=thread --scratch-path "$BUILD" --skip "$SKIP" >"$BUILD/tests.log" 2>&1 || failed="$failed tests"
grep -E '^(✘ Test .* (recorded an issue|failed)|(✔|━|✘) Test run with)' "$BUILD/tests.log"
echo "+ $SWIFT test --skip-build --sanitize=thread --scratch-path $BUILD --filter '$ALONE' >$BUILD/alone.log" >&2
"$SWIFT" test --skip-build --sanitize=thread --scratch-path "$BUILD" --filter "$ALONE" >"$BUILD/alone.log" 2>&1 || failed="$failed $ALONE"
grep -E '^(✘ Test .* (recorded an issue|failed)|(✔|━|✘) Test run with)' "$BUILD/alone.log"

input=$BUILD/classify-input.txt
if [ -f "$SHARED/train.tsv" ]; then
  echo "+ tail -n +2 $SHARED/train.tsv | cut -f3 > $input (4 times over)" >&2
  tail -n +2 "$SHARED/train.tsv" | cut -f3 >"$input.once" && cat "$input.once" "$input.once" "$input.once" "$input.once" >"$input"
else
  echo "tsan: no $SHARED/train.tsv; classify reads Examples/tweets.txt 4,000 times"
  for _ in $(seq 4000); do cat Examples/tweets.txt; done >"$input"
fi
lines=$(wc -l <"$input")
run "$BUILD/debug/sentiment" classify --threads 4 "$input" >"$BUILD/classify-output.jsonl" || failed="$failed classify"
records=$(wc -l <"$BUILD/classify-output.jsonl")
[ "$records" -eq "$lines" ] || { echo "tsan: classify wrote $records records for $lines lines"; failed="$failed classify"; }

reports=$(grep -l 'ThreadSanitizer' "$REPORTS"/* 2>/dev/null)
if [ -n "$reports" ]; then
  for report in $reports; do echo "== $report"; cat "$report"; done
  echo "tsan: ThreadSanitizer reported in $(echo "$reports" | wc -l) process(es); the reports are in $REPORTS"
  exit 1
fi
if [ -n "$failed" ]; then
  echo "tsan: no ThreadSanitizer report, but failed:$failed (the test log is $BUILD/tests.log)"
  exit 1
fi
tests=$(sed -n 's/^[^ ]* Test run with \([0-9]*\) tests.*/\1/p' "$BUILD/tests.log")
alone=$(sed -n 's/^[^ ]* Test run with \([0-9]*\) tests*.*/\1/p' "$BUILD/alone.log")
echo "tsan: no ThreadSanitizer report: $tests Swift tests, then $alone alone, then classify --threads 4 on $lines lines"
