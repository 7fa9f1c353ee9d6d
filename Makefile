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
APT_PACKAGES  = libicu-dev libblas-dev libopenblas0-pthread libsqlite3-dev
SUDO         := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: all deps build demo test model eval bench bench-peers clean

all: build

## Install the system packages that are missing.
deps:
	@missing=""; for p in $(APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "make: installing$$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi

## Release build of the command line.
build: deps
	$(RELEASE) --product sentiment

## The main job on the shipped model: classify the sample dump, then a user's timeline from the sample archive.
demo: build
	@echo "== sentiment classify Examples/tweets.txt"
	$(RELEASE_BIN)/sentiment classify Examples/tweets.txt
	@echo
	@echo "== sentiment tweets sunnydays --archive Examples/archive/sunnydays (offline, a throwaway database)"
	@db=$$(mktemp -d)/demo.sqlite; \
	  $(RELEASE_BIN)/sentiment tweets sunnydays --archive Examples/archive/sunnydays --db $$db --limit 8

## Every test: builds all targets (Bench included, so it keeps compiling), runs the Swift
## tests, then the web page's tests in headless Chromium (which install Chromium and
## Selenium when missing).
test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build
	SENTIMENT_BIN="$$($(SWIFT) build --show-bin-path)/sentiment" scripts/browser-tests.sh

## Rebuild the shipped model from the shared data (the exact command behind Models/default).
model: deps
	$(RELEASE) --product sentiment
	$(RELEASE_BIN)/sentiment train --train $(SHARED)/train.tsv --dev $(SHARED)/dev.tsv --out Models/default

## Throughput of every stage and of `sentiment classify` (bench-results/bench.json, Docs/bench.svg);
## bench-peers adds fastText and VADER timed on the same dump (the README's run; PyPI needed once).
BENCH = $(RELEASE_BIN)/Bench --json bench-results/bench.json --svg Docs/bench.svg

bench: build
	$(RELEASE) --product Bench
	$(BENCH)

bench-peers: build
	$(RELEASE) --product Bench
	$(BENCH) --peers

## The shipped model's metrics on the dev split.
eval: build
	$(RELEASE_BIN)/sentiment eval Models/default $(SHARED)/dev.tsv

clean:
	rm -rf .build
