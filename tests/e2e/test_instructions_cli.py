"""The block `install --instructions` writes, inside the real CLIs: it reaches the model.

Each agent (the versions pinned in tools/clients) runs one turn in a temporary HOME against its
model stand-in on loopback, after the real `mdsel-claude install --instructions` put the block
in the file that agent reads: Claude Code's `CLAUDE.local.md` (local scope), Codex CLI's
`~/.codex/AGENTS.md`, Gemini CLI's `~/.gemini/GEMINI.md`, OpenCode's AGENTS.md (or the
`~/.claude/CLAUDE.md` it reads when it has none). The first request each sends holds the
block's text. Copilot CLI, Cline, Qwen Code and Droid have the same test in their own
test_*_reminder.py, beside the fixtures that run them.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from mdsel_claude.setup import instructions_block
from tests.conftest import environ_without
from tests.e2e.anthropic_stub import messages_api, run_claude
from tests.e2e.test_claude_cli import client
from tests.e2e.test_codex_reminder import installed, run_codex
from tests.e2e.test_gemini_reminder import project, run_gemini  # noqa: F401 (a fixture)
from tests.e2e.test_opencode_reminder import install as opencode_install
from tests.e2e.test_opencode_reminder import run_opencode

LINES = instructions_block.BODY


def carried(request: object) -> bool:
    """Whether every line of the block is in `request`, as JSON text escapes it."""
    text = json.dumps(request, ensure_ascii=False)
    return all(json.dumps(line, ensure_ascii=False)[1:-1] in text for line in LINES)


def test_claude_code_reads_the_block_from_claude_local_md(tmp_path: Path) -> None:
    claude_cli = client("claude")
    script = Path(sys.executable).parent / "mdsel-claude"
    if not script.exists():
        pytest.skip("the mdsel-claude script is not installed (pip install -e .)")
    folder = tmp_path / "project"
    (folder / ".git").mkdir(parents=True)
    (folder / "CLAUDE.local.md").write_text("# Mine\n\nKeep answers short.\n", "utf-8")
    env = environ_without("ANTHROPIC_", "CLAUDE_", "MDSEL_", "XDG_")
    env.update(HOME=str(tmp_path / "home"), XDG_STATE_HOME=str(tmp_path / "state"))
    (tmp_path / "home").mkdir()
    done = subprocess.run(
        [str(script), "install", "--instructions"],
        cwd=folder, env=env, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "CLAUDE.local.md: the mdsel-claude instructions block" in done.stdout
    with messages_api(None) as (url, stub):
        # No MCP server: only the instructions file is in question here.
        run_claude(claude_cli, url, env, folder, "Hello.", "--strict-mcp-config")
    turns = [body for body in stub.requests if "system" in body]
    assert turns and carried([turns[0].get("system"), turns[0].get("messages")])
    assert "Keep answers short." in json.dumps(turns[0])


def test_codex_reads_the_block_from_its_agents_md(tmp_path: Path) -> None:
    codex_cli = client("codex")
    folder = tmp_path / "project"
    folder.mkdir()
    env = installed(tmp_path, "--instructions")
    assert (tmp_path / "home" / ".codex" / "AGENTS.md").exists()
    stub = run_codex(codex_cli, env, folder, "true")
    assert carried(stub.requests[0])


def test_gemini_reads_the_block_from_its_gemini_md(project: Path) -> None:  # noqa: F811
    gemini_cli = client("gemini")
    stub = run_gemini(gemini_cli, project, "--instructions", file_path="small.md")
    assert (project.parent / "home" / ".gemini" / "GEMINI.md").exists()
    assert carried(stub.requests[0].body)


@pytest.mark.parametrize("claude_md", [False, True])
def test_opencode_reads_the_block_where_install_put_it(tmp_path: Path, claude_md: bool) -> None:
    opencode_cli = client("opencode")
    if not (Path(sys.executable).parent / "mdsel-claude").exists():
        pytest.skip("the mdsel-claude script is not installed (pip install -e .)")
    folder = tmp_path / "project"
    folder.mkdir()
    (folder / "small.md").write_text("# Notes\n\nA few words only.\n", encoding="utf-8")
    home = tmp_path / "home"
    (home / ".claude").mkdir(parents=True)
    if claude_md:  # OpenCode's fallback, which a new AGENTS.md would hide
        (home / ".claude" / "CLAUDE.md").write_text("Keep answers short.\n", "utf-8")
    opencode_install(folder, "--instructions")
    agents_md = home / ".config" / "opencode" / "AGENTS.md"
    assert agents_md.exists() is not claude_md
    stub = run_opencode(opencode_cli, folder, "read", filePath=str(folder / "small.md"))
    # Its first request asks for a title; the conversation's own carries the instructions.
    assert any(carried(body) for body in stub.requests)
    assert ("Keep answers short." in json.dumps(stub.requests)) is claude_md
