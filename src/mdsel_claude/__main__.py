"""`mdsel-claude [serve|hook|install|uninstall|doctor]`: pick a command, import only its module.

The hook runs on every Read, so nothing here may import the MCP SDK or the parser up front.
"""

from __future__ import annotations

import os
import sys

# A bare name rather than `typing.TYPE_CHECKING`, and `collections.abc` only for mypy: the hook
# starts here on every read, and that import alone costs it more than a millisecond.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

USAGE = """\
usage: mdsel-claude [serve | hook | install | uninstall | doctor] [options]
       mdsel-claude --version

  serve       run the MCP stdio server (the default with no command)
  hook        the reminder hook: reads an agent's hook JSON on stdin (--client NAME)
  install     register the server and the hook in Claude Code (--client NAME: in Gemini
              CLI, Codex CLI, OpenCode, or the server alone in Cursor or VS Code;
              --skill: the Agent Skill)
  uninstall   remove exactly what install added (--all: in every project and client)
  doctor      check what is installed and that it works (--all, --client NAME, --plugin)

Run `mdsel-claude COMMAND --help` for a command's options.
"""

SERVE_HINT = """\
mdsel-claude: this is an MCP server: an MCP client starts it and talks JSON-RPC with it on
stdin and stdout. To give the tools to Claude Code, run `mdsel-claude install`; for another
client, `mdsel-claude install --client NAME` (see --help). Serving on this terminal until
Ctrl-D or Ctrl-C.
"""


def _stdin_is_terminal() -> bool:
    try:
        return os.isatty(sys.stdin.fileno())
    except (AttributeError, OSError, ValueError):  # no stdin, or not a real file
        return False


WINDOWS = (
    "mdsel-claude: Windows is not supported yet (the server, the hook and setup rely on POSIX "
    "file checks); run it under WSL, where it works as on Linux\n"
)


def windows(command: str) -> int:
    """What every command answers on Windows: one line saying so. The hook's exit status 1 is a
    non-blocking error, which the agent's client shows without failing the read."""
    sys.stderr.write(WINDOWS)
    return 1


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] in (["-h"], ["--help"]):
        sys.stdout.write(USAGE)
        return 0
    if args[:1] in (["-V"], ["--version"]):
        # Only here: importing the engine costs time the hook must not pay.
        from mdsel import __version__

        sys.stdout.write(f"mdsel-claude {__version__}\n")
        return 0
    command = args.pop(0) if args and not args[0].startswith("-") else "serve"
    if sys.platform == "win32":
        return windows(command)
    if command == "hook":
        from mdsel_claude.hook import main as hook_main

        return hook_main(args)
    if command == "serve":
        if _stdin_is_terminal() and not {"-h", "--help"} & set(args):
            # Started by hand, where it would otherwise wait silently. A client that gives
            # it a pseudo-terminal still gets a server: the hint goes to stderr only.
            sys.stderr.write(SERVE_HINT)
        from mdsel_claude.server.app import main as serve_main

        return serve_main(args)
    if command in ("install", "uninstall", "doctor"):
        from mdsel_claude.setup.cli import main as setup_main

        return setup_main([command, *args])
    sys.stderr.write(f"mdsel-claude: unknown command {command!r}\n\n{USAGE}")
    return 2


if __name__ == "__main__":
    sys.exit(main())
