"""The commands that are no one client's: the Agent Skill in either scope, and `uninstall --all`,
which takes away what the record lists in every scope and client and leaves every other byte."""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from mdsel_claude import dir_lock
from mdsel_claude.setup import any_client, cli, entries, skill
from mdsel_claude.setup.program import find_executable

COPIES = (".claude/skills/mdsel/SKILL.md", ".agents/skills/mdsel/SKILL.md")


def snapshot(root: Path) -> dict[str, bytes | None]:
    """Every file's bytes and every folder (None) under `root`: HOME, project, record."""
    return {
        str(p.relative_to(root)): None if p.is_dir() else p.read_bytes() for p in root.rglob("*")
    }


def record(home: Path) -> Path:
    return home / ".local" / "state" / "mdsel-claude" / "installed.json"


@pytest.fixture(autouse=True)
def state_home(home: Path) -> None:
    """`~/.local/state`, there already as on most systems: the record's own folder in it is
    made and removed with the record (see `ledger.save`), the standard folder is not."""
    (home / ".local" / "state").mkdir(parents=True)


# -- the Agent Skill -------------------------------------------------------------------------


@pytest.mark.parametrize("scope", ["user", "project"])
def test_skill_install_then_uninstall_gives_every_byte_back(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], scope: str
) -> None:
    base = home if scope == "user" else Path.cwd()
    (base / ".claude" / "skills" / "other").mkdir(parents=True)  # the user's own
    (base / ".claude" / "skills" / "other" / "SKILL.md").write_text("---\nname: other\n---\n")
    (base / ".claude" / "settings.json").write_text('{"model": "x"}\n')
    before = snapshot(tmp_path)

    assert any_client.skill_command("install", scope, dry_run=False) == 0
    assert "load it at their next start" in capsys.readouterr().out
    for copy in COPIES:
        assert (base / copy).read_bytes() == skill.SKILL_FILE.read_bytes()
    assert record(home).is_file()
    other = home if scope == "project" else Path.cwd()
    assert not any((other / copy).exists() for copy in COPIES)  # only the scope's own place

    assert any_client.skill_command("uninstall", scope, dry_run=False) == 0
    assert snapshot(tmp_path) == before


