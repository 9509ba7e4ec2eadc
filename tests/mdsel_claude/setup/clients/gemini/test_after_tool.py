"""`install --client gemini` writes Gemini CLI's AfterTool hook beside the server; uninstall,
`uninstall --all` and doctor know it."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from mdsel_claude.setup import cli
from mdsel_claude.setup.clients.gemini import after_tool
from mdsel_claude.setup.program import find_executable

MATCHER = "^(read_file|read_many_files)$"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    capsys.readouterr()
    status = cli.main(list(argv))
    got = capsys.readouterr()
    return status, got.out, got.err


def settings_file(home: Path) -> Path:
    return home / ".gemini" / "settings.json"


def our_hook(exe: str, tail: str = "--min-words 200") -> dict[str, object]:
    command = f"{exe} hook --client gemini {tail}"
    return {"name": "mdsel-claude", "type": "command", "command": command}


def our_group(exe: str, tail: str = "--min-words 200") -> dict[str, object]:
    return {"matcher": MATCHER, "hooks": [our_hook(exe, tail)]}


USERS_BEFORE = [{"matcher": "write_file", "hooks": [{"type": "command", "command": "a"}]}]
USERS_AFTER = [{"matcher": "read_file", "hooks": [{"type": "command", "command": "b"}]}]
USERS_OWN = {
    "security": {"auth": {"selectedType": "gemini-api-key"}},
    "hooks": {"BeforeTool": USERS_BEFORE, "AfterTool": USERS_AFTER},
    "hooksConfig": {"notifications": False},
}


def test_install_adds_the_hook_after_the_users_and_uninstall_restores(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = settings_file(home)
    path.parent.mkdir()
    before = json.dumps(USERS_OWN, indent=2)
    path.write_text(before)
    exe = find_executable()
    status, out, _ = run(capsys, "install", "--client", "gemini")
    assert status == 0
    assert "AfterTool hook on read_file" in out and "doctor --client gemini" in out
    after = json.loads(path.read_text())
    assert after["hooks"]["AfterTool"] == [*USERS_AFTER, our_group(exe)]
    assert after["hooks"]["BeforeTool"] == USERS_BEFORE
    assert after["mcpServers"]["mdsel"]["command"] == exe
    assert after["hooksConfig"] == {"notifications": False}  # nothing switched on or off
    assert run(capsys, "uninstall", "--client", "gemini")[0] == 0
    assert json.loads(path.read_text()) == USERS_OWN


def test_created_file_goes_again_and_the_record_names_the_hook(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    exe = find_executable()
    assert run(capsys, "install", "--client", "gemini", "--min-words", "50")[0] == 0
    record = json.loads((home / ".local" / "state" / "mdsel-claude" / "installed.json").read_text())
    (entry,) = record["files"].values()
    assert ["hooks"] in entry["created_keys"] and ["hooks", "AfterTool"] in entry["created_keys"]
    hooks = [w for w in entry["written"] if w["hook"]]
    value = our_hook(exe, "--min-words 50")
    assert hooks == [{"at": ["hooks", "AfterTool"], "hook": True, "value": value}]
    assert run(capsys, "uninstall", "--client", "gemini")[0] == 0
    assert not (home / ".gemini").exists()


def test_install_again_replaces_the_hook(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    exe = find_executable()
    assert run(capsys, "install", "--client", "gemini")[0] == 0
    assert run(capsys, "install", "--client", "gemini", "--mode", "outline")[0] == 0
    groups = json.loads(settings_file(home).read_text())["hooks"]["AfterTool"]
    assert groups == [our_group(exe, "--min-words 200 --mode outline")]
    assert run(capsys, "uninstall", "--client", "gemini")[0] == 0
    assert not settings_file(home).exists()


def test_threshold_default_is_mdsel_min_words(
    home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("MDSEL_MIN_WORDS", "321")
    assert run(capsys, "install", "--client", "gemini")[0] == 0
    groups = json.loads(settings_file(home).read_text())["hooks"]["AfterTool"]
    assert groups == [our_group(find_executable(), "--min-words 321")]


def test_project_scope_hook_is_guarded_and_portable(
    on_path: str, home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = Path.cwd()
    (root / ".git").mkdir()
    assert run(capsys, "install", "--client", "gemini", "--scope", "project")[0] == 0
    value = json.loads((root / ".gemini" / "settings.json").read_text())
    (group,) = value["hooks"]["AfterTool"]
    command = group["hooks"][0]["command"]
    assert command == (
        "sh -c 'command -v mdsel-claude >/dev/null 2>&1 || exit 0; "
        "exec mdsel-claude hook --client gemini --min-words 200'"
    )
    assert after_tool.parse_entry(group["hooks"][0]) == ("mdsel-claude", 200, "reminder")
    assert run(capsys, "uninstall", "--client", "gemini", "--scope", "project")[0] == 0
    assert sorted(os.listdir(root)) == [".git"]


def test_a_lookalike_hook_is_left_alone(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A hook of the user's that runs ours: install adds none beside it (the reminder would come
    twice) and changes nothing; one that only mentions us stays beside ours."""
    exe = find_executable()
    mine = {"type": "command", "command": f"{exe} hook --client gemini --min-words 9 | tee log"}
    users = {"hooks": {"AfterTool": [{"matcher": "read_file", "hooks": [mine]}]}}
    path = settings_file(home)
    path.parent.mkdir()
    path.write_text(json.dumps(users))
    status, _, err = run(capsys, "install", "--client", "gemini")
    assert status == 1 and "would remind the agent twice" in err and "untouched" in err
    assert json.loads(path.read_text()) == users
    mentions = {"type": "command", "command": "echo mdsel-claude hook"}
    users = {"hooks": {"AfterTool": [{"matcher": "read_file", "hooks": [mentions]}]}}
    path.write_text(json.dumps(users))
    assert run(capsys, "install", "--client", "gemini")[0] == 0
    assert json.loads(path.read_text())["hooks"]["AfterTool"][0] == users["hooks"]["AfterTool"][0]
    assert run(capsys, "uninstall", "--client", "gemini")[0] == 0
    assert json.loads(path.read_text()) == users


