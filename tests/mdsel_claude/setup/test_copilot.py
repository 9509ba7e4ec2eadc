"""`install --client copilot` writes the server into Copilot CLI's MCP file and our hooks file
beside it; uninstall, `uninstall --all` and doctor know both."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from mdsel_claude.setup import cli, whole_files
from mdsel_claude.setup.clients import copilot
from mdsel_claude.setup.program import find_executable

HOOK_ARGS = ["hook", "--client", "copilot", "--min-words"]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    capsys.readouterr()
    status = cli.main(list(argv))
    got = capsys.readouterr()
    return status, got.out, got.err


@pytest.fixture
def folder(home: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Copilot CLI's user folder: `~/.copilot` (no COPILOT_HOME)."""
    monkeypatch.delenv("COPILOT_HOME", raising=False)
    return home / ".copilot"


def hooks_of(folder: Path) -> Path:
    return folder / "hooks" / "mdsel-claude.json"


def record(home: Path) -> dict[str, object]:
    path = home / ".local" / "state" / "mdsel-claude" / "installed.json"
    files = json.loads(path.read_text())["files"]
    assert isinstance(files, dict)
    return files


def test_install_writes_server_and_hooks_and_uninstall_removes_everything(
    folder: Path, home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    exe = find_executable()
    status, out, _ = run(capsys, "install", "--client", "copilot")
    assert status == 0
    assert "Copilot CLI postToolUse hook on view →" in out and "doctor --client copilot" in out
    server = json.loads((folder / "mcp-config.json").read_text())["mcpServers"]["mdsel"]
    assert server == {"type": "local", "command": exe, "args": ["serve"], "tools": ["*"]}
    value = json.loads(hooks_of(folder).read_text())
    assert value["version"] == 1 and sorted(value["hooks"]) == ["postToolUse", "postToolUseFailure"]
    for event, matcher in (("postToolUse", "view|bash"), ("postToolUseFailure", "view")):
        (entry,) = value["hooks"][event]
        assert entry == {"type": "command", "matcher": matcher, "bash": f"{exe} hook --client "
                         "copilot --min-words 200"}  # fmt: skip
    written = record(home)[str(hooks_of(folder))]
    digest = whole_files.digest(hooks_of(folder).read_bytes())
    assert written["written"] == [  # type: ignore[index]
        {"at": ["(whole file)"], "hook": False, "value": {"sha256": digest}}
    ]
    status, out, _ = run(capsys, "uninstall", "--client", "copilot")
    assert status == 0
    assert f"deleted {hooks_of(folder)}" in out
    assert "nothing of mdsel-claude is installed" not in out
    assert not folder.exists()


def test_copilot_home_is_honoured(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("COPILOT_HOME", str(tmp_path / "ch"))
    assert run(capsys, "install", "--client", "copilot")[0] == 0
    assert (tmp_path / "ch" / "mcp-config.json").is_file() and hooks_of(tmp_path / "ch").is_file()
    assert not (home / ".copilot").exists()
    assert run(capsys, "uninstall", "--client", "copilot")[0] == 0
    assert not (tmp_path / "ch").exists()


def test_install_again_takes_the_new_threshold_and_mode(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(capsys, "install", "--client", "copilot")[0] == 0
    argv = ["install", "--client", "copilot", "--min-words", "50", "--mode", "outline"]
    assert run(capsys, *argv)[0] == 0
    parsed = copilot.parse(hooks_of(folder).read_bytes())
    assert parsed == (find_executable(), 50, "outline")
    assert os.listdir(hooks_of(folder).parent) == ["mdsel-claude.json"]


def test_project_scope_runs_the_bare_name_guarded(
    on_path: str, folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = Path.cwd()
    (root / ".git").mkdir()
    (root / "docs").mkdir()
    os.chdir(root / "docs")  # the project root, wherever in it install runs
    assert run(capsys, "install", "--client", "copilot", "--scope", "project")[0] == 0
    server = json.loads((root / ".github" / "mcp.json").read_text())["mcpServers"]["mdsel"]
    assert server["command"] == "mdsel-claude"
    data = hooks_of(root / ".github").read_bytes()
    assert copilot.parse(data) == ("mdsel-claude", 200, "reminder")
    assert b"command -v mdsel-claude" in data
    assert not folder.exists()
    assert run(capsys, "uninstall", "--client", "copilot", "--scope", "project")[0] == 0
    assert sorted(os.listdir(root)) == [".git", "docs"]


def test_a_github_folder_of_the_project_stays(
    on_path: str, capsys: pytest.CaptureFixture[str]
) -> None:
    root = Path.cwd()
    (root / ".git").mkdir()
    (root / ".github" / "hooks").mkdir(parents=True)
    (root / ".github" / "hooks" / "lint.json").write_text('{"version": 1, "hooks": {}}')
    assert run(capsys, "install", "--client", "copilot", "--scope", "project")[0] == 0
    assert run(capsys, "uninstall", "--client", "copilot", "--scope", "project")[0] == 0
    assert sorted(p.name for p in (root / ".github").rglob("*")) == ["hooks", "lint.json"]


def test_a_hooks_file_install_did_not_write_is_refused_before_anything(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    mine = hooks_of(folder)
    mine.parent.mkdir(parents=True)
    mine.write_text('{"version": 1, "hooks": {}}\n')
    status, _, err = run(capsys, "install", "--client", "copilot")
    assert status == 1
    assert f"left alone: {mine} exists and mdsel-claude did not write it" in err
    assert mine.read_text() == '{"version": 1, "hooks": {}}\n'
    assert not (folder / "mcp-config.json").exists()


def test_a_hooks_file_changed_since_install_is_named_and_left(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(capsys, "install", "--client", "copilot")[0] == 0
    mine = hooks_of(folder)
    mine.write_text(mine.read_text().replace("view|bash", "view"))
    status, out, _ = run(capsys, "uninstall", "--client", "copilot")
    assert status == 0
    assert f"left alone: {mine} was changed since install wrote it" in out
    assert "view" in mine.read_text()
    assert not (folder / "mcp-config.json").exists()


def test_uninstall_all_removes_both(
    folder: Path, home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(capsys, "install", "--client", "copilot", "--mode", "outline")[0] == 0
    status, out, _ = run(capsys, "uninstall", "--all")
    assert status == 0, out
    assert not folder.exists()


def test_dry_run_shows_both_files_and_writes_nothing(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = run(capsys, "install", "--client", "copilot", "--dry-run")
    assert status == 0
    assert f"would create {folder / 'mcp-config.json'}" in out
    assert f"would create {hooks_of(folder)}: Copilot CLI postToolUse hook" in out
    assert out.count(f"would create directory {folder}\n") == 1
    assert not folder.exists()


def test_doctor_checks_the_hooks_and_runs_the_hook(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(capsys, "install", "--client", "copilot")[0] == 0
    status, out, _ = run(capsys, "doctor", "--client", "copilot")
    assert status == 0, out
    assert f"hooks user ({hooks_of(folder)}): ours, runs " in out
    assert "ok: reminder for 201 words of Markdown, silence for 200" in out


def test_doctor_fails_without_the_hooks(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "install", "--client", "copilot")[0] == 0
    hooks_of(folder).write_text("{}\n")
    status, out, _ = run(capsys, "doctor", "--client", "copilot")
    assert status == 1
    assert "not ours, not run: not a file install writes" in out
    assert "no hook of this installation: run `mdsel-claude install --client copilot`" in out


def test_doctor_fails_when_hooks_are_switched_off(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(capsys, "install", "--client", "copilot")[0] == 0
    settings = folder / "settings.json"
    settings.write_text('{\n  // mine\n  "disableAllHooks": true,\n}\n')
    status, out, _ = run(capsys, "doctor", "--client", "copilot")
    assert status == 1
    assert f"disableAllHooks is true in {settings}" in out


def test_doctor_names_hooks_in_both_scopes(
    on_path: str, folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (Path.cwd() / ".git").mkdir()
    assert run(capsys, "install", "--client", "copilot")[0] == 0
    assert run(capsys, "install", "--client", "copilot", "--scope", "project")[0] == 0
    status, out, _ = run(capsys, "doctor", "--client", "copilot")
    assert status == 1
    assert "the reminder would come twice" in out


WEIRD_PATHS = [
    "/opt/mdsel claude/bin/mdsel-claude",
    '/home/o"brien/bin/mdsel-claude',
    "/home/o'brien/bin/mdsel-claude",
    "/home/x/back\\slash/mdsel-claude",
    "/home/jörg/bin/mdsel-claude",
    "/home/x/*/ ;`$(rm -rf ~)`/mdsel-claude",
]


@pytest.mark.parametrize("exe", WEIRD_PATHS)
@pytest.mark.parametrize("mode", ["reminder", "outline"])
def test_render_and_parse_round_trip(exe: str, mode: str) -> None:
    text = copilot.render(copilot.hook_command(exe, 7, mode))
    assert copilot.parse(text.encode()) == (exe, 7, mode)


@pytest.mark.parametrize(
    "edit",
    [
        lambda t: t + "\n",
        lambda t: t.replace("--min-words 7", "--min-words x"),
        lambda t: t.replace("--client copilot", "--client claude"),
        lambda t: t.replace('"view|bash"', '".*"'),
        lambda t: t.replace('"version": 1', '"version": 2'),
        lambda t: "[]",
        lambda t: "",
    ],
)
def test_parse_refuses_anything_else(edit: object) -> None:
    text = copilot.render(copilot.hook_command("/x/mdsel-claude", 7))
    assert callable(edit)
    assert copilot.parse(edit(text).encode()) is None


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed")
@pytest.mark.parametrize("exe", WEIRD_PATHS[:5])
def test_bash_runs_exactly_our_program(exe: str, tmp_path: Path) -> None:
    # Copilot CLI hands the `bash` field to bash: the path must reach it as one word.
    program = tmp_path / exe.lstrip("/")
    program.parent.mkdir(parents=True)
    program.write_text('#!/bin/sh\nprintf "%s|" "$@"\n')
    program.chmod(0o755)
    command = copilot.hook_command(str(program), 7, "outline")
    done = subprocess.run(["bash", "-c", command], capture_output=True, text=True, check=False)
    assert done.stdout == "|".join([*HOOK_ARGS, "7", "--mode", "outline"]) + "|"
