"""VS Code: the user profile's `mcp.json` or the project's `.vscode/mcp.json`, `servers` (not
`mcpServers`) → `{type: "stdio", command, args}`; the server only."""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from pathlib import Path

from mdsel_claude.setup.clients.base import Client, config_home, home


def user_file(environ: Mapping[str, str]) -> Path:
    """The user profile's `mcp.json`, where each system keeps VS Code's user folder."""
    if sys.platform == "darwin":
        folder = home(environ) / "Library" / "Application Support" / "Code" / "User"
    elif os.name == "nt":
        folder = Path(environ.get("APPDATA") or home(environ)) / "Code" / "User"
    else:
        folder = config_home(environ) / "Code" / "User"
    return folder / "mcp.json"


CLIENT = Client(
    "vscode",
    "VS Code",
    "servers",
    user_file,
    ".vscode/mcp.json",
    lambda exe: {"type": "stdio", "command": exe, "args": ["serve"]},
)
