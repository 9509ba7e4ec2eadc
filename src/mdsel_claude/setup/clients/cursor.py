"""Cursor: `~/.cursor/mcp.json` or the project's `.cursor/mcp.json`, `mcpServers` →
`{command, args}`; the server only (its `beforeReadFile` hook can only allow or deny)."""

from __future__ import annotations

from mdsel_claude.setup.clients.base import Client, home

CLIENT = Client(
    "cursor",
    "Cursor",
    "mcpServers",
    lambda env: home(env) / ".cursor" / "mcp.json",
    ".cursor/mcp.json",
    lambda exe: {"command": exe, "args": ["serve"]},
)
