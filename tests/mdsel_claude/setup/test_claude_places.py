"""Reading every scope's Claude Code files: where each entry is, and project-server approval."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mdsel_claude.setup import claude_places

SERVER = {"command": "mdsel-claude", "args": ["serve"]}


def write(path: Path, value: object) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(value))


def test_every_scope_is_read(home: Path, tmp_path: Path) -> None:
    project = Path.cwd()
    (project / ".git").mkdir()
    (project / "docs").mkdir()
    write(tmp_path / ".mcp.json", {"mcpServers": {"mdsel": SERVER}})  # above the project
    write(project / ".mcp.json", {"mcpServers": {"mdsel": SERVER, "other": {"command": "x"}}})
    write(
        home / ".claude.json",
        {
            "mcpServers": {"mdsel": SERVER},
            "projects": {str(project): {"mcpServers": {"mine": SERVER}}},
        },
    )
    hook = {
        "hooks": {"PreToolUse": [{"matcher": "Read", "hooks": [{"command": "mdsel-claude hook"}]}]}
    }
    write(home / ".claude" / "settings.json", hook)
    write(project / ".claude" / "settings.local.json", hook)
    found = claude_places.survey(project / "docs", {})
    assert found.project == project
    assert [(s.scope, s.name) for s in found.servers] == [
        ("user", "mdsel"),
        ("local", "mine"),
        ("project", "mdsel"),
        ("project", "mdsel"),
    ]
    assert [s.where for s in found.servers[2:]] == [
        str(project / ".mcp.json"),
        str(tmp_path / ".mcp.json"),
    ]
    assert [(h.scope, h.event, h.matcher) for h in found.hooks] == [
        ("user", "PreToolUse", "Read"),
        ("local", "PreToolUse", "Read"),
    ]
    assert found.problems == []


@pytest.mark.parametrize(
    ("trusted", "settings", "state"),
    [
        (False, {"enabledMcpjsonServers": ["mdsel"]}, "pending"),
        (True, {}, "pending"),
        (True, {"enabledMcpjsonServers": ["mdsel"]}, "approved"),
        (True, {"enableAllProjectMcpServers": True}, "approved"),
        (True, {"enabledMcpjsonServers": ["other"]}, "pending"),
        (
            True,
            {"enableAllProjectMcpServers": True, "disabledMcpjsonServers": ["mdsel"]},
            "disabled",
        ),
        (False, {"disabledMcpjsonServers": ["mdsel"]}, "disabled"),
    ],
)
def test_approval(home: Path, trusted: bool, settings: object, state: str) -> None:
    project = Path.cwd()
    write(home / ".claude.json", {"projects": {str(project): {"hasTrustDialogAccepted": trusted}}})
    write(project / ".claude" / "settings.local.json", settings)
    assert claude_places.approval_of(claude_places.survey(project, {}), "mdsel") == state


def test_older_approval_keys_in_claude_json_count(home: Path) -> None:
    project = str(Path.cwd())
    write(
        home / ".claude.json",
        {
            "projects": {
                project: {"hasTrustDialogAccepted": True, "enabledMcpjsonServers": ["mdsel"]}
            }
        },
    )
    assert claude_places.approval_of(claude_places.survey(Path.cwd(), {}), "mdsel") == "approved"


def test_unreadable_files_are_problems_not_crashes(home: Path) -> None:
    (home / ".claude.json").write_text("{")
    write(Path(".claude/settings.json"), {"a": 1})
    Path(".mcp.json").symlink_to("/dev/zero")
    found = claude_places.survey(Path.cwd(), {})
    assert len(found.problems) == 2
    assert any("not valid JSON" in p for p in found.problems)
    assert any("is a device, not a regular file" in p for p in found.problems)


def test_plugin_enabled_but_not_installed(home: Path) -> None:
    write(home / ".claude" / "settings.json", {"enabledPlugins": {"mdsel-claude@m": True}})
    write(Path(".claude/settings.local.json"), {"enabledPlugins": {"other@m": True}})
    found = claude_places.survey(Path.cwd(), {})
    assert found.plugins == ["mdsel-claude@m"]
    assert found.problems == ["plugin mdsel-claude@m is enabled but not installed"]
    write(Path(".claude/settings.local.json"), {"enabledPlugins": {"mdsel-claude@m": False}})
    assert claude_places.survey(Path.cwd(), {}).plugins == []


def test_in_the_home_directory_the_user_settings_are_read_once(home: Path) -> None:
    # Run from ~ (no repository above), the project's .claude/settings.json is the user's
    # own file: one hook, in user scope, not a duplicate in project scope.
    hook = {
        "hooks": {"PreToolUse": [{"matcher": "Read", "hooks": [{"command": "mdsel-claude hook"}]}]}
    }
    write(home / ".claude" / "settings.json", hook)
    found = claude_places.survey(home, {})
    assert [(h.scope, h.where) for h in found.hooks] == [
        ("user", str(home / ".claude" / "settings.json"))
    ]


@pytest.mark.parametrize(
    ("allowlists", "starts"),
    [
        ([None, None], True),
        ([[], None], False),  # an empty list: no server starts
        ([[{"serverName": "other"}], None], False),
        ([[{"serverName": "other"}], [{"serverName": "mdsel"}]], True),  # merged over files
        ([[{"serverName": "mdsel"}, {"serverCommand": ["x"]}], None], False),
        ([[{"serverCommand": ["/bin/mdsel-claude", "serve"]}], None], True),
        ([[{"serverCommand": ["/bin/mdsel-claude"]}], None], False),  # exactly, arguments too
        ([[{"serverUrl": "https://*"}], None], False),
    ],
)
def test_allowed_mcp_servers_are_merged_and_judged(
    tmp_path: Path, allowlists: list[object], starts: bool
) -> None:
    found = claude_places.Survey(tmp_path)
    for number, entries_ in enumerate(allowlists):
        claude_places._allowlist(found, f"settings{number}.json", {"allowedMcpServers": entries_})
    server = {"type": "stdio", "command": "/bin/mdsel-claude", "args": ["serve"]}
    refusal = claude_places.allowlist_refusal(found, "mdsel", server)
    assert (refusal is None) == starts, refusal
    if refusal is not None:
        assert refusal.startswith("allowedMcpServers in settings0.json")


def _worktree(tmp_path: Path) -> tuple[Path, Path]:
    """A repository and a linked worktree of it, laid out as `git worktree add` does."""
    main = tmp_path / "repo"
    git_dir = main / ".git" / "worktrees" / "wt"
    git_dir.mkdir(parents=True)
    tree = tmp_path / "wt"
    tree.mkdir()
    (tree / ".git").write_text(f"gitdir: {git_dir}\n")
    (git_dir / "commondir").write_text("../..\n")
    (git_dir / "gitdir").write_text(f"{tree / '.git'}\n")
    return main, tree


def test_a_worktree_is_keyed_by_its_main_repository(tmp_path: Path) -> None:
    # Claude Code 2.1 keys a linked worktree's local-scope servers (`claude mcp add -s local`
    # run in it writes there) and approvals by the main repository's root.
    from mdsel_claude.setup import paths

    main, tree = _worktree(tmp_path)
    assert paths.project_root(tree) == tree
    assert paths.config_key_root(tree) == main
    assert paths.locations("local", tree, {}).servers_at == ("projects", str(main))
    assert paths.config_key_root(main) == main


def test_a_worktree_that_does_not_point_back_keeps_its_own_key(tmp_path: Path) -> None:
    from mdsel_claude.setup import paths

    main, tree = _worktree(tmp_path)
    (main / ".git" / "worktrees" / "wt" / "gitdir").write_text("/elsewhere/.git\n")
    assert paths.config_key_root(tree) == tree
    (tree / ".git").write_text("gitdir: ../repo/.git/modules/sub\n")  # a submodule
    assert paths.config_key_root(tree) == tree


def test_a_worktree_local_server_is_read_under_the_main_key(home: Path, tmp_path: Path) -> None:
    main, tree = _worktree(tmp_path)
    write(home / ".claude.json", {"projects": {str(main): {"mcpServers": {"mdsel": SERVER}}}})
    found = claude_places.survey(tree, {})
    assert [(s.scope, s.name) for s in found.servers] == [("local", "mdsel")]
