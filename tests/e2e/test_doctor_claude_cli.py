"""doctor against files the real Claude Code CLI wrote: every scope, approval, duplicates.

What doctor says must agree with `claude mcp list` on the same files: a project server is
"Pending approval" until the workspace is trusted and the server enabled, and a server
registered in two scopes is one too many.
"""

from __future__ import annotations

import json

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
