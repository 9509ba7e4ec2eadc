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
# The server's lock too, by hash (the plugin test and scripts/demo.sh install it from here).
.venv/bin/pip download --quiet "${wheels[@]}" -d .wheelhouse -r requirements.lock \
    >/dev/null 2>&1 || .venv/bin/pip download --quiet -d .wheelhouse -r requirements.lock
.venv/bin/pip install --quiet "${wheels[@]}" -r requirements-dev.lock
.venv/bin/pip install --quiet "${wheels[@]}" --no-deps -e .
# The agent CLIs the end-to-end tests drive (Claude Code, Gemini CLI, Codex CLI, OpenCode, Copilot
# CLI, Cline, Qwen Code, Factory Droid), at the versions locked in tools/clients: about 2.2 GB in
# tools/clients/node_modules, installed once and kept while the lock is unchanged. MDSEL_TEST_SKIP_CLIS=1 installs none of them, and their
# tests skip saying so; without npm they are skipped too. CI installs them.
clients_mb=2200 # what they take on disk (du -sm tools/clients/node_modules), checked by a test
install_clients() {
    local names npm_pid waited=0
    names=$(.venv/bin/python -c 'import json
deps = json.load(open("tools/clients/package.json"))["dependencies"]
print(", ".join(f"{name}@{version}" for name, version in deps.items()))')
    echo "scripts/test.sh: installing the agent CLIs the end-to-end tests drive ($names)," \
        "about $clients_mb MB, into tools/clients/node_modules with npm; MDSEL_TEST_SKIP_CLIS=1" \
        "skips them and their tests" >&2
    (cd tools/clients && npm install --no-save --no-audit --no-fund --loglevel=error) &
    npm_pid=$!
    while kill -0 "$npm_pid" 2>/dev/null; do
        sleep 1
        waited=$((waited + 1))
        if [ $((waited % 10)) -eq 0 ] && kill -0 "$npm_pid" 2>/dev/null; then
            echo "scripts/test.sh: agent CLIs: $(du -sm tools/clients/node_modules 2>/dev/null |
                cut -f1) of about $clients_mb MB after ${waited}s" >&2
        fi
    done
    wait "$npm_pid" && cp tools/clients/package-lock.json tools/clients/node_modules/.installed-lock
}
if [ -n "${MDSEL_TEST_SKIP_CLIS:-}" ]; then
    echo "scripts/test.sh: MDSEL_TEST_SKIP_CLIS is set: no agent CLI is installed, and the" \
        "end-to-end tests that drive one are skipped" >&2
elif ! command -v npm >/dev/null 2>&1; then
    echo "scripts/test.sh: no npm: the agent CLIs are not installed, and the end-to-end" \
        "tests that drive one are skipped" >&2
elif ! cmp -s tools/clients/package-lock.json tools/clients/node_modules/.installed-lock; then
    install_clients ||
        echo "scripts/test.sh: could not install tools/clients; those tests will be skipped" >&2
fi
# The Claude tokenizer the benchmarks and tests count tokens with: tokenizer.json inside this
# wheel, only downloaded, never installed (without it the token counts are skipped and say why).
tokenizer=(--only-binary :all: --no-deps -d .wheelhouse anthropic==0.34.2)
.venv/bin/pip download --quiet "${wheels[@]}" "${tokenizer[@]}" >/dev/null 2>&1 ||
    .venv/bin/pip download --quiet "${tokenizer[@]}" ||
    echo "scripts/test.sh: could not download anthropic==0.34.2; token counts will be skipped" >&2
# Real documentation trees too large to vendor, pinned in tools/trees/trees.lock: each tarball
# is fetched once into .trees/ (npm pack, or curl without npm), its sha512 checked against the
# lock, then its Markdown unpacked into .trees/NAME; .trees/NAME/.integrity says it is done.
sha512() {
    .venv/bin/python -c 'import base64, hashlib, sys
data = open(sys.argv[1], "rb").read()
print("sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode())' "$1"
}
unpack() { # tarball dir: its Markdown, licence and package.json, without the package/ prefix
    .venv/bin/python - "$1" "$2" <<'EOF'
import sys, tarfile
keep = ("LICENSE", "NOTICE", "package.json")
with tarfile.open(sys.argv[1]) as archive:
    members = [m for m in archive.getmembers() if m.isfile() and m.name.startswith("package/")]
    members = [m for m in members if m.name.endswith(".md") or m.name[8:] in keep]
    for member in members:
        member.name = member.name[8:]
    safe = {"filter": "data"} if hasattr(tarfile, "data_filter") else {}
    archive.extractall(sys.argv[2], members, **safe)
EOF
}
fetch_tree() { # spec url integrity
    local name dir tarball
    name=${1#@} && name=${name//\//-} && name=.trees/${name/@/-} # @a/b@1 -> .trees/a-b-1
    dir=$name tarball=$name.tgz
    [ "$(cat "$dir/.integrity" 2>/dev/null)" = "$3" ] && return 0
    mkdir -p .trees
    if [ ! -f "$tarball" ] || [ "$(sha512 "$tarball")" != "$3" ]; then
        rm -f "$tarball"
        if command -v npm >/dev/null 2>&1; then
            npm pack "$1" --pack-destination .trees --loglevel=error >/dev/null || return 1
        elif command -v curl >/dev/null 2>&1; then
            curl -fsSL -o "$tarball" "$2" || return 1
        else
            return 1
        fi
        echo "scripts/test.sh: downloaded $1 ($(($(wc -c <"$tarball") / 1024)) KiB) into" \
            "$tarball; unpacking its Markdown into $dir/" >&2
        [ "$(sha512 "$tarball")" = "$3" ] || { rm -f "$tarball" && return 1; }
    fi
    rm -rf "$dir" "$dir.part" && unpack "$tarball" "$dir.part" &&
        echo "$3" >"$dir.part/.integrity" && mv "$dir.part" "$dir"
}
while read -r spec url integrity <&3; do
    case "$spec" in '' | '#'*) continue ;; esac
    fetch_tree "$spec" "$url" "$integrity" ||
        echo "scripts/test.sh: could not fetch $spec (or it failed its sha512 check against" \
            "tools/trees/trees.lock); the tests that need it will be skipped" >&2
done 3<tools/trees/trees.lock
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