def test_skill_dry_runs_change_no_byte(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = snapshot(tmp_path)
    assert any_client.skill_command("install", "user", dry_run=True) == 0
    out = capsys.readouterr().out
    assert snapshot(tmp_path) == before
    assert out and all(line.startswith("would ") for line in out.splitlines())  # named only
    assert "next start" not in out

    assert any_client.skill_command("install", "user", dry_run=False) == 0
    installed = snapshot(tmp_path)
    capsys.readouterr()
    assert any_client.skill_command("uninstall", "user", dry_run=True) == 0
    out = capsys.readouterr().out
    assert snapshot(tmp_path) == installed
    assert out.count("would delete ") == len(COPIES)


def test_a_copy_refused_fails_the_command_but_the_other_is_written(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    theirs = home / COPIES[1]
    theirs.parent.mkdir(parents=True)
    theirs.write_text("---\nname: mdsel\ndescription: mine\n---\n")
    assert any_client.skill_command("install", "user", dry_run=False) == 1
    out = capsys.readouterr().out
    assert "left alone: " in out and "next start" not in out
    assert theirs.read_text() == "---\nname: mdsel\ndescription: mine\n---\n"
    assert (home / COPIES[0]).read_bytes() == skill.SKILL_FILE.read_bytes()


def test_skill_uninstall_with_nothing_installed_says_so(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = snapshot(tmp_path)
    assert any_client.skill_command("uninstall", "project", dry_run=False) == 0
    assert capsys.readouterr().out == "nothing of mdsel-claude's skill is installed there\n"
    assert snapshot(tmp_path) == before


def test_a_scope_the_skill_has_not_is_one_line_and_no_change(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = snapshot(tmp_path)
    assert any_client.skill_command("install", "local", dry_run=False) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err == (
        "mdsel-claude: the skill has no local scope: use --scope user (the default) or project\n"
    )
    assert snapshot(tmp_path) == before


def test_a_record_that_cannot_be_written_stops_the_skill(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    blocker = tmp_path / "state-is-a-file"
    blocker.write_text("")
    monkeypatch.setenv("XDG_STATE_HOME", str(blocker))
    before = snapshot(tmp_path)
    assert any_client.skill_command("install", "user", dry_run=False) == 1
    out, err = capsys.readouterr()
    assert "next start" not in out
    assert err.startswith("mdsel-claude: cannot write the install record") and err.count("\n") == 1
    assert snapshot(tmp_path) == before


# -- uninstall --all -------------------------------------------------------------------------


def _user_files(home: Path, project: Path) -> str:
    """Files of the user's that install adds to; returns a hook of theirs that looks like ours."""
    exe = find_executable()
    lookalike = {**entries.hook_entry(exe, 200), "timeout": 5}  # install never writes a timeout
    (home / ".claude.json").write_text('{\n  "numStartups": 3,\n  "tips": {"a": 1.50}\n}\n')
    (home / ".claude.json").chmod(0o600)
    (home / ".claude").mkdir()
    (home / ".claude" / "settings.json").write_text('{"theme": "dark"}')
    (project / ".claude").mkdir()
    settings = {"hooks": {"PreToolUse": [{"matcher": "Read", "hooks": [lookalike]}]}}
    (project / ".claude" / "settings.json").write_text(json.dumps(settings, indent=4))
    return str(lookalike["command"])


def _install_everywhere() -> None:
    for argv in (
        ["install", "--allow-duplicate"],
        ["install", "--scope", "project", "--allow-duplicate"],
        ["install", "--scope", "user", "--allow-duplicate"],
        ["install", "--client", "gemini"],
        ["install", "--client", "cursor", "--scope", "project"],
        ["install", "--skill"],
        ["install", "--skill", "--scope", "project"],
    ):
        assert cli.main(argv) == 0, argv


def test_uninstall_all_takes_what_the_record_lists_in_every_scope_and_client(
    on_path: str, home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = Path.cwd()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    lookalike = _user_files(home, project)
    before = snapshot(tmp_path)
    _install_everywhere()
    recorded = json.loads(record(home).read_text())
    # ~/.claude.json (two servers), three Claude Code settings files, .mcp.json, Gemini CLI's
    # and Cursor's files, and the four copies of the skill.
    assert len(recorded["files"]) == 11
    capsys.readouterr()

    os.chdir(elsewhere)  # the record says where: not the directory it is run from
    assert any_client.uninstall_all(dry_run=False) == 0
    out, err = capsys.readouterr()
    assert err == ""
    for name in recorded["files"]:
        assert str(name) in out
    # Every byte, folder and the record as before, but for the line that keeps local settings
    # out of git, which stays as Claude Code's own would (see test_git_ignore.py).
    after = snapshot(tmp_path)
    assert after.pop("home/.config/git/ignore") == b"**/.claude/settings.local.json\n"
    assert {
        k: v for k, v in after.items() if k not in ("home/.config", "home/.config/git")
    } == before
    assert lookalike in (project / ".claude" / "settings.json").read_text()


def test_uninstall_all_dry_run_changes_no_byte(
    on_path: str, home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _user_files(home, Path.cwd())
    _install_everywhere()
    installed = snapshot(tmp_path)
    capsys.readouterr()
    assert any_client.uninstall_all(dry_run=True) == 0
    out = capsys.readouterr().out
    assert snapshot(tmp_path) == installed
    assert "would update " in out and "would delete " in out
    assert "would remove empty directory " in out
    assert any_client.uninstall_all(dry_run=False) == 0  # what it showed can then be done
    assert not record(home).exists()


def test_uninstall_all_with_nothing_recorded(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = snapshot(tmp_path)
    assert any_client.uninstall_all(dry_run=False) == 0
    out, err = capsys.readouterr()
    assert out == f"the install record ({record(home)}) lists nothing: nothing to remove\n"
    assert err == ""
    assert snapshot(tmp_path) == before


def test_uninstall_all_keeps_a_folder_it_made_that_holds_something_else(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["install", "--client", "gemini"]) == 0
    (home / ".gemini" / "notes.md").write_text("mine")
    assert any_client.uninstall_all(dry_run=False) == 0
    assert sorted(os.listdir(home / ".gemini")) == ["notes.md"]
    assert f"kept {home / '.gemini'} (not empty)" in capsys.readouterr().out
    assert not record(home).exists()  # forgotten: uninstall never owns it again


# -- one at a time ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "command",
    [
        lambda: any_client.skill_command("install", "user", dry_run=False),
        lambda: any_client.uninstall_all(dry_run=False),
    ],
    ids=["skill", "uninstall-all"],
)
def test_each_command_waits_for_the_one_running(
    home: Path, tmp_path: Path, command: Callable[[], int]
) -> None:
    assert cli.main(["install", "--client", "gemini"]) == 0
    status: list[int] = []
    with dir_lock.exclusive(home):  # another command, running
        before = snapshot(tmp_path)
        thread = threading.Thread(target=lambda: status.append(command()))
        thread.start()
        thread.join(0.5)
        assert thread.is_alive() and snapshot(tmp_path) == before
    thread.join(30)
    assert status == [0] and snapshot(tmp_path) != before
