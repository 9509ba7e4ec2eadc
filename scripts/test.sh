#!/usr/bin/env bash
# Install everything the tests need into .venv (pinned in requirements-dev.lock), then run lint, types and the suite.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
.venv/bin/pip install --quiet -r requirements-dev.lock
.venv/bin/pip install --quiet --no-deps -e .
# The locked runtime wheels, kept in .wheelhouse so the plugin test provisions without the
# network: offline when they are all there already, else downloaded once.
.venv/bin/pip download --quiet --no-index --find-links .wheelhouse -d .wheelhouse \
    -r requirements.lock >/dev/null 2>&1 ||
    .venv/bin/pip download --quiet -d .wheelhouse -r requirements.lock
# The MCP clients the end-to-end tests drive, at the versions locked in tools/clients (skipped
# when already installed from this lock; without npm their tests are skipped and say why).
if command -v npm >/dev/null 2>&1 &&
    ! cmp -s tools/clients/package-lock.json tools/clients/node_modules/.installed-lock; then
    (cd tools/clients && npm install --no-save --no-audit --no-fund --loglevel=error &&
        cp package-lock.json node_modules/.installed-lock) ||
        echo "scripts/test.sh: could not install tools/clients; those tests will be skipped" >&2
fi
.venv/bin/ruff check src tests bench
.venv/bin/ruff format --check src tests bench
.venv/bin/mypy
.venv/bin/pytest -n 2 "$@"
