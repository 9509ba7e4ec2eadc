"""Applying a plan: nothing is written when a target or the record cannot be; a failed step is
undone."""

from __future__ import annotations

import os
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


def test_an_unwritable_record_stops_install_before_anything_is_written(
    home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (home / "state").write_text("a file where the state directory should be")
    monkeypatch.setenv("XDG_STATE_HOME", str(home / "state"))
    assert cli.main(["install"]) == 1
    assert "cannot write the install record" in capsys.readouterr().err
    assert list(Path.cwd().iterdir()) == []
    assert sorted(p.name for p in home.iterdir()) == ["state"]


def test_a_failed_write_puts_back_files_and_record(
    home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    original = b'{"numStartups": 1E2, "projects": {}}'
    (home / ".claude.json").write_bytes(original)
    record = home / ".local" / "state" / "mdsel-claude" / "installed.json"
    real_replace = os.replace

    def replace_fails_for_settings(src: str, dst: str) -> None:
        if str(dst).endswith("settings.local.json"):
            raise OSError(28, "No space left on device")
        real_replace(src, dst)

    with monkeypatch.context() as patched:
        patched.setattr(os, "replace", replace_fails_for_settings)
        assert cli.main(["install"]) == 1  # ~/.claude.json written, then the settings fail
    assert "No space left on device" in capsys.readouterr().err
    assert (home / ".claude.json").read_bytes() == original
    assert list(Path.cwd().iterdir()) == []  # no .claude left
    assert not record.exists()
    assert cli.main(["install"]) == 0
    assert cli.main(["uninstall"]) == 0
    assert (home / ".claude.json").read_bytes() == original