@pytest.mark.parametrize("hooks", [[], "x", {"AfterTool": {}}])
def test_a_hooks_value_of_the_wrong_shape_is_refused_untouched(
    home: Path, capsys: pytest.CaptureFixture[str], hooks: object
) -> None:
    path = settings_file(home)
    path.parent.mkdir()
    text = json.dumps({"hooks": hooks})
    path.write_text(text)
    status, _, err = run(capsys, "install", "--client", "gemini")
    assert status == 1 and "should be" in err and "untouched" in err
    assert path.read_text() == text


def test_dry_run_writes_nothing(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "install", "--client", "gemini", "--dry-run")
    assert status == 0 and "would create" in out and "AfterTool hook" in out
    assert os.listdir(home) == []


def test_uninstall_all_removes_the_hook(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = settings_file(home)
    path.parent.mkdir()
    path.write_text(json.dumps(USERS_OWN))
    assert run(capsys, "install", "--client", "gemini")[0] == 0
    assert run(capsys, "uninstall", "--all")[0] == 0
    assert json.loads(path.read_text()) == USERS_OWN


def test_doctor_reports_the_hook_and_runs_it(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(capsys, "install", "--client", "gemini", "--min-words", "30")[0] == 0
    status, out, _ = run(capsys, "doctor", "--client", "gemini")
    assert status == 0, out
    assert f"AfterTool hook user ({settings_file(home)}): ours" in out
    assert "ok: reminder for 31 words of Markdown, silence for 30" in out
    assert run(capsys, "install", "--client", "gemini", "--mode", "outline")[0] == 0
    status, out, _ = run(capsys, "doctor", "--client", "gemini")
    assert status == 0 and "ok: index for 201 words" in out, out


@pytest.mark.parametrize(
    ("change", "complaint"),
    [
        (lambda s: s.update(hooksConfig={"enabled": False}), "hooksConfig.enabled: false"),
        (lambda s: s.update(hooksConfig={"disabled": ["mdsel-claude"]}), "hooksConfig.disabled"),
        (lambda s: s.pop("hooks"), "no hook of this installation"),
        (lambda s: s["hooks"]["AfterTool"][0].update(matcher="write_file"), "does not run after"),
        (lambda s: s["hooks"].update(BeforeTool=s["hooks"].pop("AfterTool")), "does not run after"),
        (lambda s: s.update(mcp={"excluded": ["mdsel"]}), "in mcp.excluded, so Gemini CLI"),
        (lambda s: s.update(mcp={"allowed": ["other"]}), "mcp.allowed list without 'mdsel'"),
    ],
    ids=[
        "hooks-off",
        "hook-disabled",
        "hook-gone",
        "other-matcher",
        "other-event",
        "server-excluded",
        "server-not-allowed",
    ],
)
def test_doctor_fails_when_the_hook_would_not_run(
    home: Path, capsys: pytest.CaptureFixture[str], change: object, complaint: str
) -> None:
    assert run(capsys, "install", "--client", "gemini")[0] == 0
    path = settings_file(home)
    value = json.loads(path.read_text())
    change(value)  # type: ignore[operator]
    path.write_text(json.dumps(value))
    status, out, _ = run(capsys, "doctor", "--client", "gemini")
    assert status == 1 and complaint in out, out


@pytest.mark.parametrize(
    ("event", "matcher", "fires"),
    [
        ("AfterTool", MATCHER, True),
        ("AfterTool", "read_.*", True),
        ("AfterTool", None, True),
        ("AfterTool", "", True),
        ("AfterTool", " * ", True),
        ("AfterTool", "read_many_files", False),
        ("AfterTool", "(", False),
        ("AfterTool", 5, False),
        ("BeforeTool", MATCHER, False),
        ("PostToolUse", "read_file", False),
    ],
)
def test_fires_on_read_file(event: str, matcher: object, fires: bool) -> None:
    assert after_tool.fires_on_read_file(event, matcher) is fires


@pytest.mark.parametrize(
    "value",
    [
        None,
        "x hook --client gemini --min-words 1",
        {"type": "command", "command": "x hook --client gemini --min-words 1"},  # no name
        {"name": "mdsel-claude", "type": "command", "command": "x hook --min-words 1"},
        {
            "name": "mdsel-claude",
            "type": "command",
            "command": "x hook --client gemini --min-words ١",
        },
        {
            "name": "mdsel-claude",
            "type": "command",
            "command": "x hook --client gemini --min-words 1 --mode",
        },
        {"name": "mdsel-claude", "type": "command", "command": "'x hook --client gemini"},
        {
            "name": "mdsel-claude",
            "type": "command",
            "command": "x hook --client gemini --min-words 01",
        },
        {
            "name": "mdsel-claude",
            "type": "command",
            "command": "x hook --client gemini --min-words 1",
            "timeout": 5,
        },
    ],
)
def test_parse_entry_refuses_what_install_does_not_write(value: object) -> None:
    assert after_tool.parse_entry(value) is None


def test_parse_entry_reads_back_what_install_writes() -> None:
    for args in (("/a b/mdsel-claude", 0, "reminder"), ("/x/mdsel-claude", 7, "outline")):
        assert after_tool.parse_entry(after_tool.hook_entry(*args)) == args


@pytest.mark.parametrize(
    ("mcp", "complaint"),
    [
        ({"allowed": []}, "mcp.allowed list without 'mdsel'"),
        ({"excluded": ["MDSEL"]}, "in mcp.excluded, so Gemini CLI"),
        ({"excluded": [" mdsel "]}, "in mcp.excluded, so Gemini CLI"),
        ({"allowed": ["MdSel"], "excluded": ["other", 5]}, None),
    ],
    ids=["empty-allow-list", "excluded-upper-case", "excluded-spaced", "allowed-mixed-case"],
)
def test_doctor_compares_server_names_as_gemini_does(
    home: Path, capsys: pytest.CaptureFixture[str], mcp: object, complaint: str | None
) -> None:
    # `gemini mcp list` (0.61): an empty allow list admits nothing, and names are compared
    # trimmed and in lower case (Blocked, Blocked, Blocked, Connected).
    assert run(capsys, "install", "--client", "gemini")[0] == 0
    path = settings_file(home)
    value = json.loads(path.read_text())
    value["mcp"] = mcp
    path.write_text(json.dumps(value))
    status, out, _ = run(capsys, "doctor", "--client", "gemini")
    if complaint is None:
        assert status == 0, out
    else:
        assert status == 1 and complaint in out, out


@pytest.mark.parametrize(
    ("states", "off"),
    [
        ({"mdsel": {"enabled": False}}, True),
        ({"mdsel": {"enabled": 0}}, True),
        ({"mdsel": {"enabled": None}}, False),
        ({"mdsel": {"enabled": True}}, False),
        ({"MDSEL": {"enabled": False}}, False),
        ({"other": {"enabled": False}}, False),
    ],
)
def test_doctor_fails_on_a_server_switched_off_by_mcp_disable(
    home: Path, capsys: pytest.CaptureFixture[str], states: object, off: bool
) -> None:
    # `/mcp disable mdsel` writes ~/.gemini/mcp-server-enablement.json; `gemini mcp list` then
    # shows the server "Disabled" (and Gemini CLI does not start it).
    assert run(capsys, "install", "--client", "gemini")[0] == 0
    (home / ".gemini" / "mcp-server-enablement.json").write_text(json.dumps(states))
    status, out, _ = run(capsys, "doctor", "--client", "gemini")
    assert (status, "switches 'mdsel' off (/mcp disable)" in out) == (int(off), off), out


def test_the_project_settings_switch_overrides_the_users(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Gemini CLI merges the settings of a folder it trusts over the user's: the last
    # hooksConfig.enabled decides (mergeSettings in its bundle, 0.61).
    assert run(capsys, "install", "--client", "gemini")[0] == 0
    user = settings_file(home)
    project = Path.cwd() / ".gemini" / "settings.json"
    project.parent.mkdir()
    value = json.loads(user.read_text())
    for user_on, project_on, off_in in [(False, True, None), (True, False, project)]:
        user.write_text(json.dumps({**value, "hooksConfig": {"enabled": user_on}}))
        project.write_text(json.dumps({"hooksConfig": {"enabled": project_on}}))
        _status, out, _ = run(capsys, "doctor", "--client", "gemini")
        if off_in is None:
            assert "hooks are switched off" not in out, out
        else:
            assert f"hooks are switched off in {off_in}" in out, out
