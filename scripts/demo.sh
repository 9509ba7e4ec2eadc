#!/usr/bin/env bash
# Install mdsel-claude into .venv and show the index of a real document (this README by default).
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
.venv/bin/pip install --quiet -r requirements.lock
.venv/bin/pip install --quiet --no-deps -e .
.venv/bin/mdsel index "${1:-README.md}"
