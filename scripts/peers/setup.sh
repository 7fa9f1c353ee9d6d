#!/usr/bin/env bash
# Makes the peers' Python environment for `Bench --peers`: fastText and VADER from PyPI.
#
#   scripts/peers/setup.sh            # creates or refreshes <repo>/.venv-peers
#   PEERS_VENV=/tmp/v scripts/peers/setup.sh
#
# Prints the environment's python path on the last line of standard output.
# fastText: `fasttext-wheel` ships prebuilt manylinux wheels (the `fasttext`
# sdist needs a C++ build); its bindings predate NumPy 2, so NumPy is pinned < 2.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
venv="${PEERS_VENV:-$root/.venv-peers}"
python="${PYTHON:-python3}"

if ! "$python" -c 'import venv, ensurepip' 2>/dev/null; then
    echo "peers: $python cannot make a virtual environment with pip (apt-get install -y python3-venv)" >&2
    exit 1
fi
# A venv whose making failed half-way (no ensurepip at the time) has a python but no pip:
# make it again rather than fail on it every run.
if [ -x "$venv/bin/python" ] && ! "$venv/bin/python" -m pip --version >/dev/null 2>&1; then
    echo "peers: $venv has no pip, making it again" >&2
    rm -rf "$venv"
fi
if [ ! -x "$venv/bin/python" ]; then
    echo "peers: creating $venv" >&2
    "$python" -m venv "$venv"
fi
if ! "$venv/bin/python" -c 'import fasttext, vaderSentiment, numpy' 2>/dev/null; then
    echo "peers: installing fasttext-wheel, vaderSentiment, numpy<2" >&2
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
        'numpy<2' 'fasttext-wheel==0.9.2' 'vaderSentiment==3.3.2' >&2
fi
"$venv/bin/python" -c 'import fasttext, vaderSentiment, numpy; print("peers: numpy", numpy.__version__)' >&2
echo "$venv/bin/python"
