"""The server's instructions inside the real Claude Code CLI: they reach the model's context.

`claude -p` (the version pinned in tools/clients) runs with our server from a project
`.mcp.json`, against the stand-in Messages API of anthropic_stub.py, which records what the
model would be sent.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from mdsel_claude.server.tools import INSTRUCTIONS
from tests.conftest import environ_without
from tests.e2e.anthropic_stub import messages_api, run_claude
from tests.e2e.test_claude_cli import client


@pytest.fixture(scope="module")
def claude_cli() -> str:
    return client("claude")


def test_instructions_are_in_the_model_request(claude_cli: str, tmp_path: Path) -> None:
    server = Path(sys.executable).parent / "mdsel-claude"
    if not server.exists():
        pytest.skip("the mdsel-claude script is not installed (pip install -e .)")
    home = tmp_path / "home"
    home.mkdir()
    project = tmp_path / "project"
    project.mkdir()
    config = {"mcpServers": {"mdsel": {"type": "stdio", "command": str(server), "args": []}}}
    (project / ".mcp.json").write_text(json.dumps(config))
    env = environ_without("ANTHROPIC_", "CLAUDE_", "MDSEL_")
    with messages_api(None) as (url, stub):
        env.update(
            HOME=str(home),
            # Wait for the server before the first request (5 s at most by default): a busy
            # machine can take longer to start it.
            MCP_CONNECTION_NONBLOCKING="false",
            MCP_CONNECT_TIMEOUT_MS="60000",
        )
        args = ("--mcp-config", ".mcp.json", "--strict-mcp-config")
        run_claude(claude_cli, url, env, project, "Hello.", *args)
    turns = [body for body in stub.requests if "system" in body]
    assert turns
    # Claude Code puts them, whole, in the context it opens the conversation with (2.1.197: a
    # "MCP Server Instructions" reminder in the first message); look in system and messages.
    context = json.dumps([turns[0].get("system"), turns[0].get("messages")], ensure_ascii=False)
    assert json.dumps(INSTRUCTIONS, ensure_ascii=False)[1:-1] in context
