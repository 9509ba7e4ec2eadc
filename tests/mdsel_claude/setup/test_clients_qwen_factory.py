"""`install --client qwen` and `--client factory`: the server and the PostToolUse hook where each
CLI reads them (Qwen Code: both in its settings.json; Droid: mcp.json, and the settings.json
beside it), everything else kept; uninstall, `uninstall --all` and doctor know both."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from mdsel_claude.setup import cli
from mdsel_claude.setup.clients import CLIENTS
from mdsel_claude.setup.program import find_executable

USERS_HOOKS = {
    "PreToolUse": [{"matcher": "Edit", "hooks": [{"type": "command", "command": "a"}]}],
    "PostToolUse": [{"matcher": "Write", "hooks": [{"type": "command", "command": "b"}]}],
}


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    capsys.readouterr()
    status = cli.main(list(argv))
    got = capsys.readouterr()
    return status, got.out + got.err


def qwen_group(command: str) -> dict[str, object]:
    hook = {"name": "mdsel-claude", "type": "command", "command": command}
    return {"matcher": "^read_file$", "hooks": [hook]}


def droid_group(command: str) -> dict[str, object]:
    return {"matcher": "Read", "hooks": [{"type": "command", "command": command}]}


def hook_file(name: str, home: Path) -> Path:
    """Where each client keeps its hooks (user scope)."""
    return home / (".qwen/settings.json" if name == "qwen" else ".factory/settings.json")


def test_qwen_server_and_hook_go_in_its_settings_after_the_users(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = home / ".qwen" / "settings.json"
    path.parent.mkdir()
    before = json.dumps({"model": {"name": "qwen3"}, "hooks": USERS_HOOKS}, indent=3)
    path.write_text(before)
    exe = find_executable()
    status, out = run(capsys, "install", "--client", "qwen", "--min-words", "150")
    assert status == 0 and "qwen mcp approve mdsel" in out and "doctor --client qwen" in out
    after = json.loads(path.read_text())
    assert list(after) == ["model", "hooks", "mcpServers"]
    assert after["mcpServers"] == {"mdsel": {"command": exe, "args": ["serve"]}}
    command = f"{exe} hook --client qwen --min-words 150"
    assert after["hooks"]["PostToolUse"] == [*USERS_HOOKS["PostToolUse"], qwen_group(command)]
    assert after["hooks"]["PreToolUse"] == USERS_HOOKS["PreToolUse"]
    assert run(capsys, "uninstall", "--client", "qwen")[0] == 0
    assert path.read_text() == before


def test_factory_server_in_mcp_json_and_hook_in_settings_beside_it(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = home / ".factory"
    folder.mkdir()
    settings = folder / "settings.json"
    before = '{\n  "customModels": [{"model": "m", "baseUrl": "http://x"}],\n  "hooks": %s\n}'
    before %= json.dumps(USERS_HOOKS)
    settings.write_text(before)
    exe = find_executable()
    status, out = run(capsys, "install", "--client", "factory", "--mode", "outline")
    assert status == 0 and "doctor --client factory" in out
    servers = json.loads((folder / "mcp.json").read_text())
    entry = {"type": "stdio", "command": exe, "args": ["serve"], "disabled": False}
    assert servers == {"mcpServers": {"mdsel": entry}}
    after = json.loads(settings.read_text())
    command = f"{exe} hook --client factory --min-words 200 --mode outline"
    assert after["hooks"]["PostToolUse"] == [*USERS_HOOKS["PostToolUse"], droid_group(command)]
    assert after["customModels"] == [{"model": "m", "baseUrl": "http://x"}]
    assert run(capsys, "uninstall", "--client", "factory")[0] == 0
    assert settings.read_text() == before
    assert sorted(os.listdir(folder)) == ["settings.json"]  # mcp.json was install's


def test_factory_folder_made_for_both_files_goes_with_them(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(capsys, "install", "--client", "factory")[0] == 0
    assert sorted(os.listdir(home / ".factory")) == ["mcp.json", "settings.json"]
    # Created as Droid creates them, for their owner only: its settings hold API keys.
    for name in ("mcp.json", "settings.json"):
        assert (home / ".factory" / name).stat().st_mode & 0o777 == 0o600
    status, out = run(capsys, "uninstall", "--client", "factory")
    assert status == 0 and "nothing of" not in out
    assert not (home / ".factory").exists()


def test_the_homes_each_cli_reads(
    home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("QWEN_HOME", "~/qwen-config")
    monkeypatch.setenv("FACTORY_HOME_OVERRIDE", str(home / "elsewhere"))
    assert run(capsys, "install", "--client", "qwen")[0] == 0
    assert run(capsys, "install", "--client", "factory")[0] == 0
    assert (home / "qwen-config" / "settings.json").is_file()
    assert (home / "elsewhere" / ".factory" / "mcp.json").is_file()
    assert (home / "elsewhere" / ".factory" / "settings.json").is_file()
    assert not (home / ".qwen").exists() and not (home / ".factory").exists()
    monkeypatch.setenv("QWEN_HOME", "relative")
    assert CLIENTS["qwen"].user_file(os.environ) == Path.cwd() / "relative" / "settings.json"


def test_project_scope_where_each_cli_reads_it_and_portable(
    home: Path, on_path: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    project = Path.cwd()
    (project / ".git").mkdir()
    (project / "sub").mkdir()
    monkeypatch.chdir(project / "sub")
    assert run(capsys, "install", "--client", "qwen", "--scope", "project")[0] == 0
    assert run(capsys, "install", "--client", "factory", "--scope", "project")[0] == 0
    # Qwen Code reads the folder it starts in; Droid the project's root.
    qwen = json.loads((project / "sub" / ".qwen" / "settings.json").read_text())
    factory = json.loads((project / ".factory" / "settings.json").read_text())
    for settings, client in ((qwen, "qwen"), (factory, "factory")):
        (group,) = settings["hooks"]["PostToolUse"]
        command = group["hooks"][0]["command"]
        assert command == (
            "sh -c 'command -v mdsel-claude >/dev/null 2>&1 || exit 0; "
            f"exec mdsel-claude hook --client {client} --min-words 200'"
        )
    servers = json.loads((project / ".factory" / "mcp.json").read_text())["mcpServers"]
    assert servers["mdsel"]["command"] == "mdsel-claude"
    assert run(capsys, "uninstall", "--client", "qwen", "--scope", "project")[0] == 0
    assert run(capsys, "uninstall", "--client", "factory", "--scope", "project")[0] == 0
    assert sorted(os.listdir(project)) == [".git", "sub"] and os.listdir(".") == []


@pytest.mark.parametrize("name", ["qwen", "factory"])
def test_installing_again_replaces_our_hook(
    home: Path, name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(capsys, "install", "--client", name)[0] == 0
    assert run(capsys, "install", "--client", name, "--min-words", "90")[0] == 0
    (group,) = json.loads(hook_file(name, home).read_text())["hooks"]["PostToolUse"]
    assert group["hooks"][0]["command"].endswith(f"hook --client {name} --min-words 90")
    assert run(capsys, "uninstall", "--client", name)[0] == 0
    assert not hook_file(name, home).exists()


@pytest.mark.parametrize("name", ["qwen", "factory"])
def test_a_changed_hook_of_ours_is_refused_and_left(
    home: Path, name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    exe = find_executable()
    path = hook_file(name, home)
    path.parent.mkdir()
    mine = {"type": "command", "command": f"{exe} hook --client {name}", "timeout": 5}
    text = json.dumps({"hooks": {"PostToolUse": [{"matcher": "", "hooks": [mine]}]}})
    path.write_text(text)
    status, out = run(capsys, "install", "--client", name)
    assert status == 1 and str(path) in out and "remind the agent twice" in out
    assert path.read_text() == text
    assert sorted(os.listdir(path.parent)) == ["settings.json"]  # nothing else written either


@pytest.mark.parametrize(
    "hostile", [b"{broken", b'{"hooks": []}', b'{"hooks": {"PostToolUse": 1}}']
)
def test_factory_refuses_settings_it_cannot_edit_and_writes_neither_file(
    home: Path, hostile: bytes, capsys: pytest.CaptureFixture[str]
) -> None:
    settings = home / ".factory" / "settings.json"
    settings.parent.mkdir()
    settings.write_bytes(hostile)
    status, out = run(capsys, "install", "--client", "factory")
    assert status == 1 and str(settings) in out
    assert settings.read_bytes() == hostile
    assert os.listdir(settings.parent) == ["settings.json"]


@pytest.mark.parametrize("name", ["qwen", "factory"])
def test_a_hook_written_by_hand_exactly_as_ours_stays_the_users(
    home: Path, name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    exe = find_executable()
    group = (qwen_group if name == "qwen" else droid_group)(
        f"{exe} hook --client {name} --min-words 200"
    )
    path = hook_file(name, home)
    path.parent.mkdir()
    text = json.dumps({"hooks": {"PostToolUse": [group]}})
    path.write_text(text)
    status, out = run(capsys, "install", "--client", name)
    assert status == 0 and "it stays yours" in out
    assert json.loads(path.read_text())["hooks"] == {"PostToolUse": [group]}
    assert run(capsys, "uninstall", "--client", name)[0] == 0
    assert json.loads(path.read_text())["hooks"] == {"PostToolUse": [group]}


@pytest.mark.parametrize("name", ["qwen", "factory"])
def test_uninstall_all_takes_the_hook_and_the_server(
    home: Path, name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = hook_file(name, home)
    path.parent.mkdir()
    path.write_text('{"a": 1}')
    assert run(capsys, "install", "--client", name)[0] == 0
    assert run(capsys, "doctor", "--all")[0] == 0
    assert run(capsys, "uninstall", "--all")[0] == 0
    assert path.read_text() == '{"a": 1}'
    assert os.listdir(path.parent) == ["settings.json"]


@pytest.mark.parametrize(
    ("name", "switch"),
    [("qwen", {"disableAllHooks": True}), ("factory", {"hooks": {"hooksDisabled": True}})],
)
def test_doctor_says_when_hooks_are_switched_off(
    home: Path, name: str, switch: dict[str, object], capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(capsys, "install", "--client", name)[0] == 0
    status, out = run(capsys, "doctor", "--client", name)
    assert status == 0 and "PostToolUse hook user" in out and ": ours" in out
    assert "ok: reminder for 201 words of Markdown, silence for 200" in out
    path = hook_file(name, home)
    settings = json.loads(path.read_text())
    for key, value in switch.items():
        settings[key] = {**settings[key], **value} if isinstance(value, dict) else value
    path.write_text(json.dumps(settings))
    status, out = run(capsys, "doctor", "--client", name)
    assert status == 1 and "no hook runs" in out


@pytest.mark.parametrize(("name", "matcher"), [("qwen", "^Edit$"), ("factory", "Edit")])
def test_doctor_says_when_our_hook_would_not_run_after_a_read(
    home: Path, name: str, matcher: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(capsys, "install", "--client", name)[0] == 0
    path = hook_file(name, home)
    settings = json.loads(path.read_text())
    settings["hooks"]["PostToolUse"][0]["matcher"] = matcher
    path.write_text(json.dumps(settings))
    status, out = run(capsys, "doctor", "--client", name)
    assert status == 1 and "does not run after" in out
    assert f"run `mdsel-claude install --client {name}`" in out
