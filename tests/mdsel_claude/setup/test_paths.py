"""Where setup works: Claude Code's user file, as Claude Code chooses it."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from mdsel_claude.setup import cli, paths


def test_the_user_file_is_claude_json_without_a_legacy_one(home: Path) -> None:
    assert paths.user_state_file({}) == home / ".claude.json"
    assert paths.user_state_file({"CLAUDE_CONFIG_DIR": "/c"}) == Path("/c/.claude.json")


def test_a_legacy_config_json_that_is_not_empty_is_the_user_file(home: Path) -> None:
    legacy = home / ".claude" / ".config.json"
    legacy.parent.mkdir()
    legacy.write_text('{"numStartups": 3}')
    (home / ".claude.json").write_text("{}")
    assert paths.user_state_file({}) == legacy  # even with .claude.json there
    folder = home / "c"
    folder.mkdir()
    assert paths.user_state_file({"CLAUDE_CONFIG_DIR": str(folder)}) == folder / ".claude.json"
    (folder / ".config.json").write_text("{}")
    assert paths.user_state_file({"CLAUDE_CONFIG_DIR": str(folder)}) == folder / ".config.json"


def test_an_empty_legacy_config_json_counts_only_without_a_user_file(home: Path) -> None:
    legacy = home / ".claude" / ".config.json"
    legacy.parent.mkdir()
    legacy.write_text("")
    assert paths.user_state_file({}) == legacy  # writable, and no .claude.json
    (home / ".claude.json").write_text("{}")
    assert paths.user_state_file({}) == home / ".claude.json"
    os.chmod(legacy, 0o444)
    (home / ".claude.json").unlink()
    assert paths.user_state_file({}) == home / ".claude.json"  # empty and read-only: ignored
    os.chmod(legacy, 0o644)
    legacy.unlink()
    legacy.mkdir()  # not a file
    assert paths.user_state_file({}) == home / ".claude.json"


def test_install_and_doctor_use_the_legacy_file_claude_code_reads(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    legacy = home / ".claude" / ".config.json"
    legacy.parent.mkdir()
    legacy.write_text('{"numStartups": 3}')
    assert cli.main(["install", "--scope", "user"]) == 0
    assert "mdsel" in json.loads(legacy.read_text())["mcpServers"]
    assert json.loads(legacy.read_text())["numStartups"] == 3
    assert not (home / ".claude.json").exists()
    capsys.readouterr()
    assert cli.main(["doctor"]) == 0, capsys.readouterr().out
    assert cli.main(["uninstall", "--scope", "user"]) == 0
    assert json.loads(legacy.read_text()) == {"numStartups": 3}
