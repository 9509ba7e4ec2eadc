"""`mdsel-claude doctor`: what it finds in each scope, what it runs, what it reports."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from mdsel_claude.setup import cli, entries, ownership, probes
from mdsel_claude.setup.doctor import run_doctor


def own_executable() -> str:
    executable = ownership.this_installation().executable
    assert executable is not None, "the tests need mdsel-claude installed (pip install -e .)"
    return executable


def approve_project_server(home: Path) -> None:
    """What Claude Code records once the workspace is trusted and the server approved."""
    project = str(Path.cwd())
    (home / ".claude.json").write_text(
        json.dumps({"projects": {project: {"hasTrustDialogAccepted": True}}})
    )
    Path(".claude/settings.local.json").write_text(
        json.dumps({"enabledMcpjsonServers": [entries.SERVER_KEY]})
    )


def doctor(capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    capsys.readouterr()
    status = run_doctor(Path.cwd(), os.environ)
    return status, capsys.readouterr().out


def test_doctor_after_install(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["install", "--min-words", "30"]) == 0
    status, out = doctor(capsys)
    assert (
        "MCP server 'mdsel' local scope" in out and "hook (matcher 'Read|Bash') local scope" in out
    )
    assert "ok: answers initialize (mdsel-claude" in out
    assert "ok: reminder for 31 words of Markdown, silence for 30" in out
    assert out.rstrip().endswith("all good") and status == 0
    assert "does not run on Bash" not in out


def test_a_hook_of_an_older_install_is_noted_for_bash(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["install", "--min-words", "30"]) == 0
    settings = Path(".claude/settings.local.json")
    settings.write_text(settings.read_text().replace('"Read|Bash"', '"Read"'))
    status, out = doctor(capsys)
    assert (
        "does not run on Bash, so a shell read (cat, sed -n, head -n 500) gets no reminder" in out
    )
    assert status == 0  # the Read reminder works: a note, not a failure


def test_outline_mode_has_its_failure_hook_judged_on_its_own(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["install", "--mode", "outline", "--min-words", "30"]) == 0
    status, out = doctor(capsys)
    assert "PostToolUseFailure hook (matcher 'Read') local scope" in out
    assert out.rstrip().endswith("all good") and status == 0
    assert "fails" not in out and "duplicate" not in out
    settings = Path(".claude/settings.local.json")
    written = json.loads(settings.read_text())
    # Its matcher changed by hand: it never runs.
    written["hooks"]["PostToolUseFailure"][0]["matcher"] = "Write"
    settings.write_text(json.dumps(written))
    status, out = doctor(capsys)
    assert status == 1 and "so it never runs when a Read fails" in out
    # Gone: the Read hook still works (a note), as it did before install wrote it.
    del written["hooks"]["PostToolUseFailure"]
    settings.write_text(json.dumps(written))
    status, out = doctor(capsys)
    assert status == 0
    assert "no PostToolUseFailure hook of this installation runs when a Read fails" in out


def test_the_default_install_needs_no_failure_hook(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["install"]) == 0
    status, out = doctor(capsys)
    assert status == 0 and "PostToolUseFailure" not in out


def test_two_failure_hooks_are_a_duplicate(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["install", "--event", "PostToolUse"]) == 0
    assert (
        cli.main(["install", "--event", "PostToolUse", "--scope", "user", "--allow-duplicate"]) == 0
    )
    status, out = doctor(capsys)
    assert status == 1 and "duplicate: 2 PostToolUseFailure hooks on Read" in out


def write_project_entries(min_words: int) -> None:
    """Our server and hook in the project's shared files, as written for this installation."""
    Path(".mcp.json").write_text(
        json.dumps({"mcpServers": {"mdsel": entries.server_entry(own_executable())}})
    )
    Path(".claude").mkdir(exist_ok=True)
    group = {"matcher": "Read", "hooks": [entries.hook_entry(own_executable(), min_words)]}
    Path(".claude/settings.json").write_text(json.dumps({"hooks": {"PreToolUse": [group]}}))


