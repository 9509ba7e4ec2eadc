#!/usr/bin/env bash
# Install everything the tests need into .venv (pinned in requirements-dev.lock), then run lint, types and the suite.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
.venv/bin/pip install --quiet -r requirements-dev.lock
.venv/bin/pip install --quiet --no-deps -e .
.venv/bin/ruff check src tests bench scripts
.venv/bin/ruff format --check src tests bench scripts
.venv/bin/mypy
.venv/bin/pytest -n 2 "$@"
