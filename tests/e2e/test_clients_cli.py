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
    lines = mdsel_lines(run([program, "mcp", "list"], env, project))
    assert any("mdsel-claude" in line and connected in line for line in lines) or (
        # OpenCode prints the command on the line after the name.
        name == "opencode" and any(connected in line for line in lines)
    ), lines

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
