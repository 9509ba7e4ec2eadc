"""`mdsel-claude install|uninstall` from the command line: files, options, errors, locking."""

from __future__ import annotations

import json
import os
import stat
import sys
from pathlib import Path

import pytest

from mdsel_claude.setup import cli, entries
from mdsel_claude.setup.program import find_executable
from tests.conftest import ROOT
from tests.mdsel_claude.setup.conftest import claude_json


def local_server(home: Path, project: Path) -> object:
    config = claude_json(home) or {}
    return config["projects"][str(project.resolve())]["mcpServers"]["mdsel"]  # type: ignore[index]


def test_main_install_and_uninstall_local(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    exe = find_executable()
    assert cli.main(["install", "--min-words", "321"]) == 0
    out = capsys.readouterr().out
    assert "created" in out and ".claude.json" in out
    assert local_server(home, Path.cwd()) == {"type": "stdio", "command": exe, "args": ["serve"]}
    assert stat.S_IMODE((home / ".claude.json").stat().st_mode) == 0o600
    assert sorted(os.listdir(".")) == [".claude"]
    settings_after = json.loads(Path(".claude/settings.local.json").read_text())
    assert settings_after["hooks"]["PreToolUse"][0]["hooks"][0]["command"] == (
        f"{exe} hook --min-words 321"
    )
    assert (home / ".local" / "state" / "mdsel-claude" / "installed.json").exists()
    assert cli.main(["uninstall"]) == 0
    assert os.listdir(".") == []
    assert not (home / ".claude.json").exists()
    assert not (home / ".local" / "state" / "mdsel-claude").exists()


def test_local_install_keeps_the_rest_of_claude_json(home: Path, tmp_path: Path) -> None:
    """~/.claude.json is Claude Code's own busy file: every other key, project and server stays,
    and each project's uninstall takes only its own entry."""
    other = tmp_path / "other"
    other.mkdir()
    original = {
        "numStartups": 3,
        "projects": {str(other): {"allowedTools": [], "mcpServers": {"x": {"command": "x"}}}},
        "mcpServers": {"y": {"command": "y"}},
        "tipsHistory": {"a": 1.5},
    }
    text = json.dumps(original, indent=2)
    (home / ".claude.json").write_text(text)
    (home / ".claude.json").chmod(0o600)
    project = Path.cwd()
    assert cli.main(["install"]) == 0
    os.chdir(other)
    assert cli.main(["install"]) == 0
    after = claude_json(home)
    assert after is not None and list(after) == list(original)
    projects = after["projects"]
    assert isinstance(projects, dict) and list(projects) == [str(other), str(project)]
    assert stat.S_IMODE((home / ".claude.json").stat().st_mode) == 0o600
    os.chdir(project)
    assert cli.main(["uninstall"]) == 0
    assert local_server(home, other)["command"].endswith("mdsel-claude")  # type: ignore[index]
    os.chdir(other)
    assert cli.main(["uninstall"]) == 0
    assert (home / ".claude.json").read_text() == text  # byte for byte


def test_project_scope_runs_mdsel_claude_from_path(
    home: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert cli.main(["install", "--scope", "project"]) == 1
    assert "not on your PATH" in capsys.readouterr().err
    assert os.listdir(".") == [] and not (home / ".local").exists()

    monkeypatch.setenv("PATH", os.path.dirname(find_executable()))
    assert cli.main(["install", "--scope", "project"]) == 0
    assert json.loads(Path(".mcp.json").read_text()) == {
        "mcpServers": {"mdsel": {"type": "stdio", "command": "mdsel-claude", "args": ["serve"]}}
    }
    assert "mdsel-claude hook --min-words 200" in Path(".claude/settings.json").read_text()
    assert claude_json(home) is None
    assert cli.main(["uninstall", "--scope", "project"]) == 0
    assert os.listdir(".") == []


def test_project_root_is_found_from_a_subdirectory(on_path: str, home: Path) -> None:
    root = Path.cwd()
    (root / ".git").mkdir()
    (root / "docs").mkdir()
    os.chdir(root / "docs")
    assert cli.main(["install", "--scope", "project"]) == 0
    assert cli.main(["install", "--allow-duplicate"]) == 0
    assert os.listdir(".") == []
    assert sorted(os.listdir(root)) == [".claude", ".git", ".mcp.json", "docs"]
    assert local_server(home, root)["command"] == on_path  # type: ignore[index]
    assert cli.main(["uninstall", "--scope", "project"]) == 0
    assert cli.main(["uninstall"]) == 0
    assert sorted(os.listdir(root)) == [".git", "docs"]


def test_the_mdsel_claude_checkout_itself_is_never_changed(
    on_path: str, home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The checkout's marketplace file, as this repository has it (the plugin lives in plugin/).
    Path(".claude-plugin").mkdir()
    marketplace = (ROOT / ".claude-plugin" / "marketplace.json").read_text()
    Path(".claude-plugin/marketplace.json").write_text(marketplace)
    for command in ("install", "uninstall"):
        assert cli.main([command, "--scope", "project"]) == 1
        assert "the mdsel-claude checkout itself" in capsys.readouterr().err
    assert cli.main(["install"]) == 0  # local scope: nothing tracked is touched
    assert cli.main(["uninstall"]) == 0
    assert Path(".claude-plugin/marketplace.json").read_text() == marketplace
    assert sorted(os.listdir(".")) == [".claude-plugin"]


def test_dry_run_changes_nothing(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["install", "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert "would create" in out
    assert os.listdir(".") == [] and not (home / ".local").exists()


def test_outline_mode_installs_a_post_tool_use_hook(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    exe = find_executable()
    assert cli.main(["install", "--mode", "outline"]) == 0
    hooks = json.loads(Path(".claude/settings.local.json").read_text())["hooks"]
    assert list(hooks) == ["PostToolUse", "PostToolUseFailure"]
    ours = [{"type": "command", "command": f"{exe} hook --min-words 200 --mode outline"}]
    assert hooks["PostToolUse"] == [{"matcher": "Read|Bash", "hooks": ours}]
    # A Read too large to return fails, and PostToolUse never sees it: the same hook there.
    assert hooks["PostToolUseFailure"] == [{"matcher": "Read", "hooks": ours}]
    # Installing again in the default mode replaces that hook: one of ours, before the Read
    # (whose reminder reaches the model whether the Read then fails or not).
    assert cli.main(["install"]) == 0
    hooks = json.loads(Path(".claude/settings.local.json").read_text())["hooks"]
    assert list(hooks) == ["PreToolUse"]  # install made those lists, so they go with our hook
    assert hooks["PreToolUse"][0]["hooks"][0]["command"] == f"{exe} hook --min-words 200"
    assert cli.main(["install", "--mode", "outline", "--event", "PostToolUse"]) == 0
    assert "--mode outline" in Path(".claude/settings.local.json").read_text()
    capsys.readouterr()
    with pytest.raises(SystemExit) as exited:
        cli.main(["install", "--mode", "outline", "--event", "PreToolUse"])
    assert exited.value.code == 2
    assert "--mode outline needs --event PostToolUse" in capsys.readouterr().err


def test_min_words_from_environment(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MDSEL_MIN_WORDS", "77")
    assert cli.main(["install"]) == 0
    assert "--min-words 77" in Path(".claude/settings.local.json").read_text()


def test_invalid_min_words(
    home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        cli.main(["install", "--min-words", "-5"])
    assert exited.value.code == 2
    monkeypatch.setenv("MDSEL_MIN_WORDS", "many")
    assert cli.main(["install"]) == 1
    assert "MDSEL_MIN_WORDS='many'" in capsys.readouterr().err
    assert os.listdir(".") == []


@pytest.mark.parametrize(
    ("mcp_text", "settings_text", "problem"),
    [
        ('{"mcpServers": {,}}', None, ".mcp.json: not valid JSON (line 1, column 17"),
        ('{"a": 1, "a": 2}', None, ".mcp.json: duplicate key 'a'"),
        ('{"mcpServers": []}', None, '"mcpServers" should be an object, found an array'),
        ("{}", '{"hooks": {"PreToolUse": {}}}', '"hooks"."PreToolUse" should be an array'),
        ("{}", '{"hooks": [], "x": 1, "x": 2}', "settings.json: duplicate key 'x'"),
        ("{}", "[1]", "settings.json: expected a JSON object"),
        (None, '{"hooks": "none"}', '"hooks" should be an object, found a string'),
    ],
)
@pytest.mark.parametrize("command", ["install", "uninstall"])
def test_bad_files_are_left_untouched(
    on_path: str,
    home: Path,
    capsys: pytest.CaptureFixture[str],
    mcp_text: str | None,
    settings_text: str | None,
    problem: str,
    command: str,
) -> None:
    if mcp_text is not None:
        Path(".mcp.json").write_text(mcp_text)
    if settings_text is not None:
        Path(".claude").mkdir()
        Path(".claude/settings.json").write_text(settings_text)
    before = {str(p): p.read_bytes() for p in Path(".").rglob("*") if p.is_file()}
    status = cli.main([command, "--scope", "project"])
    err = capsys.readouterr().err
    if command == "uninstall" and "hooks" in problem and "PreToolUse" in problem:
        # Uninstall never needs the PreToolUse list to be an array: nothing of ours is there.
        assert status == 0
        return
    assert status == 1
    assert problem in err and "left it untouched" in err
    after = {str(p): p.read_bytes() for p in Path(".").rglob("*") if p.is_file()}
    assert after == before
    assert not (home / ".local").exists()


def test_symlinked_settings_and_mode_are_kept(home: Path, tmp_path: Path) -> None:
    real = tmp_path / "dotfiles" / "settings.json"
    real.parent.mkdir()
    real.write_text('{"model": "x"}')
    real.chmod(0o600)
    Path(".claude").mkdir()
    Path(".claude/settings.local.json").symlink_to(real)
    assert cli.main(["install"]) == 0
    assert Path(".claude/settings.local.json").is_symlink()
    assert stat.S_IMODE(real.stat().st_mode) == 0o600
    assert json.loads(real.read_text())["model"] == "x"
    assert cli.main(["uninstall"]) == 0
    assert Path(".claude/settings.local.json").is_symlink()
    assert json.loads(real.read_text()) == {"model": "x"}


def test_user_scope(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    exe = find_executable()
    assert cli.main(["install", "--scope", "user"]) == 0
    assert claude_json(home) == {
        "mcpServers": {"mdsel": {"type": "stdio", "command": exe, "args": ["serve"]}}
    }
    settings_after = json.loads((home / ".claude" / "settings.json").read_text())
    assert settings_after == {
        "hooks": {"PreToolUse": [{"matcher": "Read|Bash", "hooks": [entries.hook_entry(exe, 200)]}]}
    }
    assert os.listdir(".") == []  # nothing in the project
    assert cli.main(["uninstall", "--scope", "user"]) == 0
    assert not (home / ".claude.json").exists() and not (home / ".claude").exists()

    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(home / "elsewhere"))
    assert cli.main(["install", "--scope", "user"]) == 0
    assert sorted(os.listdir(home / "elsewhere")) == [".claude.json", "settings.json"]
    assert cli.main(["uninstall", "--scope", "user"]) == 0
    assert not (home / "elsewhere").exists()


def test_an_install_under_another_claude_config_dir_is_named_by_an_uninstall_without_it(
    home: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(home / "elsewhere"))
    assert cli.main(["install", "--scope", "user"]) == 0
    monkeypatch.delenv("CLAUDE_CONFIG_DIR")
    capsys.readouterr()
    assert cli.main(["uninstall", "--scope", "user"]) == 0
    out = capsys.readouterr().out
    assert "nothing of mdsel-claude is installed in user scope" in out
    assert (
        f"the install record also lists entries in {home / 'elsewhere' / '.claude.json'} "
        "(installed with another CLAUDE_CONFIG_DIR)" in out
    )
    assert (home / "elsewhere" / ".claude.json").exists()  # not this call's to remove
    assert cli.main(["uninstall", "--all"]) == 0
    assert not (home / "elsewhere").exists()


def test_uninstall_with_nothing_installed(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    Path(".mcp.json").write_text('{"mcpServers": {"other": {"command": "x"}}}')
    assert cli.main(["uninstall", "--scope", "project"]) == 0
    out = capsys.readouterr().out
    assert "nothing of mdsel-claude's install in" in out
    assert "is installed in project scope" in out
    assert Path(".mcp.json").read_text() == '{"mcpServers": {"other": {"command": "x"}}}'


def test_concurrent_installs_keep_every_record(tmp_path: Path) -> None:
    import subprocess

    exe = str(Path(sys.executable).with_name("mdsel-claude"))
    env = {**os.environ, "HOME": str(tmp_path / "home"), "XDG_STATE_HOME": str(tmp_path / "st")}
    (tmp_path / "home").mkdir()
    projects = [tmp_path / f"p{i}" for i in range(6)]
    for project in projects:
        project.mkdir()
    running = [
        subprocess.Popen([exe, "install"], cwd=p, env=env, stdout=subprocess.DEVNULL)
        for p in projects
    ]
    assert [process.wait(timeout=60) for process in running] == [0] * len(projects)
    for project in projects:
        subprocess.run([exe, "uninstall"], cwd=project, env=env, check=True, capture_output=True)
        assert list(project.iterdir()) == []


def test_client_claude_is_claude_code_as_the_hook_names_it(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--client claude` is accepted wherever `--client` is, and means no `--client`."""
    assert cli.main(["install", "--client", "claude"]) == 0
    exe = find_executable()
    assert local_server(home, Path.cwd()) == {"type": "stdio", "command": exe, "args": ["serve"]}
    capsys.readouterr()
    doctor = cli.main(["doctor", "--client", "claude"])
    out = capsys.readouterr().out
    capsys.readouterr()
    assert doctor == cli.main(["doctor"]) and out == capsys.readouterr().out
    assert cli.main(["uninstall", "--client", "claude"]) == 0
    assert claude_json(home) is None and os.listdir(".") == []
    with pytest.raises(SystemExit):  # still not with what takes no client
        cli.main(["install", "--skill", "--client", "claude"])
