"""What the managed settings keep from running, one server or hook at a time."""

from __future__ import annotations

from pathlib import Path

from mdsel_claude.setup import managed, policy
from mdsel_claude.setup.claude_places import Hook, Server, Survey


def found(**switches: object) -> Survey:
    survey = Survey(Path("/project"))
    survey.policy = managed.Policy(**switches)  # type: ignore[arg-type]
    return survey


def server(scope: str) -> Server:
    return Server(scope, "/somewhere", "mdsel", {"command": "x"})


def hook(scope: str) -> Hook:
    return Hook(scope, "/somewhere", "PreToolUse", "Read|Bash", "x hook")


def test_nothing_managed_keeps_nothing_out() -> None:
    for scope in ("local", "project", "user", "plugin mdsel@m", "managed"):
        assert policy.server_refusal(server(scope), found()) is None
        assert policy.hook_refusal(hook(scope), found()) is None


def test_managed_mcp_json_keeps_every_other_server_out() -> None:
    survey = found(servers_file="/etc/claude-code/managed-mcp.json")
    for scope in ("local", "project", "user", "plugin mdsel@m"):
        refusal = policy.server_refusal(server(scope), survey)
        assert refusal is not None and "ask the administrator to add ours" in refusal
    assert policy.server_refusal(server("managed"), survey) is None


def test_plugin_only_surfaces() -> None:
    survey = found(plugin_only={"mcp": "/m.json"})
    assert policy.server_refusal(server("user"), survey) is not None
    assert policy.server_refusal(server("plugin mdsel@m"), survey) is None
    assert policy.hook_refusal(hook("user"), survey) is None
    survey = found(plugin_only={"hooks": "/m.json"})
    assert policy.hook_refusal(hook("local"), survey) is not None
    assert policy.hook_refusal(hook("plugin mdsel@m"), survey) is None


def test_managed_hooks_only_lets_in_the_plugins_the_managed_settings_enable() -> None:
    survey = found(hooks_only="/m.json", enabled_plugins={"mdsel@m": True, "mdsel@n": False})
    assert policy.hook_refusal(hook("plugin mdsel@m"), survey) is None
    assert policy.hook_refusal(hook("plugin mdsel@n"), survey) is not None
    assert policy.hook_refusal(hook("project"), survey) is not None
    assert policy.hook_refusal(hook("managed"), survey) is None
