"""Applying a plan: nothing is written when a target cannot be; a failed step keeps the record."""

from __future__ import annotations

from pathlib import Path

import pytest

from mdsel_claude.setup import cli


def test_failed_claude_add_keeps_the_record(
    fake_claude: Path,
    home: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("FAKE_CLAUDE_FAIL_ADD", "1")
    assert cli.main(["install", "--scope", "user"]) == 1
    assert "failed: add refused" in capsys.readouterr().err
    assert (home / ".claude" / "settings.json").exists()  # written before the server step
    monkeypatch.delenv("FAKE_CLAUDE_FAIL_ADD")
    assert cli.main(["uninstall", "--scope", "user"]) == 0
    assert not (home / ".claude").exists()  # still known as created by install


def test_an_unwritable_target_stops_install_before_anything_is_written(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    Path(".claude").mkdir()
    Path(".claude/settings.json").symlink_to("/nonexistent-dir/settings.json")
    assert cli.main(["install"]) == 1
    err = capsys.readouterr().err
    assert "/nonexistent-dir/settings.json" in err and ".tmp" not in err
    assert not Path(".mcp.json").exists()


def test_a_read_only_settings_file_is_refused(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    Path(".claude").mkdir()
    settings = Path(".claude/settings.json")
    settings.write_text('{"model": "x"}')
    settings.chmod(0o444)
    assert cli.main(["install"]) == 1
    assert "read-only" in capsys.readouterr().err
    assert settings.read_text() == '{"model": "x"}'
    assert not Path(".mcp.json").exists()
