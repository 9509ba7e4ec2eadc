"""The folders install makes: made only when missing, never the home, noted in the record; taken
away only when noted and left empty by the steps, innermost first."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

import pytest

from mdsel_claude.setup import dirs, paths
from mdsel_claude.setup.ledger import InstallRecord
from mdsel_claude.setup.steps import DeleteFile, MakeDir, Plan, RemoveDir, Step, apply


def carry(tmp_path: Path, steps: Sequence[Step], state: InstallRecord) -> None:
    """Take the steps for real (the record beside the test's files, never the user's)."""
    apply(Plan(tuple(steps), state, tmp_path / "state" / "installed.json"), [])


def tree(root: Path) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*"))


# -- Claude Code's scopes --------------------------------------------------------------------


def test_scope_dirs_are_made_only_when_missing_and_noted(home: Path) -> None:
    project = Path.cwd()
    where = paths.locations("project", project, {})
    steps, state = dirs.with_scope_dirs(where, InstallRecord())
    assert steps == [MakeDir(project / ".claude")]  # the project root is there already
    assert state.dirs == (str(project / ".claude"),)

    (project / ".claude").mkdir()
    before = InstallRecord(dirs=("/elsewhere",))
    steps, state = dirs.with_scope_dirs(where, before)
    assert steps == [] and state == before  # one that was there is never noted as made


@pytest.mark.parametrize("config_dir", [None, "elsewhere"])
def test_user_scope_makes_its_folder_once_and_never_the_home(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, config_dir: str | None
) -> None:
    environ = {"CLAUDE_CONFIG_DIR": str(home / config_dir)} if config_dir else {}
    folder = home / (config_dir or ".claude")
    steps, state = dirs.with_scope_dirs(
        paths.locations("user", Path.cwd(), environ), InstallRecord()
    )
    # With CLAUDE_CONFIG_DIR both files are in one folder: it is made (and noted) once.
    assert steps == [MakeDir(folder)] and state.dirs == (str(folder),)

    missing_home = tmp_path / "no-home"
    monkeypatch.setenv("HOME", str(missing_home))
    where = paths.locations("user", Path.cwd(), {})
    assert where.mcp_config.parent == missing_home
    steps, state = dirs.with_scope_dirs(where, InstallRecord())
    assert steps == [MakeDir(missing_home / ".claude")]
    assert str(missing_home) not in state.dirs


def test_every_folder_a_scope_needs_is_noted_and_goes_again(home: Path, tmp_path: Path) -> None:
    where = paths.locations("user", Path.cwd(), {"CLAUDE_CONFIG_DIR": str(home / "cfg" / "c")})
    made, state = dirs.with_scope_dirs(where, InstallRecord())
    carry(tmp_path, made, state)
    assert (home / "cfg" / "c").is_dir()
    removed: list[Step] = []
    state = dirs.without_scope_dirs(where, removed, state)
    carry(tmp_path, removed, state)
    assert os.listdir(home) == []


def _made_claude_dir(project: Path) -> tuple[paths.Locations, InstallRecord]:
    where = paths.locations("project", project, {})
    steps, state = dirs.with_scope_dirs(where, InstallRecord())
    assert steps == [MakeDir(project / ".claude")]
    (project / ".claude").mkdir()
    (project / ".claude" / "settings.json").write_text("{}")
    return where, state


def test_a_made_scope_dir_goes_once_the_steps_leave_it_empty(home: Path, tmp_path: Path) -> None:
    project = Path.cwd()
    where, state = _made_claude_dir(project)
    settings = project / ".claude" / "settings.json"

    steps: list[Step] = []
    assert dirs.without_scope_dirs(where, steps, state) == state  # the file stays: so does it
    assert steps == []

    steps = [DeleteFile(settings)]
    after = dirs.without_scope_dirs(where, steps, state)
    assert steps == [DeleteFile(settings), RemoveDir(project / ".claude")]
    assert after.dirs == ()
    carry(tmp_path, steps, after)
    assert os.listdir(project) == []


def test_a_made_scope_dir_with_something_else_in_it_stays_on_record(home: Path) -> None:
    project = Path.cwd()
    where, state = _made_claude_dir(project)
    # Local scope's file, which the same `.claude` holds, is still there.
    (project / ".claude" / "settings.local.json").write_text("{}")
    steps: list[Step] = [DeleteFile(project / ".claude" / "settings.json")]
    after = dirs.without_scope_dirs(where, steps, state)
    assert steps == [DeleteFile(project / ".claude" / "settings.json")]
    assert after.dirs == (str(project / ".claude"),)  # so the uninstall that empties it can

    local = paths.locations("local", project, {})
    steps = [DeleteFile(project / ".claude" / name) for name in os.listdir(project / ".claude")]
    after = dirs.without_scope_dirs(local, steps, after)
    assert steps[-1] == RemoveDir(project / ".claude") and after.dirs == ()


def test_a_scope_dir_the_user_made_is_never_removed(home: Path, tmp_path: Path) -> None:
    project = Path.cwd()
    (project / ".claude").mkdir()  # the user's, empty
    where = paths.locations("project", project, {})
    state = InstallRecord(dirs=(str(home / "other"),))
    steps: list[Step] = []
    assert dirs.without_scope_dirs(where, steps, state) == state
    assert steps == [] and (project / ".claude").is_dir()


def test_a_noted_scope_dir_gone_already_is_forgotten(home: Path) -> None:
    project = Path.cwd()
    where, state = _made_claude_dir(project)
    (project / ".claude" / "settings.json").unlink()
    (project / ".claude").rmdir()
    steps: list[Step] = []
    assert dirs.without_scope_dirs(where, steps, state).dirs == ()
    assert steps == []  # nothing to remove, so nothing said about it


def test_a_made_folder_gone_by_hand_leaves_the_ones_above_to_go(home: Path) -> None:
    made = home / "cfg" / "claude"
    made.mkdir(parents=True)
    state = InstallRecord(dirs=(str(home / "cfg"), str(made)))
    made.rmdir()
    steps: list[Step] = []
    assert dirs.without_dir(made, steps, state).dirs == ()
    assert steps == [RemoveDir(home / "cfg")]


def test_a_folder_gone_between_plan_and_removal_is_said_so(home: Path, tmp_path: Path) -> None:
    out: list[str] = []
    apply(Plan((RemoveDir(home / "never-made"),), InstallRecord(), tmp_path / "state.json"), out)
    assert out == [f"{home / 'never-made'} was already gone"]


# -- folders made for one file (other clients' configurations, the skill) --------------------


def test_missing_dirs_are_listed_outermost_first_never_the_home(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (home / ".config").mkdir()
    assert dirs.missing_dirs(home / ".config" / "a" / "b") == [
        home / ".config" / "a",
        home / ".config" / "a" / "b",
    ]
    assert dirs.missing_dirs(home / ".config") == []
    assert dirs.missing_dirs(Path("/")) == []
    missing_home = tmp_path / "no-home"
    monkeypatch.setenv("HOME", str(missing_home))
    assert dirs.missing_dirs(missing_home / ".gemini") == [missing_home / ".gemini"]
    assert dirs.missing_dirs(missing_home) == []


def test_with_dirs_then_without_dirs_gives_the_tree_back(home: Path, tmp_path: Path) -> None:
    (home / ".config").mkdir()  # the user's: never install's to remove
    (home / ".config" / "theirs.json").write_text("{}")
    before = tree(home)
    target = home / ".config" / "app" / "sub" / "mcp.json"
    start = InstallRecord(dirs=(str(home / "unrelated"),))

    made, state = dirs.with_dirs(target, start)
    app, sub = home / ".config" / "app", home / ".config" / "app" / "sub"
    assert made == [MakeDir(app), MakeDir(sub)]
    assert state.dirs == (str(home / "unrelated"), str(app), str(sub))
    carry(tmp_path, made, state)
    target.write_text("{}")

    steps: list[Step] = [DeleteFile(target)]
    after = dirs.without_dirs(target, steps, state)
    assert steps == [DeleteFile(target), RemoveDir(sub), RemoveDir(app)]  # innermost first
    assert after.dirs == start.dirs
    carry(tmp_path, steps, after)
    assert tree(home) == before


def test_without_dirs_stops_at_a_folder_with_something_else_in_it(home: Path) -> None:
    target = home / "app" / "sub" / "mcp.json"
    made, state = dirs.with_dirs(target, InstallRecord())
    assert made == [MakeDir(home / "app"), MakeDir(home / "app" / "sub")]
    target.parent.mkdir(parents=True)
    target.write_text("{}")
    (home / "app" / "notes.txt").write_text("mine")

    steps: list[Step] = []
    assert dirs.without_dirs(target, steps, state) == state  # the file is not deleted
    assert steps == []

    steps = [DeleteFile(target)]
    after = dirs.without_dirs(target, steps, state)
    assert steps == [DeleteFile(target), RemoveDir(home / "app" / "sub")]
    assert after.dirs == (str(home / "app"),)


def test_a_folder_two_files_share_goes_with_the_second(home: Path) -> None:
    one, two = home / "app" / "one.json", home / "app" / "two.json"
    _, state = dirs.with_dirs(one, InstallRecord())
    (home / "app").mkdir()
    one.write_text("{}")
    two.write_text("{}")

    steps: list[Step] = [DeleteFile(one)]
    state = dirs.without_dirs(one, steps, state)
    assert steps == [DeleteFile(one)] and state.dirs == (str(home / "app"),)

    steps.append(DeleteFile(two))
    state = dirs.without_dirs(two, steps, state)
    assert steps == [DeleteFile(one), DeleteFile(two), RemoveDir(home / "app")]
    assert state.dirs == ()
    # Asked again with the same steps, nothing is removed twice.
    assert dirs.without_dir(home / "app", steps, InstallRecord(dirs=(str(home / "app"),))).dirs == (
        str(home / "app"),
    )
    assert steps.count(RemoveDir(home / "app")) == 1


def test_without_dir_never_removes_a_folder_it_did_not_note(home: Path) -> None:
    (home / "app" / "sub").mkdir(parents=True)
    state = InstallRecord(dirs=(str(home / "app" / "sub"),))  # "app" was there before install
    steps: list[Step] = []
    after = dirs.without_dir(home / "app" / "sub", steps, state)
    assert steps == [RemoveDir(home / "app" / "sub")] and after.dirs == ()
    steps = []
    assert dirs.without_dir(home / "app", steps, InstallRecord()) == InstallRecord() and steps == []
