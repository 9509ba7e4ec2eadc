"""doctor against files the real Claude Code CLI wrote: every scope, approval, duplicates.

What doctor says must agree with `claude mcp list` on the same files: a project server is
"Pending approval" until the workspace is trusted and the server enabled, and a server
registered in two scopes is one too many.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from mdsel_claude.setup import entries
from tests.e2e.test_claude_cli import Sandbox, claude_cli, installed, sandbox, server_lines

__all__ = ["claude_cli", "sandbox"]  # fixtures, used by name


def test_doctor_reads_what_claude_wrote_in_each_scope(sandbox: Sandbox) -> None:
    exe = installed(sandbox)
    added = sandbox.run("claude", "mcp", "add", "-s", "project", "mdsel", "--", exe, "serve")
    assert added.returncode == 0, added.stderr
    settings = sandbox.project / ".claude" / "settings.json"
    settings.parent.mkdir()
    group = {"matcher": "Read", "hooks": [entries.hook_entry(exe, 40)]}
    settings.write_text(json.dumps({"hooks": {"PreToolUse": [group]}}))

    [line] = server_lines(sandbox.run("claude", "mcp", "list").stdout, "mdsel")
    assert "Pending approval" in line
    doctor = sandbox.run("mdsel-claude", "doctor")
    assert doctor.returncode == 1
    assert "approval: pending" in doctor.stdout
    assert "ok: answers initialize" in doctor.stdout  # ours, so run with our own executable
    assert "ok: reminder for 41 words of Markdown, silence for 40" in doctor.stdout

    # Trust the workspace and approve the server, as Claude Code records it.
    claude_json = sandbox.home / ".claude.json"
    state = json.loads(claude_json.read_text()) if claude_json.exists() else {}
    project = state.setdefault("projects", {}).setdefault(str(sandbox.project), {})
    project["hasTrustDialogAccepted"] = True
    claude_json.write_text(json.dumps(state))
    local = sandbox.project / ".claude" / "settings.local.json"
    local.write_text(json.dumps({"enabledMcpjsonServers": ["mdsel"]}))
    [line] = server_lines(sandbox.run("claude", "mcp", "list").stdout, "mdsel")
    assert "Connected" in line, line
    doctor = sandbox.run("mdsel-claude", "doctor")
    assert "approval: approved" in doctor.stdout
    assert doctor.returncode == 0, doctor.stdout

    for scope in ("user", "local"):
        added = sandbox.run("claude", "mcp", "add", "-s", scope, "mdsel", "--", exe, "serve")
        assert added.returncode == 0, added.stderr
    doctor = sandbox.run("mdsel-claude", "doctor")
    assert doctor.returncode == 1
    for scope in ("user", "local", "project"):
        assert f"MCP server 'mdsel' {scope} scope (" in doctor.stdout
    assert doctor.stdout.count("is registered twice") == 2, doctor.stdout


ALLOWLISTS = [
    None,
    [],
    [{"serverName": "other"}],
    [{"serverName": "mdsel"}],
    [{"serverName": "mdsel"}, {"serverCommand": ["x"]}],
    [{"serverCommand": ["EXE", "serve"]}],
    [{"serverUrl": "https://*"}],
]


def test_doctor_reads_allowed_mcp_servers_as_claude_code_does(sandbox: Sandbox) -> None:
    """For each allowlist, doctor fails exactly when `claude mcp list` leaves our server out."""
    exe = installed(sandbox)
    assert sandbox.run("mdsel-claude", "install", "--scope", "user").returncode == 0
    settings = sandbox.home / ".claude" / "settings.json"
    value = json.loads(settings.read_text()) if settings.exists() else {}
    for allowlist in ALLOWLISTS:
        if allowlist is None:
            value.pop("allowedMcpServers", None)
        else:
            text = json.dumps(allowlist).replace('"EXE"', json.dumps(exe))
            value["allowedMcpServers"] = json.loads(text)
        settings.write_text(json.dumps(value))
        started = bool(server_lines(sandbox.run("claude", "mcp", "list").stdout, "mdsel"))
        doctor = sandbox.run("mdsel-claude", "doctor")
        refused = (
            "Claude Code does not start MCP server 'mdsel': allowedMcpServers" in doctor.stdout
        )
        assert refused == (not started), (allowlist, doctor.stdout)
        assert (doctor.returncode == 0) == started, (allowlist, doctor.stdout)


MANAGED: list[tuple[dict[str, object], dict[str, object], bool]] = [
    ({}, {}, True),
    ({"managed-settings.json": {"deniedMcpServers": [{"serverName": "mdsel"}]}}, {}, False),
    ({"managed-settings.d/10-mcp.json": {"deniedMcpServers": [{"serverName": "mdsel"}]}}, {},
     False),
    ({"managed-settings.json": {"allowManagedMcpServersOnly": True,
                                "allowedMcpServers": [{"serverName": "other"}]}},
     {"allowedMcpServers": [{"serverName": "mdsel"}]}, False),
    ({"managed-settings.json": {"allowManagedMcpServersOnly": True}},
     {"allowedMcpServers": [{"serverName": "other"}]}, True),
    ({"managed-settings.json": {"allowedMcpServers": [{"serverName": "other"}]},
      "managed-settings.d/a.json": {"allowedMcpServers": [{"serverName": "mdsel"}]}}, {}, True),
    ({"managed-mcp.json": {"mcpServers": {}}}, {}, False),
    ({"managed-settings.json": {"strictPluginOnlyCustomization": ["mcp"]}}, {}, False),
    ({"managed-settings.json": {"strictPluginOnlyCustomization": ["skills"]}}, {}, True),
    ({"managed-settings.json": {"strictPluginOnlyCustomization": True}}, {}, False),
]  # fmt: skip
"""(managed files, the user's settings, whether Claude Code starts our server)."""


def test_doctor_reads_managed_settings_as_claude_code_does(
    sandbox: Sandbox, tmp_path: Path
) -> None:
    """Claude Code's managed settings live in /etc/claude-code: each case is put there in a
    mount namespace of its own (an overlay on /etc, so the machine's is untouched), and doctor
    must fail exactly when `claude mcp list` leaves our server out."""
    if os.name != "posix" or shutil.which("unshare") is None:
        pytest.skip("needs unshare (Linux) to put files in /etc/claude-code for one process")
    exe = installed(sandbox)
    assert sandbox.run("mdsel-claude", "install", "--scope", "user").returncode == 0
    settings = sandbox.home / ".claude" / "settings.json"
    own = json.loads(settings.read_text())
    for number, (files, user, started) in enumerate(MANAGED):
        upper, work = tmp_path / f"etc-{number}", tmp_path / f"work-{number}"
        work.mkdir()
        for name, value in files.items():
            path = upper / "claude-code" / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(value))
        upper.mkdir(exist_ok=True)
        settings.write_text(json.dumps({**own, **user}))
        mount = f"mount -t overlay overlay -o lowerdir=/etc,upperdir={upper},workdir={work} /etc"
        wrapper = ("unshare", "-m", "sh", "-c", f'{mount} && exec "$@"', "sh")
        probe = sandbox.run(*wrapper, "true")
        if probe.returncode != 0:  # not root, or no overlay mounts in this container
            pytest.skip(f"cannot mount an overlay on /etc here: {probe.stderr.strip()}")
        listed = sandbox.run(*wrapper, "claude", "mcp", "list")
        assert bool(server_lines(listed.stdout, "mdsel")) == started, (files, listed.stdout)
        doctor = sandbox.run(*wrapper, "mdsel-claude", "doctor")
        refused = "does not start MCP server 'mdsel'" in doctor.stdout or (
            "MCP server 'mdsel' is switched off" in doctor.stdout
        )
        assert refused == (not started), (files, doctor.stdout)
        assert (doctor.returncode == 0) == started, (files, doctor.stdout)
        assert exe in doctor.stdout


def test_install_writes_the_legacy_user_file_claude_code_reads(sandbox: Sandbox) -> None:
    """A `~/.claude/.config.json` left by an older Claude Code is the user file Claude Code
    reads (not `~/.claude.json`): install must write our server there for it to start."""
    installed(sandbox)
    legacy = sandbox.home / ".claude" / ".config.json"
    legacy.parent.mkdir(exist_ok=True)
    legacy.write_text('{"numStartups": 3}')
    assert sandbox.run("mdsel-claude", "install", "--scope", "user").returncode == 0
    [line] = server_lines(sandbox.run("claude", "mcp", "list").stdout, "mdsel")
    assert "Connected" in line, line
    assert sandbox.run("mdsel-claude", "doctor").returncode == 0
    assert sandbox.run("mdsel-claude", "uninstall", "--scope", "user").returncode == 0
    assert not server_lines(sandbox.run("claude", "mcp", "list").stdout, "mdsel")
