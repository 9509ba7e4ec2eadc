"""The `claude` command, for what only it may change: the user-scope MCP server list.

`claude mcp get mdsel` answers in words, not JSON; we read only its `Scope:`, `Command:` and
`Args:` lines. Every call has a time limit, because `get` starts the server to check it.
"""

from __future__ import annotations

import shlex
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass

from mdsel_claude.setup.entries import SERVER_KEY

TIMEOUT_SECONDS = 120.0
"""How long one `claude mcp …` command may take."""


class ClaudeError(Exception):
    """The `claude` command could not be run or did not finish in time."""


@dataclass(frozen=True, slots=True)
class ClaudeServer:
    """What `claude mcp get mdsel` reports."""

    scope: str
    """As printed, e.g. `User config (available in all your projects)`."""
    command: str
    args: str
    """The arguments joined by spaces, as printed."""

    @property
    def user_scope(self) -> bool:
        return self.scope.lower().startswith("user")


def show_command(argv: Sequence[str]) -> str:
    """A command line as a user would type it."""
    return " ".join(shlex.quote(arg) for arg in argv)


def run(argv: Sequence[str]) -> subprocess.CompletedProcess[str]:
    """Run one command (no stdin), capturing its text output; ClaudeError if it cannot."""
    try:
        return subprocess.run(
            list(argv),
            capture_output=True,
            text=True,
            timeout=TIMEOUT_SECONDS,
            stdin=subprocess.DEVNULL,
            check=False,
        )
    except subprocess.TimeoutExpired:
        raise ClaudeError(f"`{show_command(argv)}` did not finish in time") from None
    except OSError as error:
        raise ClaudeError(f"cannot run `{show_command(argv)}`: {error}") from None


def get_server(claude: str) -> ClaudeServer | None:
    """Ask `claude` about the server named `mdsel`; None when it knows none."""
    result = run([claude, "mcp", "get", SERVER_KEY])
    if result.returncode != 0:
        return None
    fields: dict[str, str] = {}
    for line in result.stdout.splitlines():
        name, sep, value = line.strip().partition(":")
        if sep:
            fields.setdefault(name.strip().lower(), value.strip())
    return ClaudeServer(fields.get("scope", ""), fields.get("command", ""), fields.get("args", ""))
