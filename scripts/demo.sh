#!/usr/bin/env bash
# Install mdsel-claude into .venv, then index a real document (this README by default) and select
# a section of it. The venv is reused while requirements.lock and pyproject.toml are unchanged.
set -euo pipefail
cd "$(dirname "$0")/.."
doc="${1:-README.md}"
stamp=.venv/.demo-installed
want=$(cat requirements.lock pyproject.toml |
    python3 -c 'import hashlib, sys; print(hashlib.sha256(sys.stdin.buffer.read()).hexdigest())')
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ] || ! .venv/bin/mdsel --version >/dev/null 2>&1; then
    python3 -m venv .venv
    .venv/bin/pip install --quiet -r requirements.lock
    .venv/bin/pip install --quiet --no-deps -e .
    echo "$want" >"$stamp"
fi
echo "\$ mdsel index $doc"
.venv/bin/mdsel index "$doc"
echo
selector='h2.0?head=12'
if ! .venv/bin/mdsel select "$selector" "$doc" >/dev/null 2>&1; then
    selector='root?head=12' # a document without h2 headings
fi
echo "\$ mdsel select '$selector' $doc"
.venv/bin/mdsel select "$selector" "$doc"
