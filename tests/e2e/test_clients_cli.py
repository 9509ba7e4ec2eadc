"""`install --client` against the real Gemini CLI, Codex CLI and OpenCode (pinned in
tools/clients; skipped, saying why, when they are not installed).

Each client reads the file install wrote and lists the server: Gemini CLI and OpenCode also
start it and report it connected (Codex CLI's list does not connect). After uninstall the
client no longer lists it. HOME is a temporary directory; nothing uses the network.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import environ_without
from tests.e2e.test_claude_cli import client

ANSI = re.compile(r"\x1b\[[0-9;]*m")


def run(argv: list[str], env: dict[str, str], cwd: Path) -> str:
    done = subprocess.run(
        argv, env=env, cwd=cwd, capture_output=True, text=True, timeout=120, check=False
    )
    return ANSI.sub("", done.stdout + done.stderr)


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    scripts = Path(sys.executable).parent
    if not (scripts / "mdsel-claude").exists():
        pytest.skip("the mdsel-claude script is not installed (pip install -e .)")
    home = tmp_path / "home"
    home.mkdir()
    (tmp_path / "project").mkdir()
    environ = environ_without("XDG_", "CODEX_", "GEMINI_", "OPENCODE", "MDSEL_")
    environ["HOME"] = str(home)
    environ["PATH"] = os.pathsep.join([str(scripts), "/usr/bin", "/bin"])
    # With our plugin in its folder, OpenCode first npm-installs its own plugin package there;
    # offline, npm's retries would hold each start for a minute: fail that install at once.
    environ["npm_config_offline"] = "true"
    return environ


def mdsel_lines(listing: str) -> list[str]:
    return [line for line in listing.splitlines() if re.search(r"\bmdsel\b", line)]


@pytest.mark.parametrize(
    ("name", "cli", "connected"),
    [
        ("gemini", "gemini", "Connected"),
        ("opencode", "opencode", "connected"),
        ("codex", "codex", "enabled"),
    ],
)
def test_client_lists_the_installed_server(
    env: dict[str, str], tmp_path: Path, name: str, cli: str, connected: str
) -> None:
    program = client(cli)
    project = tmp_path / "project"
    home = Path(env["HOME"])
    if name == "gemini":
        # Gemini CLI starts no server in a folder the user has not trusted.
        (home / ".gemini").mkdir()
        trusted = {str(project): "TRUST_FOLDER"}
        (home / ".gemini" / "trustedFolders.json").write_text(json.dumps(trusted))
    installed = subprocess.run(
        ["mdsel-claude", "install", "--client", name],
        env=env,
        cwd=project,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert installed.returncode == 0, installed.stderr

    def listed() -> list[str]:
        return mdsel_lines(run([program, "mcp", "list"], env, project))

    def is_connected(lines: list[str]) -> bool:
        return any("mdsel-claude" in line and connected in line for line in lines) or (
            # OpenCode prints the command on the line after the name.
            name == "opencode" and any(connected in line for line in lines)
        )

    lines = listed()
    for _retry in range(2):
        # Gemini CLI's `mcp list` gives a server 5 s to connect (its entry's `timeout` aside),
        # which a loaded machine's first start can take: asked again, it is warm.
        if is_connected(lines) or name != "gemini":
            break
        lines = listed()
    assert is_connected(lines), lines

    removed = subprocess.run(
        ["mdsel-claude", "uninstall", "--client", name],
        env=env,
        cwd=project,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert removed.returncode == 0, removed.stderr
    assert mdsel_lines(run([program, "mcp", "list"], env, project)) == []


LAYOUTS = [
    # (user file, {project folder: its .codex/config.toml}, start folder, .git at the root: a
    # repository, a worktree's file, an empty folder or none)
    ("{trust}", {".": "[features]\nhooks = false\n"}, ".", "repo"),
    ("{trust}", {".": "[features]\nhooks = false\n"}, "sub", "repo"),
    (
        "{trust}",
        {".": "[features]\nhooks = false\n", "sub": "[features]\nhooks = true\n"},
        "sub",
        "repo",
    ),
    ("", {".": "[features]\nhooks = false\n"}, ".", "repo"),  # not trusted: not read
    ("[features]\nhooks = false\n{trust}", {".": "[features]\nhooks = true\n"}, ".", "repo"),
    ("[features]\ncodex_hooks = false\n{trust}", {}, "sub", "repo"),
    ("{trust}", {".": "[features]\nhooks = false\n"}, "sub", ""),  # root is the start folder
    ("{trust}", {".": "[features]\ncodex_hooks = false\n"}, ".", ""),
    ("{trust}", {".": "[features]\nhooks = false\n"}, "sub", "file"),
    ("{trust}", {".": "[features]\nhooks = false\n"}, "sub", "empty"),  # no repository
    # `hooks` in any file beats `codex_hooks` in any other.
    ("[features]\nhooks = false\n{trust}", {".": "[features]\ncodex_hooks = true\n"}, ".", "repo"),
    ("[features]\nhooks = true\n{trust}", {".": "[features]\ncodex_hooks = false\n"}, ".", "repo"),
]


@pytest.mark.parametrize(("user", "projects", "start", "git"), LAYOUTS)
def test_codex_hooks_switch_is_read_from_the_files_codex_reads(
    env: dict[str, str],
    tmp_path: Path,
    user: str,
    projects: dict[str, str],
    start: str,
    git: str,
) -> None:
    # doctor's reading of which file switches hooks off, against `codex features list`.
    from mdsel_claude.setup.clients.codex import config_layers, config_toml

    program = client("codex")
    root = tmp_path / "project"
    (root / "sub").mkdir()
    if git == "file":
        (root / ".git").write_text("gitdir: /elsewhere/.git/worktrees/project\n")
    elif git:
        (root / ".git").mkdir()
        if git == "repo":
            (root / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    codex_home = Path(env["HOME"]) / ".codex"
    codex_home.mkdir()
    trust = f'[projects."{root}"]\ntrust_level = "trusted"\n'
    (codex_home / "config.toml").write_text(user.format(trust=trust))
    for folder, text in projects.items():
        (root / folder / ".codex").mkdir()
        (root / folder / ".codex" / "config.toml").write_text(text)
    started = (root / start).resolve()
    listing = run([program, "features", "list"], env, started)
    shown = re.search(r"^hooks\s+\S+\s+(true|false)\s*$", listing, re.MULTILINE)
    assert shown is not None, listing
    user_file = codex_home / "config.toml"
    user_doc = config_toml.plain_values(user_file)
    layers: list[tuple[Path, object]] = [(user_file, user_doc)]
    for path in config_layers.project_files(user_doc, started):
        layers.append((path, config_toml.plain_values(path)))
    switch = config_layers.deciding(layers)
    assert (switch is None or switch[2]) == (shown.group(1) == "true")
