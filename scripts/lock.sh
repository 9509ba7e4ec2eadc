#!/usr/bin/env bash
# Refresh requirements.lock, the dependencies the plugin's server installs on its first start
# (and scripts/demo.sh): every package pinned to one version and to the sha256 of every file
# the package index offers for that version (wheels for every platform, and the sdist), so pip
# installs with --require-hashes and a substituted file is refused. Resolved once for every
# platform and Python this project supports (uv's universal resolution, from pyproject.toml).
# The pins already in the lock are kept; to move them, pass uv's own options:
#   scripts/lock.sh                        # keep the versions, add what changed in pyproject.toml
#   scripts/lock.sh --upgrade              # newest versions allowed by pyproject.toml
#   scripts/lock.sh --upgrade-package mcp  # just one
# Then update requirements-dev.lock to the same versions (scripts/test.sh fills .wheelhouse
# from both, and the plugin's offline test installs this lock from there).
set -euo pipefail
cd "$(dirname "$0")/.."
uv=${UV:-.venv/bin/uv}
[ -x "$uv" ] || uv=$(command -v uv) || {
    echo "scripts/lock.sh: needs uv (scripts/test.sh installs it into .venv)" >&2
    exit 1
}
# The oldest Python the lock is resolved for (pyromark 0.10 needs 3.11).
python=3.11
"$uv" pip compile pyproject.toml --universal --python-version "$python" --generate-hashes \
    --no-header --quiet --output-file requirements.lock "$@"
header="# The server's dependencies, pinned by version and by hash: pip installs them with
# --require-hashes (the plugin's first start, scripts/demo.sh), so a file whose sha256 is not
# listed here is refused. Each package lists the hash of every file the package index offers
# for its version (all platforms, wheels and sdist), from a universal resolution of
# pyproject.toml for Python >= $python; the markers after ';' keep each pin to the platforms
# that need it.
# Generated: refresh with scripts/lock.sh (never by hand)."
{ echo "$header" && cat requirements.lock; } >requirements.lock.new
mv requirements.lock.new requirements.lock
