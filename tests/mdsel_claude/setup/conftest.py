"""Fixtures for the setup tests: a fake HOME and project, `mdsel-claude` on PATH or not."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest

from mdsel_claude.setup import jsonfile, managed
from mdsel_claude.setup.jsonfile import JSONObject
from mdsel_claude.setup.program import find_executable


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fake HOME with no `claude` on PATH, and the project directory as cwd."""
    home = tmp_path / "home"
    home.mkdir()
    project = tmp_path / "project"
    project.mkdir()
    monkeypatch.setenv("HOME", str(home))
    # The checkout may itself lie in the temporary directory (a clean clone on a CI runner),
    # where setup takes an executable for short-lived: the temporary directory of a test is
    # one of its own, so only what the test puts there counts as short-lived.
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    monkeypatch.setenv("TMPDIR", str(scratch))
    monkeypatch.setenv("PATH", str(tmp_path / "empty-bin"))
    # Every variable that moves a client's files elsewhere: one set in the developer's shell
    # would send the test's writes beside their real configuration.
    moved = [
        "XDG_STATE_HOME",
        "XDG_CONFIG_HOME",
        "XDG_CACHE_HOME",
        "CLAUDE_CONFIG_DIR",
        "CODEX_HOME",
        "GEMINI_CLI_HOME",
        "COPILOT_HOME",
        "QWEN_HOME",
        "CLINE_DIR",
        "FACTORY_HOME_OVERRIDE",
        "PIPX_HOME",
        "OPENCODE_CONFIG",
        "OPENCODE_CONFIG_DIR",
        "OPENCODE_CONFIG_CONTENT",
        "OPENCODE_DISABLE_CLAUDE_CODE",
        "OPENCODE_DISABLE_CLAUDE_CODE_PROMPT",
    ]
    for name in (*moved, "MDSEL_MIN_WORDS"):
        monkeypatch.delenv(name, raising=False)
    # doctor waits for a server as long as Claude Code would (MCP_TIMEOUT): on a loaded machine
    # starting one can take longer than its default 30 s, which is not what these tests check.
    monkeypatch.setenv("MCP_TIMEOUT", "300000")
    # Claude Code's managed settings: a folder of the test's own, empty unless a test fills it.
    monkeypatch.setattr(managed, "managed_dir", lambda: tmp_path / "managed")
    monkeypatch.chdir(project)
    return home


@pytest.fixture
def on_path(home: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """`mdsel-claude` on PATH (as project scope requires); returns its absolute path."""
    exe = find_executable()
    monkeypatch.setenv("PATH", os.path.dirname(exe))
    return exe


def claude_json(home: Path) -> JSONObject | None:
    """The user's `~/.claude.json`, parsed; None when absent."""
    path = home / ".claude.json"
    return jsonfile.load(path) if path.exists() else None
