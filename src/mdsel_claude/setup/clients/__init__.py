"""Every agent besides Claude Code that `--client` names, one module each behind one interface
(`base.Client`); this registry is the only place that lists them.

Adding a client is its module and one line below. Claude Code itself is not here: its scopes
are setup's default (`claude_plans`), and `--client claude` names it.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from mdsel_claude.setup.clients import (
    cline,
    codex,
    copilot,
    cursor,
    factory,
    gemini,
    opencode,
    qwen,
    vscode,
)
from mdsel_claude.setup.clients.base import Client, Doctoring, RecordedFile, Request

CLIENTS: Mapping[str, Client] = {
    client.name: client
    for client in (
        cursor.CLIENT,
        vscode.CLIENT,
        gemini.CLIENT,
        opencode.CLIENT,
        codex.CLIENT,
        copilot.CLIENT,
        cline.CLIENT,
        qwen.CLIENT,
        factory.CLIENT,
    )
}
"""Every client `--client` accepts besides `claude`, by name."""


def recorded_file(path: Path) -> RecordedFile | None:
    """The client's own way to read a file the install record lists, when it has one."""
    for client in CLIENTS.values():
        found = client.recorded_file(path)
        if found is not None:
            return found
    return None


__all__ = ["CLIENTS", "Client", "Doctoring", "RecordedFile", "Request", "recorded_file"]
