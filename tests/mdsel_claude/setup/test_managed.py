"""Reading Claude Code's managed settings: the files, their order, what each switch says."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mdsel_claude.setup import managed


def write(folder: Path, name: str, value: object) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(value if isinstance(value, str) else json.dumps(value))
    return path


def test_no_folder_is_no_policy(tmp_path: Path) -> None:
    policy = managed.read_policy(tmp_path / "absent")
    assert policy.files == [] and policy.problems == []
    assert policy.servers_file is None and policy.plugin_only == {}


def test_drop_ins_are_read_after_the_file_in_name_order(tmp_path: Path) -> None:
    main = write(tmp_path, "managed-settings.json", {"allowManagedHooksOnly": True})
    later = write(tmp_path, "managed-settings.d/20-b.json", {"allowManagedHooksOnly": False})
    earlier = write(tmp_path, "managed-settings.d/10-a.json", {"allowManagedMcpServersOnly": True})
    write(tmp_path, "managed-settings.d/30-c.txt", {"allowManagedHooksOnly": True})
    policy = managed.read_policy(tmp_path)
    assert policy.files == [str(main), str(earlier), str(later)]
    assert policy.hooks_only is None  # the later file's false wins
    assert policy.allowlist_only == str(earlier)


def test_managed_mcp_json_holds_the_only_servers(tmp_path: Path) -> None:
    path = write(tmp_path, "managed-mcp.json", {"mcpServers": {"mdsel": {"command": "x"}}})
    policy = managed.read_policy(tmp_path)
    assert policy.servers_file == str(path) and list(policy.servers) == ["mdsel"]
    write(tmp_path, "managed-mcp.json", {"mcpServers": []})
    policy = managed.read_policy(tmp_path)
    assert policy.servers_file == str(path) and policy.servers == {}  # still exclusive


@pytest.mark.parametrize(
    ("value", "locked"),
    [
        (True, ("hooks", "mcp")),
        (False, ()),
        ([], ()),
        (["mcp"], ("mcp",)),
        (["hooks", "skills"], ("hooks",)),
        ("yes", ("hooks", "mcp")),  # unreadable: Claude Code takes it for true
        ([1], ("hooks", "mcp")),
    ],
)
def test_strict_plugin_only_customization(
    tmp_path: Path, value: object, locked: tuple[str, ...]
) -> None:
    path = write(tmp_path, "managed-settings.json", {"strictPluginOnlyCustomization": value})
    assert managed.read_policy(tmp_path).plugin_only == dict.fromkeys(locked, str(path))


def test_a_file_that_cannot_be_read_is_a_problem_and_the_rest_is_read(tmp_path: Path) -> None:
    bad = write(tmp_path, "managed-settings.json", "{")
    good = write(tmp_path, "managed-settings.d/a.json", {"enabledPlugins": {"mdsel@m": True}})
    policy = managed.read_policy(tmp_path)
    assert len(policy.problems) == 1 and str(bad) in policy.problems[0]
    assert policy.files == [str(good)] and policy.enabled_plugins == {"mdsel@m": True}


def test_the_system_folder(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.platform", "linux")
    assert managed.managed_dir() == Path("/etc/claude-code")
    monkeypatch.setattr("sys.platform", "darwin")
    assert managed.managed_dir() == Path("/Library/Application Support/ClaudeCode")
