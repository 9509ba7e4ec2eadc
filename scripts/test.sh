#!/usr/bin/env bash
# Install everything the tests need into .venv (pinned in requirements-dev.lock), then run lint,
# types and the suite. With no arguments it also builds the sdist and wheel, checks them with
# twine, installs the wheel into a fresh venv (.venv-wheel) and runs the end-to-end tests against
# that installed copy; with arguments, they go to pytest and only that selection runs.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
# The locked wheels are downloaded once into .wheelhouse; every install (this venv, the wheel's,
# and the pipx, uv and fresh-clone tests) then comes from there, without the network.
wheels=(--no-index --find-links .wheelhouse)
.venv/bin/pip download --quiet "${wheels[@]}" -d .wheelhouse -r requirements-dev.lock \
    >/dev/null 2>&1 || .venv/bin/pip download --quiet -d .wheelhouse -r requirements-dev.lock
.venv/bin/pip install --quiet "${wheels[@]}" -r requirements-dev.lock
.venv/bin/pip install --quiet "${wheels[@]}" --no-deps -e .
# The MCP clients the end-to-end tests drive, at the versions locked in tools/clients (skipped
# when already installed from this lock; without npm their tests are skipped and say why).
if command -v npm >/dev/null 2>&1 &&
    ! cmp -s tools/clients/package-lock.json tools/clients/node_modules/.installed-lock; then
    (cd tools/clients && npm install --no-save --no-audit --no-fund --loglevel=error &&
        cp package-lock.json node_modules/.installed-lock) ||
        echo "scripts/test.sh: could not install tools/clients; those tests will be skipped" >&2
fi
.venv/bin/ruff check src tests bench scripts
.venv/bin/ruff format --check src tests bench scripts
.venv/bin/mypy
if [ "$#" -gt 0 ]; then
    exec .venv/bin/pytest -n 2 "$@"
fi
rm -rf build/dist .venv-wheel
.venv/bin/python -m build --no-isolation --outdir build/dist . >/dev/null
.venv/bin/twine check --strict build/dist/*
python3 -m venv .venv-wheel
.venv-wheel/bin/pip install --quiet "${wheels[@]}" build/dist/*.whl
MDSEL_TEST_BIN_DIR="$PWD/.venv-wheel/bin" .venv/bin/pytest -n 2
