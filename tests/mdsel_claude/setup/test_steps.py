"""Applying a plan: nothing is written when a target cannot be."""

from __future__ import annotations

from pathlib import Path

import pytest

from mdsel_claude.setup import cli


def test_an_unwritable_target_stops_install_before_anything_is_written(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    Path(".claude").mkdir()
    Path(".claude/settings.local.json").symlink_to("/nonexistent-dir/settings.local.json")
    assert cli.main(["install"]) == 1
    err = capsys.readouterr().err
    assert "/nonexistent-dir/settings.local.json" in err and ".tmp" not in err
    assert not (home / ".claude.json").exists()


def test_a_read_only_settings_file_is_refused(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    Path(".claude").mkdir()
    settings = Path(".claude/settings.local.json")
    settings.write_text('{"model": "x"}')
    settings.chmod(0o444)
    assert cli.main(["install"]) == 1
    assert "read-only" in capsys.readouterr().err
    assert settings.read_text() == '{"model": "x"}'
    assert not (home / ".claude.json").exists()
