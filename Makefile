# swift-sentiment — the two commands of a fresh Debian machine with the Swift toolchain:
#   make demo   classify the sample dump and show a timeline with the shipped model
#   make test   build everything (Bench included) and run every test, the browser tests too
# Each installs the system packages it needs with apt-get when they are missing.

SWIFT        ?= swift
SHARED       ?= ../shared/data/semeval
RELEASE_BIN   = .build/release
# Release builds link the Swift runtime and Foundation statically: nothing to find and bind
# at each start (Docs/performance.md). Every release build passes the same flags, or
# SwiftPM rebuilds everything.
RELEASE       = $(SWIFT) build -c release --static-swift-stdlib
# libicu-dev: the tokenizer · libblas-dev: scoring (+ OpenBLAS as the BLAS) · libsqlite3-dev: the tweet store
# · python3: the fuzz seeds of `make test` (not in a minimal Debian)
APT_PACKAGES  = libicu-dev libblas-dev libopenblas0-pthread libsqlite3-dev python3
# time: Bench reads each process's peak memory from /usr/bin/time · python3-venv: the peers' environment
BENCH_PACKAGES = time python3 python3-venv
SUDO         := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

# Installs the packages of $(1) that are not installed ("install ok installed": a package removed
# but not purged still answers dpkg -s); DEBIAN_FRONTEND passes through sudo by env.
define install_missing
	@missing=""; for p in $(1); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'install ok installed' || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "make: installing$$missing"; \
	  $(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi
endef

.PHONY: all deps bench-deps build install install-files install-check demo test model eval bench bench-peers fuzz fuzz-seeds stress tsan clean

all: build

## Install the system packages that are missing.
deps:
	$(call install_missing,$(APT_PACKAGES))

## The packages the benchmarks need besides.
bench-deps: deps
	$(call install_missing,$(BENCH_PACKAGES))

## Release build of the command line.
build: deps
	$(RELEASE) --product sentiment

## Install the command line and the shipped model under PREFIX (default /usr/local; DESTDIR for
## staging): PREFIX/bin/sentiment finds PREFIX/share/swift-sentiment/Models/default by itself, and
## the web page's files (SwiftPM resource bundles) go beside it, where `serve` looks for them.
PREFIX       ?= /usr/local
MODEL_DIR     = $(DESTDIR)$(PREFIX)/share/swift-sentiment/Models/default

install: build install-files

## The install step alone, from BIN_DIR (default the release build): `make test` runs it
## from the debug build into a scratch DESTDIR (install-check).
BIN_DIR      ?= $(RELEASE_BIN)

install-files:
	install -d $(DESTDIR)$(PREFIX)/bin $(MODEL_DIR)
	install -m 755 $(BIN_DIR)/sentiment $(DESTDIR)$(PREFIX)/bin/sentiment
	for bundle in $(BIN_DIR)/*.resources; do \
	  rm -rf "$(DESTDIR)$(PREFIX)/bin/$$(basename $$bundle)" && cp -R "$$bundle" $(DESTDIR)$(PREFIX)/bin/ || exit 1; \
	done
	install -m 644 Models/default/* $(MODEL_DIR)/

## Installs the debug build into a scratch folder and classifies a line there, away from the
## source tree, so the installed files alone must hold a model that loads.
install-check:
	@stage=$$(mktemp -d) && \
	  $(MAKE) --no-print-directory install-files BIN_DIR="$$($(SWIFT) build --show-bin-path)" DESTDIR=$$stage PREFIX=/usr/local >/dev/null && \
	  out=$$(cd / && echo 'what a lovely day' | $$stage/usr/local/bin/sentiment classify 2>&1) && \
	  echo "$$out" | grep -q '"label":"positive"' && echo "install-check: the installed sentiment loads its model" && rm -rf $$stage || \
	  { echo "install-check: the installed sentiment failed: $$out" >&2; rm -rf $$stage; exit 1; }

## The main job on the shipped model: classify the sample dump, then a user's timeline from the sample archive.
demo: build
	@echo "== sentiment classify Examples/tweets.txt"
	$(RELEASE_BIN)/sentiment classify Examples/tweets.txt
	@echo
	@echo "== sentiment tweets sunnydays --archive Examples/archive/sunnydays (offline, a throwaway database)"
	@dir=$$(mktemp -d); trap 'rm -rf "$$dir"' EXIT; \
	  $(RELEASE_BIN)/sentiment tweets sunnydays --archive Examples/archive/sunnydays --db $$dir/demo.sqlite --limit 8

## Every test: builds all targets (Bench included, so it keeps compiling), runs the Swift
## tests, the fuzz seeds and the sequence-lock stress run, then the web page's tests in
## headless Chromium (which install Chromium and Selenium when missing).
test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build
	$(MAKE) fuzz-seeds
	$(MAKE) stress
	$(MAKE) install-check
	SWIFT=$(SWIFT) scripts/embed-check.sh
	SENTIMENT_BIN="$$($(SWIFT) build --show-bin-path)/sentiment" scripts/browser-tests.sh

## The C tokenizer under libFuzzer with AddressSanitizer and UndefinedBehaviorSanitizer
## (Fuzz/tokenizer_fuzz.c, the toolchain's clang). fuzz-seeds replays every seed once
## (part of make test); fuzz searches for FUZZ_SECONDS from them, new finds in .build/fuzz/corpus.
## -fstrict-flex-arrays=3 bounds-checks a struct's last array too (normalize.c's chunk buffer):
## a write past it that stays in the struct's padding is invisible to ASan, not to the bounds check.
CLANG        ?= $(dir $(shell command -v $(SWIFT)))clang
FUZZ_DIR      = .build/fuzz
FUZZ_SECONDS ?= 300
FUZZ_BIN      = $(FUZZ_DIR)/tokenizer_fuzz
FUZZ_SOURCES  = Fuzz/tokenizer_fuzz.c $(wildcard Sources/CTokenizer/*.c)

$(FUZZ_BIN): $(FUZZ_SOURCES) $(wildcard Sources/CTokenizer/*.h Sources/CTokenizer/include/*.h) | deps
	@mkdir -p $(FUZZ_DIR)
	$(CLANG) -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -fstrict-flex-arrays=3 \
	  -ISources/CTokenizer/include -ISources/CTokenizer $(FUZZ_SOURCES) -licuuc -o $@

## The token table's sequence lock (ctk.h) as release builds compile it (clang -O2): threads share
## four slots for a few seconds and no copy a reader keeps may mix two writes
## (Stress/seqlock_stress.c; the Swift test of the table can only fail in a release build).
STRESS_BIN    = .build/stress/seqlock_stress
STRESS_SECONDS ?= 3

$(STRESS_BIN): Stress/seqlock_stress.c Sources/CTokenizer/include/ctk.h | deps
	@mkdir -p $(dir $@)
	$(CLANG) -O2 -pthread -Wall -Wextra -ISources/CTokenizer/include Stress/seqlock_stress.c -o $@

stress: $(STRESS_BIN)
	$(STRESS_BIN) $(STRESS_SECONDS)

fuzz-seeds: deps $(FUZZ_BIN)
	@rm -rf $(FUZZ_DIR)/seeds && python3 Fuzz/seeds.py $(FUZZ_DIR)/seeds
	$(FUZZ_BIN) -runs=0 -rss_limit_mb=2048 -artifact_prefix=$(FUZZ_DIR)/ $(FUZZ_DIR)/seeds

fuzz: deps $(FUZZ_BIN)
	@mkdir -p $(FUZZ_DIR)/corpus && python3 Fuzz/seeds.py $(FUZZ_DIR)/seeds
	$(FUZZ_BIN) -max_total_time=$(FUZZ_SECONDS) -artifact_prefix=$(FUZZ_DIR)/ -max_len=4096 -timeout=10 -rss_limit_mb=2048 \
	  -dict=Fuzz/tokenizer.dict $(FUZZ_DIR)/corpus $(FUZZ_DIR)/seeds

## ThreadSanitizer over every Swift test and `sentiment classify --threads 4` on the training
## texts, built in .build-tsan, a build folder of its own (scripts/tsan.sh says which tests it
## leaves out and why). Not part of make test: some 12 minutes to build and 20 to test on two
## cores. Any report fails it, a report of a process a test started too.
tsan: deps
	SWIFT=$(SWIFT) SHARED=$(SHARED) scripts/tsan.sh

## Rebuild the shipped model from the shared data (the exact command behind Models/default).
model: deps
	$(RELEASE) --product sentiment
	$(RELEASE_BIN)/sentiment train --train $(SHARED)/train.tsv --dev $(SHARED)/dev.tsv --out Models/default

## Throughput of every stage and of `sentiment classify` (bench-results/bench.json, Docs/bench.svg);
## bench-peers adds fastText and VADER timed on the same dump (the README's run; PyPI needed once).
BENCH = $(RELEASE_BIN)/Bench --json bench-results/bench.json --svg Docs/bench.svg

bench: build bench-deps
	$(RELEASE) --product Bench
	$(BENCH)

bench-peers: build bench-deps
	$(RELEASE) --product Bench
	$(BENCH) --peers

## The shipped model's metrics on the dev split.
eval: build
	$(RELEASE_BIN)/sentiment eval Models/default $(SHARED)/dev.tsv

clean:
	rm -rf .build .build-tsan
