"""Install keeps `.claude/settings.local.json` out of git as Claude Code does: one line in the
user's global git-ignore file, added once, everything else in that file kept."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from mdsel_claude.setup import cli
from mdsel_claude.setup.git_ignore import PATTERN

GIT = shutil.which("git")


def ignore_file(home: Path) -> Path:
    return home / ".config" / "git" / "ignore"


@pytest.fixture
def git_path(home: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """git on PATH (the fixture `home` empties PATH)."""
    if GIT is None:
        pytest.skip("git is not installed")
    monkeypatch.setenv("PATH", str(Path(GIT).parent))
    return GIT


def test_local_scope_adds_the_line_claude_code_writes(home: Path, git_path: str) -> None:
    subprocess.run([git_path, "init", "-q", "."], check=True, env={"HOME": str(home)})
    assert cli.main(["install"]) == 0
    assert ignore_file(home).read_text() == f"{PATTERN}\n"
    status = subprocess.run(
        [git_path, "status", "--porcelain", "--untracked-files=all"],
        capture_output=True, text=True, check=True, env={"HOME": str(home)},
    )  # fmt: skip
    assert status.stdout == ""  # the local settings are not offered for a commit
    assert cli.main(["install"]) == 0  # again: the line is there once
    assert cli.main(["uninstall"]) == 0  # the line stays, as Claude Code's would
    assert ignore_file(home).read_text() == f"{PATTERN}\n"


@pytest.mark.parametrize("before", ["*.log", "*.log\n", "# mine\r\n*.o\r\n", f"x\n  {PATTERN}\n"])
def test_the_users_lines_are_kept_byte_for_byte(home: Path, before: str) -> None:
    ignore_file(home).parent.mkdir(parents=True)
    ignore_file(home).write_bytes(before.encode())
    assert cli.main(["install"]) == 0
    after = ignore_file(home).read_bytes().decode()
    if PATTERN in before:
        assert after == before
    else:
        ending = "\r\n" if "\r\n" in before else "\n"
        assert after == before + ("" if before.endswith("\n") else ending) + PATTERN + ending


def test_the_configured_excludes_file_is_used(home: Path, git_path: str) -> None:
    (home / ".gitconfig").write_text("[core]\n\texcludesfile = ~/my-ignores\n")
    assert cli.main(["install"]) == 0
    assert (home / "my-ignores").read_text() == f"{PATTERN}\n"
    assert not ignore_file(home).exists()


def test_an_unreadable_ignore_file_is_left_alone(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ignore_file(home).parent.mkdir(parents=True)
    ignore_file(home).write_bytes(b"\xff\xfe binary")
    assert cli.main(["install"]) == 0
    assert ignore_file(home).read_bytes() == b"\xff\xfe binary"
    assert f"add the line {PATTERN} to it" in capsys.readouterr().out


def test_other_scopes_and_a_dry_run_leave_it(home: Path, on_path: str) -> None:
    assert cli.main(["install", "--dry-run"]) == 0
    assert cli.main(["install", "--scope", "project"]) == 0
    assert cli.main(["install", "--scope", "user", "--allow-duplicate"]) == 0
    assert not ignore_file(home).exists()
