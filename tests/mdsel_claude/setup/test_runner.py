"""Around every command's plan: one run at a time (the lock in the home directory, see
test_dir_lock), `--dry-run` that shows the steps and changes no byte, and a failure said in one
line with exit status 1."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest

from mdsel_claude.setup import jsonfile, runner
from mdsel_claude.setup.errors import SetupError
from mdsel_claude.setup.jsonfile import ConfigFileError
from mdsel_claude.setup.ledger import InstallRecord
from mdsel_claude.setup.steps import (
    DeleteFile,
    MakeDir,
    Note,
    Plan,
    RemoveDir,
    WriteFile,
    WriteText,
    describe,
)


def snapshot(root: Path) -> dict[str, bytes | None]:
    """Every file's bytes and every folder (None) under `root`."""
    return {
        str(p.relative_to(root)): None if p.is_dir() else p.read_bytes() for p in root.rglob("*")
    }


# -- the lock --------------------------------------------------------------------------------


def test_the_lock_is_on_the_home_directory_or_else_the_temporary_one(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert runner.lock_dir() == home
    monkeypatch.setenv("HOME", str(tmp_path / "no-home"))
    assert runner.lock_dir() == Path(tempfile.gettempdir())
    assert not (tmp_path / "no-home").exists()  # nothing is made just to be locked


# -- shown, or carried out -------------------------------------------------------------------


def _plan(root: Path) -> Plan:
    """A plan with every kind of step, over files that are really there."""
    (root / "kept.json").write_text('{"a": 1}\n')
    (root / "gone.json").write_text("{}\n")
    (root / "empty").mkdir()
    steps = (
        Note("a note"),
        WriteFile(root / "kept.json", {"a": 1, "b": 2}, False, "b added"),
        MakeDir(root / "new"),
        WriteFile(root / "new" / "made.json", {"c": 3}, True, "made"),
        WriteText(root / "new" / "config.toml", "x = 1\n", True, "text"),
        DeleteFile(root / "gone.json"),
        RemoveDir(root / "empty"),
    )
    state = InstallRecord(dirs=(str(root / "new"),))
    return Plan(steps, state, root / "state" / "installed.json")


def test_dry_run_prints_each_step_and_changes_no_byte(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    plan = _plan(tmp_path)
    before = snapshot(tmp_path)
    runner.carry_out(plan, dry_run=True)
    assert snapshot(tmp_path) == before  # the record is not written either
    out = capsys.readouterr().out.splitlines()
    lines = [line for line in out if not line.startswith("    ")]
    assert lines == [describe(step, done=False) for step in plan.steps]
    assert lines[0] == "a note" and all(line.startswith("would ") for line in lines[1:])
    # Under a settings file's line, the change itself: a unified diff of its text.
    diff = out[out.index(lines[1]) + 1 : out.index(lines[2])]
    assert diff[:2] == [f"    --- {tmp_path / 'kept.json'}", f"    +++ {tmp_path / 'kept.json'}"]
    assert diff[2:] == ["    @@ -1 +1 @@", '    -{"a": 1}', '    +{"a": 1, "b": 2}']


def test_carried_out_the_steps_are_taken_and_said_done(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    plan = _plan(tmp_path)
    runner.carry_out(plan, dry_run=False)
    assert capsys.readouterr().out.splitlines() == [
        describe(step, done=True) for step in plan.steps
    ]
    assert jsonfile.load(tmp_path / "kept.json") == {"a": 1, "b": 2}
    assert (tmp_path / "new" / "config.toml").read_text() == "x = 1\n"
    assert not (tmp_path / "gone.json").exists() and not (tmp_path / "empty").exists()
    assert (tmp_path / "state" / "installed.json").is_file()


def test_a_failed_step_says_what_was_done_then_undone_and_raises(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "a-folder.json").mkdir()  # where the plan would write a file
    before = snapshot(tmp_path)
    steps = (
        MakeDir(tmp_path / "new"),
        WriteFile(tmp_path / "new" / "made.json", {}, True, "made"),
        WriteFile(tmp_path / "a-folder.json", {}, False, "cannot be"),
    )
    plan = Plan(
        steps, InstallRecord(dirs=(str(tmp_path / "new"),)), tmp_path / "st" / "installed.json"
    )
    with pytest.raises(ConfigFileError, match=r"a-folder\.json"):
        runner.carry_out(plan, dry_run=False)
    # The lines of the steps done before the failure are printed (they were then undone).
    assert capsys.readouterr().out.splitlines() == [describe(s, done=True) for s in steps[:2]]
    assert snapshot(tmp_path) == before


# -- how a command ends ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("error", "line"),
    [
        (
            ConfigFileError(Path("/p/.mcp.json"), "not valid JSON"),
            "mdsel-claude: /p/.mcp.json: not valid JSON; left it untouched",
        ),
        (SetupError("not on your PATH"), "mdsel-claude: not on your PATH"),
        (PermissionError(13, "Permission denied"), "mdsel-claude: [Errno 13] Permission denied"),
    ],
)
def test_a_failure_is_one_line_on_stderr_and_exit_status_1(
    error: Exception, line: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert runner.failure(error) == 1
    out, err = capsys.readouterr()
    assert out == "" and err == line + "\n"


def test_entries_left_over_fail_naming_each_and_the_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / "state" / "installed.json"
    assert runner.left_over(["MCP server 'mdsel' in x", "PreToolUse hook 'y'"], record) == 1
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1
    assert err.startswith(f"mdsel-claude: left in place, because the install record ({record})")
    assert "MCP server 'mdsel' in x; PreToolUse hook 'y'." in err
    assert "another XDG_STATE_HOME" in err
