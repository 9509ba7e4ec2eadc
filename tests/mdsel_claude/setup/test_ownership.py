"""Which entries are this installation's: exact forms, resolved without running anything."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest

from mdsel_claude.setup import ownership
from mdsel_claude.setup.errors import SetupError
from mdsel_claude.setup.ownership import Installation
from mdsel_claude.setup.program import find_executable


@pytest.fixture
def installed(tmp_path: Path) -> tuple[Installation, Path]:
    """A fake installation: `<tmp>/my bin/mdsel-claude` (a space, so quoting matters)."""
    folder = tmp_path / "my bin"
    folder.mkdir()
    exe = folder / "mdsel-claude"
    exe.write_text("#!/bin/sh\n")
    exe.chmod(0o755)
    return Installation(str(exe), (str(exe),)), folder


def test_this_installation_is_beside_the_interpreter() -> None:
    found = ownership.this_installation()
    assert found.executable is not None and found.executable.endswith("/mdsel-claude")
    assert found.argv == (found.executable,)


@pytest.mark.parametrize(
    ("template", "args"),
    [
        ("{exe} hook --min-words 50", ("hook", "--min-words", "50")),
        ("{exe} hook", ("hook",)),
        ("{exe} hook --min-words 0", ("hook", "--min-words", "0")),
        (
            "{exe} hook --min-words 50 --mode outline",
            ("hook", "--min-words", "50", "--mode", "outline"),
        ),
        ("{exe} hook --min-words 50 --mode other", None),
        ("{exe} hook --mode outline --min-words 50", None),
        ("{exe} hook --min-words 050", None),
        ("{exe} hook --min-words 50 | tee -a audit.log", None),
        ("{exe} hook && echo owned > F", None),
        ("{exe} hook; rm -rf x", None),
        ("{exe} hook --min-words $(id)", None),
        ("{exe} hook\n", None),
        ("{exe}  hook", None),
        ("{exe} serve", None),
        ("{raw} hook", None),  # unquoted path with a space: not what install writes
    ],
)
def test_judge_hook(installed: tuple[Installation, Path], template: str, args: object) -> None:
    installation, _ = installed
    exe = installation.executable
    assert exe is not None
    command = template.format(exe=shlex.quote(exe), raw=exe)
    assert ownership.judge_hook(command, installation, {"PATH": "/usr/bin"}).args == args


def test_bare_names_resolve_through_absolute_path_entries_only(
    installed: tuple[Installation, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    installation, folder = installed
    assert ownership.judge_hook("mdsel-claude hook", installation, {"PATH": str(folder)}).args
    # A relative PATH entry (here `.`, where a repository put its own) is never searched.
    monkeypatch.chdir(folder)
    verdict = ownership.judge_hook("mdsel-claude hook", installation, {"PATH": "."})
    assert verdict.args is None and "not an installed program" in verdict.reason
    verdict = ownership.judge_hook("./mdsel-claude hook", installation, {"PATH": str(folder)})
    assert verdict.args is None
    other = tmp_path / "other" / "mdsel-claude"
    other.parent.mkdir()
    other.write_text("#!/bin/sh\n")
    other.chmod(0o755)
    verdict = ownership.judge_hook(f"{other} hook", installation, {})
    assert verdict.args is None and "another mdsel-claude than this one" in verdict.reason


def test_a_symlink_to_this_installation_is_ours(
    installed: tuple[Installation, Path], tmp_path: Path
) -> None:
    installation, folder = installed
    link = tmp_path / "mdsel-claude"
    link.symlink_to(folder / "mdsel-claude")
    assert ownership.judge_hook(f"{link} hook", installation, {}).args == ("hook",)


@pytest.mark.parametrize(
    ("extra", "args"),
    [
        ({}, ("serve",)),
        ({"env": {}}, ("serve",)),
        ({"env": {"PYTHONPATH": "evil"}}, None),
        ({"cwd": "/tmp"}, None),
        ({"type": "http"}, None),
        ({"args": ["serve", "--debug"]}, None),
        ({"args": []}, None),
    ],
)
def test_judge_server(installed: tuple[Installation, Path], extra: object, args: object) -> None:
    installation, _ = installed
    assert isinstance(extra, dict)
    value = {"type": "stdio", "command": installation.executable, "args": ["serve"], **extra}
    assert ownership.judge_server(value, installation, {}).args == args


def test_no_installation_means_nothing_is_ours(installed: tuple[Installation, Path]) -> None:
    installation, _ = installed
    nothing = Installation(None, ("python3", "-m", "mdsel_claude"))
    value = {"command": installation.executable, "args": ["serve"]}
    assert ownership.judge_server(value, nothing, {}).args is None


def test_the_plugin_forms_are_those_of_the_plugin_files() -> None:
    root = Path(__file__).resolve().parents[3] / "plugin"
    server = json.loads((root / ".mcp.json").read_text())["mcpServers"]["mdsel"]
    hooks = json.loads((root / "hooks" / "hooks.json").read_text())["hooks"]["PreToolUse"]
    assert server == ownership.PLUGIN_SERVER
    assert hooks[0]["hooks"][0]["command"] == ownership.PLUGIN_HOOK
    nothing = Installation(None, ("python3", "-m", "mdsel_claude"))
    assert ownership.judge_server(server, nothing, {}).args == ("serve",)
    assert ownership.judge_hook(ownership.PLUGIN_HOOK, nothing, {}).args == ("hook",)
    assert ownership.judge_hook(ownership.PLUGIN_HOOK + "; id", nothing, {}).args is None


def test_install_never_takes_mdsel_claude_from_a_relative_path_entry(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:

    planted = tmp_path / "mdsel-claude"
    planted.write_text("#!/bin/sh\n")
    planted.chmod(0o755)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.argv", ["python"])
    monkeypatch.setattr("sys.executable", str(tmp_path / "nowhere" / "python"))
    monkeypatch.setattr("sysconfig.get_path", lambda name: str(tmp_path / "nowhere"))
    monkeypatch.setenv("PATH", ".")
    with pytest.raises(SetupError, match="cannot find the mdsel-claude executable"):
        find_executable()
    monkeypatch.setenv("PATH", str(tmp_path))
    assert find_executable() == str(planted)
