#!/usr/bin/env bash
# Install mdsel-claude into the repository's .venv, then index a real document (this README, or
# FILE, named as from where you stand) and select a section of it; last, say where the commands
# now are and what to do next. The venv is reused while requirements.lock (pinned by hash, so pip
# installs it with --require-hashes) and pyproject.toml are unchanged.
set -euo pipefail
here=$PWD
cd "$(dirname "$0")/.."
root=$PWD
stamp=.venv/.demo-installed
want=$(cat requirements.lock pyproject.toml |
    python3 -c 'import hashlib, sys; print(hashlib.sha256(sys.stdin.buffer.read()).hexdigest())')
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ] || ! .venv/bin/mdsel --version >/dev/null 2>&1; then
    python3 -m venv .venv
    .venv/bin/pip install --quiet --require-hashes -r requirements.lock
    .venv/bin/pip install --quiet --no-deps -e .
    echo "$want" >"$stamp"
fi
bin=$root/.venv/bin
if [ "$#" -gt 0 ]; then
    doc=$1
    cd "$here" # FILE is named from where the user stands
else
    doc=README.md
fi
echo "\$ mdsel index $doc"
"$bin/mdsel" index "$doc"
echo
selector='h2.0?head=12'
if ! "$bin/mdsel" select "$selector" "$doc" >/dev/null 2>&1; then
    selector='root?head=12' # a document without h2 headings
fi
echo "\$ mdsel select '$selector' $doc"
"$bin/mdsel" select "$selector" "$doc"
cat <<EOT

mdsel and mdsel-claude are installed in $bin (not on your PATH). Next:
  $bin/mdsel index FILE.md        any Markdown file, directory or glob
  pipx install $root              both commands on your PATH (or: uv tool install $root)
  mdsel-claude install            then restart claude: the tools and the Read hook in Claude Code
EOT
