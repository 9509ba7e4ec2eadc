"""The hook on Claude Code's Bash tool, in the real CLI: a command that prints a large Markdown
file brings the reminder to the model; one that prints a few lines of it does not.

`mdsel-claude install` (user scope, a temporary HOME) registers the hook as users get it; `claude
-p` (pinned in tools/clients) runs against the stand-in Messages API (anthropic_stub.py), whose
model asks for one Bash command. The request after it is what the model would see.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import environ_without
from tests.e2e.anthropic_stub import Stub, messages_api_calling, run_claude
from tests.e2e.test_claude_cli import client
from tests.e2e.test_claude_read_hook import REMINDER, body_lines, guide


def run_bash(tmp_path: Path, command: str, *install_args: str) -> Stub:
    claude_cli = client("claude")
    scripts = Path(sys.executable).parent
    if not (scripts / "mdsel-claude").exists():
        pytest.skip("the mdsel-claude script is not installed (pip install -e .)")
    home = tmp_path / "home"
    home.mkdir()
    project = tmp_path / "project"
    project.mkdir()
    (project / "guide.md").write_text(guide(), encoding="utf-8")
    env = environ_without("ANTHROPIC_", "CLAUDE_", "MDSEL_", "XDG_")
    env.update(HOME=str(home), PATH=os.pathsep.join([str(scripts), "/usr/bin", "/bin"]))
    installed = subprocess.run(
        ["mdsel-claude", "install", "--scope", "user", *install_args],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert installed.returncode == 0, installed.stdout + installed.stderr
    calling = messages_api_calling("Bash", command=command, description="Show the guide")
    with calling as (url, stub):
        run_claude(claude_cli, url, env, project, "Show the guide.", "--allowedTools", "Bash")
    assert stub.tool_result(), "the session never ran the command"
    return stub


@pytest.mark.parametrize("command", ["cat guide.md", "sed -n '1,400p' guide.md | nl -ba"])
def test_a_large_read_through_bash_brings_the_reminder(tmp_path: Path, command: str) -> None:
    stub = run_bash(tmp_path, command)
    shown = stub.tool_result()
    # The command ran as it was: its output is all there, and the reminder comes beside it.
    prose = body_lines(tmp_path / "project" / "guide.md")[:40]
    assert all(line in shown for line in prose)
    assert json.dumps(REMINDER)[1:-1] in stub.after_tool()


def test_a_few_lines_bring_nothing(tmp_path: Path) -> None:
    stub = run_bash(tmp_path, "head -n 3 guide.md")
    assert "Guide" in stub.tool_result()
    assert "Use mdsel_index" not in stub.after_tool()


def test_outline_mode_reminds_after_the_command(tmp_path: Path) -> None:
    # Outline mode registers the hook at PostToolUse; a shell read keeps its output (it may
    # hold more than the file) and gets the reminder.
    stub = run_bash(tmp_path, "cat guide.md", "--mode", "outline")
    assert body_lines(tmp_path / "project" / "guide.md")[0] in stub.tool_result()
    assert json.dumps(REMINDER)[1:-1] in stub.after_tool()
