#!/bin/sh
# Browser tests of `sentiment serve`'s web page in headless Chromium (Tests/Browser/browser_tests.py).
#
# Installs what is missing — Debian's chromium, chromium-driver, fonts-noto-color-emoji (and python3-venv)
# (apt), Selenium in .venv-browser (pip) — builds the command line unless SENTIMENT_BIN
# names one, then runs the tests. Screenshots go to test-artifacts/browser/.
#
#   scripts/browser-tests.sh                      # every test
#   scripts/browser-tests.sh --docs-screenshots   # also refresh Docs/screenshots/*.png
#
# Environment: SWIFT (default swift), SENTIMENT_BIN (a built executable),
# SENTIMENT_MODEL (a model directory; default Models/default).
set -eu
cd "$(dirname "$0")/.."

SWIFT=${SWIFT:-swift}
SUDO=$([ "$(id -u)" = 0 ] || echo sudo)
VENV=.venv-browser

missing=""
# python3 with venv and pip (Debian splits them out of python3); a python3 of
# another origin that already has them is used as it is.
if ! python3 -c 'import venv, ensurepip' >/dev/null 2>&1; then
  missing="$missing python3 python3-venv"
fi
for package in chromium chromium-driver fonts-noto-color-emoji; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing="$missing $package"
done
if [ -n "$missing" ]; then
  echo "browser-tests: installing$missing"
  $SUDO apt-get update -qq
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing
fi

if ! "$VENV/bin/python" -c "import selenium" >/dev/null 2>&1; then
  echo "browser-tests: installing selenium into $VENV"
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install -q "selenium>=4.20,<5"
fi

if [ -z "${SENTIMENT_BIN:-}" ]; then
  $SWIFT build --product sentiment
  SENTIMENT_BIN="$($SWIFT build --show-bin-path)/sentiment"
fi

model=""
if [ -n "${SENTIMENT_MODEL:-}" ]; then model="--model $SENTIMENT_MODEL"; fi

# shellcheck disable=SC2086 # $model is empty or two words
exec "$VENV/bin/python" Tests/Browser/browser_tests.py --sentiment "$SENTIMENT_BIN" $model "$@"