def test_doctor_with_an_approved_project_server(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_project_entries(30)
    approve_project_server(home)
    status, out = doctor(capsys)
    assert "approval: approved" in out
    assert out.rstrip().endswith("all good") and status == 0


def test_a_project_server_pending_approval_is_a_problem(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_project_entries(200)
    status, out = doctor(capsys)
    assert status == 1
    assert "approval: pending" in out
    assert "project MCP server 'mdsel' is pending: start `claude` in the project" in out
    Path(".claude/settings.local.json").write_text('{"disabledMcpjsonServers": ["mdsel"]}')
    status, out = doctor(capsys)
    assert status == 1 and "project MCP server 'mdsel' is disabled" in out


def test_a_server_switched_off_by_name_is_a_problem(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["install"]) == 0
    state_file = home / ".claude.json"
    state = json.loads(state_file.read_text())
    # What /mcp's "disable" writes for the project.
    state["projects"][str(Path.cwd())]["disabledMcpServers"] = ["mdsel"]
    state_file.write_text(json.dumps(state))
    status, out = doctor(capsys)
    assert status == 1
    assert "MCP server 'mdsel' is switched off (disabledMcpServers in " in out
    state["projects"][str(Path.cwd())]["disabledMcpServers"] = []
    state_file.write_text(json.dumps(state))
    (home / ".claude").mkdir(exist_ok=True)
    (home / ".claude" / "settings.json").write_text(
        json.dumps({"deniedMcpServers": [{"serverName": "mdsel"}]})
    )
    status, out = doctor(capsys)
    assert status == 1 and "is switched off (deniedMcpServers in " in out
    (home / ".claude" / "settings.json").write_text(
        json.dumps({"deniedMcpServers": [{"serverName": "other"}]})
    )
    assert doctor(capsys)[0] == 0


def test_a_value_in_settings_env_the_server_refuses_is_a_problem(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Claude Code gives its settings' `env` to the server it starts: a value the server refuses
    makes it exit at start, while doctor's own run of it (in doctor's environment) answers."""
    assert cli.main(["install"]) == 0
    settings = Path(".claude/settings.local.json")
    kept = json.loads(settings.read_text())
    settings.write_text(json.dumps({**kept, "env": {"MDSEL_PAGE_WORDS": "many"}}))
    status, out = doctor(capsys)
    assert status == 1
    assert "MCP server 'mdsel' would exit at start: MDSEL_PAGE_WORDS='many'" in out
    assert f"(set in {settings.resolve()})" in out
    assert "correct or remove MDSEL_PAGE_WORDS there" in out
    # A later file decides: the local one's good value wins over the user's bad one.
    (home / ".claude").mkdir(exist_ok=True)
    (home / ".claude" / "settings.json").write_text(json.dumps({"env": {"MDSEL_MAX_FILES": "0"}}))
    settings.write_text(json.dumps({**kept, "env": {"MDSEL_MAX_FILES": "12"}}))
    assert doctor(capsys)[0] == 0
    (home / ".claude" / "settings.json").unlink()
    # Other programs' variables are not ours; a relative MDSEL_ROOTS is the project's.
    Path("docs").mkdir()
    settings.write_text(json.dumps({**kept, "env": {"OTHER": "x", "MDSEL_ROOTS": "docs"}}))
    assert doctor(capsys)[0] == 0
    settings.write_text(json.dumps({**kept, "env": {"MDSEL_ROOTS": "nowhere"}}))
    status, out = doctor(capsys)
    assert status == 1 and "would exit at start: MDSEL_ROOTS='nowhere'" in out, out


@pytest.mark.parametrize(
    ("rule", "refused"),
    [
        ("mcp__mdsel", True),
        ("mcp__mdsel__*", True),
        ("mcp__mdsel__mdsel_select", True),
        ("mcp__mdsel__mdsel_index", True),
        ("mcp__other", False),
        ("mcp__mdsel_x", False),
        ("mcp__mdsel__other_tool", False),
        ("Read(./secrets/**)", False),
    ],
)
def test_a_permission_rule_that_denies_our_tools_is_a_problem(
    home: Path, capsys: pytest.CaptureFixture[str], rule: str, refused: bool
) -> None:
    assert cli.main(["install"]) == 0
    Path(".claude/settings.local.json").write_text(
        json.dumps(
            {
                "permissions": {"deny": [rule]},
                **json.loads(Path(".claude/settings.local.json").read_text()),
            }
        )
    )
    status, out = doctor(capsys)
    assert status == int(refused), out
    assert (f"permissions.deny has {rule!r} in " in out) == refused


def test_hooks_switched_off_are_a_problem_where_the_most_local_file_says_so(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["install"]) == 0
    local = Path(".claude/settings.local.json")
    settings = json.loads(local.read_text())
    (home / ".claude").mkdir(exist_ok=True)
    (home / ".claude" / "settings.json").write_text('{"disableAllHooks": true}')
    status, out = doctor(capsys)
    assert status == 1
    assert f"disableAllHooks is set in {home / '.claude' / 'settings.json'}" in out
    local.write_text(json.dumps({**settings, "disableAllHooks": False}))  # the local file wins
    assert doctor(capsys)[0] == 0


@pytest.mark.parametrize("added", [{"async": True}, {"timeout": 30}, {"type": "prompt"}])
def test_our_hook_with_a_key_added_by_hand_is_not_vouched_for(
    home: Path, capsys: pytest.CaptureFixture[str], added: dict[str, object]
) -> None:
    assert cli.main(["install"]) == 0
    local = Path(".claude/settings.local.json")
    settings = json.loads(local.read_text())
    settings["hooks"]["PreToolUse"][0]["hooks"][0].update(added)
    local.write_text(json.dumps(settings))
    status, out = doctor(capsys)
    assert status == 1
    assert (
        f"not ours, not run: not a hook install writes (other keys or values: {next(iter(added))}"
        in out
    )
    assert "no Read hook of this installation is registered" in out


def test_doctor_nothing_installed(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out = doctor(capsys)
    assert status == 1
    assert "nothing of mdsel-claude's in any scope" in out
    assert "no MCP server of this installation is registered" in out


def test_entries_of_another_program_are_not_run(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    Path(".mcp.json").write_text(
        json.dumps({"mcpServers": {"mdsel": {"command": "/nowhere/mdsel-claude", "args": []}}})
    )
    Path(".claude").mkdir()
    hook = entries.hook_entry("/bin/mdsel-claude", 5)
    Path(".claude/settings.json").write_text(
        json.dumps({"hooks": {"PreToolUse": [{"matcher": "Read", "hooks": [hook]}]}})
    )
    status, out = doctor(capsys)
    assert status == 1
    assert "not ours, not run: its arguments are [], not ['serve']" in out
    assert "not ours, not run: '/bin/mdsel-claude' is not an installed program" in out
    assert "which is not this installation's" in out
    assert "no Read hook of this installation is registered" in out
    assert "ok:" not in out  # nothing was run


def test_doctor_reads_user_and_local_scopes_and_flags_duplicates(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    server = entries.server_entry(own_executable())
    project = str(Path.cwd())
    (home / ".claude.json").write_text(
        json.dumps(
            {
                "mcpServers": {"mdsel": server},
                "projects": {project: {"mcpServers": {"mdsel": {**server, "env": {}}}}},
            }
        )
    )
    status, out = doctor(capsys)
    assert status == 1
    assert f"MCP server 'mdsel' user scope ({home / '.claude.json'}): ours" in out
    assert (
        f"MCP server 'mdsel' local scope ({home / '.claude.json'} projects[{project!r}]): ours"
        in out
    )
    assert "MCP server 'mdsel' is registered twice: user scope" in out
    assert "local scope" in out.split("registered twice")[1].split("\n")[0]


def test_doctor_finds_user_files_under_claude_config_dir(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "config"
    config.mkdir()
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(config))
    hook = entries.hook_entry(own_executable(), 7)
    (config / ".claude.json").write_text(
        json.dumps({"mcpServers": {"mdsel": entries.server_entry(own_executable())}})
    )
    (config / "settings.json").write_text(
        json.dumps({"hooks": {"PostToolUse": [{"matcher": "Read", "hooks": [hook]}]}})
    )
    status, out = doctor(capsys)
    assert "ok: reminder for 8 words of Markdown, silence for 7" in out
    assert out.rstrip().endswith("all good") and status == 0


def test_doctor_flags_two_read_hooks(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["install"]) == 0
    assert cli.main(["install", "--scope", "user", "--allow-duplicate"]) == 0
    status, out = doctor(capsys)
    assert status == 1
    assert "duplicate: 2 Read hooks are registered" in out


def test_doctor_fails_a_hook_that_never_runs_on_read(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["install"]) == 0
    settings = json.loads(Path(".claude/settings.local.json").read_text())
    settings["hooks"]["PreToolUse"][0]["matcher"] = "Write"
    Path(".claude/settings.local.json").write_text(json.dumps(settings))
    capsys.readouterr()
    assert cli.main(["doctor"]) == 1
    assert "never runs when the agent uses Read" in capsys.readouterr().out


def test_enabled_plugin_entries_are_read_from_its_install_path(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("PATH", str(Path(own_executable()).parent))
    plugin = tmp_path / "plugin-cache" / "0.1.0"
    (plugin / "hooks").mkdir(parents=True)
    (plugin / ".mcp.json").write_text(
        json.dumps({"mcpServers": {"mdsel": {"command": "mdsel-claude", "args": ["serve"]}}})
    )
    hook = {"type": "command", "command": "mdsel-claude hook"}
    (plugin / "hooks" / "hooks.json").write_text(
        json.dumps({"hooks": {"PreToolUse": [{"matcher": "Read", "hooks": [hook]}]}})
    )
    (home / ".claude" / "plugins").mkdir(parents=True)
    (home / ".claude" / "plugins" / "installed_plugins.json").write_text(
        json.dumps({"plugins": {"mdsel-claude@market": [{"installPath": str(plugin)}]}})
    )
    (home / ".claude" / "settings.json").write_text(
        json.dumps({"enabledPlugins": {"mdsel-claude@market": True}})
    )
    status, out = doctor(capsys)
    assert "plugin mdsel-claude@market (" in out
    assert "ok: answers initialize" in out and "ok: reminder for 201 words" in out
    assert status == 0, out
    assert cli.main(["install", "--scope", "user", "--allow-duplicate"]) == 0
    status, out = doctor(capsys)
    assert status == 1 and "duplicate: 2 Read hooks are registered" in out


def write_managed(home: Path, name: str, value: object) -> Path:
    """A file of the organisation's managed settings (the `home` fixture's managed folder)."""
    path = home.parent / "managed" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(value))
    return path


@pytest.mark.parametrize(
    ("name", "value", "said"),
    [
        (
            "managed-settings.json",
            {"deniedMcpServers": [{"serverName": "mdsel"}]},
            "is switched off (deniedMcpServers in {path})",
        ),
        (
            "managed-settings.d/20-mcp.json",
            {"permissions": {"deny": ["mcp__mdsel__*"]}},
            "permissions.deny has 'mcp__mdsel__*' in {path}",
        ),
        (
            "managed-settings.json",
            {"allowedMcpServers": [{"serverName": "other"}], "allowManagedMcpServersOnly": True},
            "allowedMcpServers in {path}: it names no serverName 'mdsel'",
        ),
        (
            "managed-mcp.json",
            {"mcpServers": {}},
            "{path} is present, and then only its servers start; ask the administrator",
        ),
        (
            "managed-settings.json",
            {"strictPluginOnlyCustomization": ["mcp"]},
            "strictPluginOnlyCustomization in {path} lets servers come from plugins only",
        ),
        (
            "managed-settings.json",
            {"strictPluginOnlyCustomization": ["hooks"]},
            "strictPluginOnlyCustomization in {path} lets hooks come from plugins only",
        ),
        (
            "managed-settings.json",
            {"allowManagedHooksOnly": True},
            "allowManagedHooksOnly in {path} runs only the hooks of managed settings",
        ),
        (
            "managed-settings.json",
            {"disableAllHooks": True},
            "disableAllHooks is set in {path}",
        ),
    ],
)
def test_managed_settings_that_keep_ours_out_are_a_problem(
    home: Path, capsys: pytest.CaptureFixture[str], name: str, value: object, said: str
) -> None:
    assert cli.main(["install"]) == 0
    assert doctor(capsys)[0] == 0
    path = write_managed(home, name, value)
    status, out = doctor(capsys)
    assert status == 1, out
    assert said.format(path=path) in out, out


def test_managed_settings_win_over_the_users_and_narrow_what_counts(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["install"]) == 0
    local = Path(".claude/settings.local.json")
    settings = json.loads(local.read_text())
    # The user's own allowlist leaves ours out; with allowManagedMcpServersOnly it no longer
    # counts, and a managed list that names ours lets it in.
    local.write_text(json.dumps({**settings, "allowedMcpServers": [{"serverName": "other"}]}))
    assert doctor(capsys)[0] == 1
    write_managed(home, "managed-settings.json", {"allowManagedMcpServersOnly": True})
    assert doctor(capsys)[0] == 0
    # The user's deny rule stops counting where only managed permission rules apply.
    local.write_text(json.dumps({**settings, "permissions": {"deny": ["mcp__mdsel"]}}))
    assert doctor(capsys)[0] == 1
    write_managed(home, "managed-settings.json", {"allowManagedPermissionRulesOnly": True})
    assert doctor(capsys)[0] == 0
    # disableAllHooks: false in the local file does not win over the managed true.
    local.write_text(json.dumps({**settings, "disableAllHooks": False}))
    path = write_managed(home, "managed-settings.json", {"disableAllHooks": True})
    status, out = doctor(capsys)
    assert status == 1 and f"disableAllHooks is set in {path}" in out


def test_a_strict_plugin_only_value_claude_code_cannot_read_locks_everything(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["install"]) == 0
    path = write_managed(home, "managed-settings.json", {"strictPluginOnlyCustomization": "yes"})
    status, out = doctor(capsys)
    assert status == 1
    assert f"strictPluginOnlyCustomization in {path} lets servers come" in out
    assert f"strictPluginOnlyCustomization in {path} lets hooks come" in out
    write_managed(home, "managed-settings.json", {"strictPluginOnlyCustomization": ["skills"]})
    assert doctor(capsys)[0] == 0


def test_the_organisations_own_server_in_managed_mcp_json(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Ours in managed-mcp.json is the server started; one the user registers too is unused."""
    path = write_managed(
        home, "managed-mcp.json", {"mcpServers": {"mdsel": entries.server_entry(own_executable())}}
    )
    assert cli.main(["install"]) == 1
    refused = capsys.readouterr().err
    assert f"MCP server 'mdsel' in managed scope ({path})" in refused
    assert "by the administrator (the managed settings are theirs)" in refused
    assert "uninstall --scope managed" not in refused
    assert cli.main(["install", "--allow-duplicate"]) == 0
    status, out = doctor(capsys)
    assert f"MCP server 'mdsel' managed scope ({path}): ours" in out
    assert "Claude Code does not start MCP server 'mdsel' from local scope" in out
    assert f"{path} is present, and then only its servers start (its 'mdsel' is used" in out
    assert status == 1
    # The hook of the install and the organisation's server: all good.
    claude = home / ".claude.json"
    state = json.loads(claude.read_text())
    del state["projects"][str(Path.cwd())]["mcpServers"]
    claude.write_text(json.dumps(state))
    status, out = doctor(capsys)
    assert status == 0, out


def test_a_managed_file_that_cannot_be_read_is_a_problem(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["install"]) == 0
    path = home.parent / "managed" / "managed-settings.json"
    path.parent.mkdir()
    path.write_text("{not json")
    status, out = doctor(capsys)
    assert status == 1 and str(path) in out


@pytest.mark.parametrize(
    ("value", "seconds"),
    [(None, 30.0), ("120000", 120.0), ("1", 0.001), ("0", 30.0), ("-5", 30.0), ("2.5", 30.0),
     ("\u0663", 30.0), ("99999999999", 30.0)],
)  # fmt: skip
def test_doctor_waits_for_a_server_as_long_as_claude_code_does(
    value: str | None, seconds: float
) -> None:
    """MCP_TIMEOUT, in milliseconds, as Claude Code reads it; anything else is its 30 s."""
    environ = {} if value is None else {"MCP_TIMEOUT": value}
    assert probes.server_timeout(environ) == seconds
