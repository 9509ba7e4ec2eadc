"""doctor against files the real Claude Code CLI wrote: every scope, approval, duplicates.

What doctor says must agree with `claude mcp list` on the same files: a project server is
"Pending approval" until the workspace is trusted and the server enabled, and a server
registered in two scopes is one too many.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from mdsel_claude.setup import entries
from tests.e2e.test_claude_cli import claude_cli, run, sandbox, server_lines

__all__ = ["claude_cli", "sandbox"]  # fixtures, used by name

EXE = str(Path(sys.executable).parent / "mdsel-claude")


def test_doctor_reads_what_claude_wrote_in_each_scope(
    sandbox: tuple[dict[str, str], Path],
) -> None:
    env, project = sandbox
    home = Path(env["HOME"])
    added = run(
        ["claude", "mcp", "add", "-s", "project", "mdsel", "--", EXE, "serve"], env, project
    )
    assert added.returncode == 0, added.stderr
    settings = project / ".claude" / "settings.json"
    settings.parent.mkdir()
    group = {"matcher": "Read", "hooks": [entries.hook_entry(EXE, 40)]}
    settings.write_text(json.dumps({"hooks": {"PreToolUse": [group]}}))

    [line] = server_lines(run(["claude", "mcp", "list"], env, project).stdout, "mdsel")
    assert "Pending approval" in line
    doctor = run(["mdsel-claude", "doctor"], env, project)
    assert doctor.returncode == 1
    assert "approval: pending" in doctor.stdout
    assert "ok: answers initialize" in doctor.stdout  # ours, so run with our own executable
    assert "ok: reminder for 41 words of Markdown, silence for 40" in doctor.stdout

    # Trust the workspace and approve the server as Claude Code records it.
    state = json.loads((home / ".claude.json").read_text())
    state.setdefault("projects", {}).setdefault(str(project), {})["hasTrustDialogAccepted"] = True
    (home / ".claude.json").write_text(json.dumps(state))
    local = project / ".claude" / "settings.local.json"
    local.write_text(json.dumps({"enabledMcpjsonServers": ["mdsel"]}))
    [line] = server_lines(run(["claude", "mcp", "list"], env, project).stdout, "mdsel")
    assert "Connected" in line, line
    doctor = run(["mdsel-claude", "doctor"], env, project)
    assert "approval: approved" in doctor.stdout
    assert doctor.returncode == 0, doctor.stdout

    added = run(["claude", "mcp", "add", "-s", "user", "mdsel", "--", EXE, "serve"], env, project)
    assert added.returncode == 0, added.stderr
    added = run(["claude", "mcp", "add", "-s", "local", "mdsel", "--", EXE, "serve"], env, project)
    assert added.returncode == 0, added.stderr
    doctor = run(["mdsel-claude", "doctor"], env, project)
    assert doctor.returncode == 1
    for scope in ("user", "local", "project"):
        assert f"MCP server 'mdsel' [{scope}]" in doctor.stdout
    assert doctor.stdout.count("is registered twice") == 2, doctor.stdout
