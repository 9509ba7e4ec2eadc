"""Run mdsel-claude straight from a plugin copy of this repository, with nothing installed.

The Claude Code plugin calls `python3 -S <plugin>/src/mdsel_claude/launch.py serve|hook`, so it
works where only Python (3.11 or later) is installed: no `mdsel-claude` on PATH, no pip step.

- `hook` runs from the plugin's own `src/` at once: the hook uses only the standard library.
  This file imports nothing else first, and `-S` skips the site packages, whose start-up
  files can cost more than the hook itself.
- `serve` needs the locked dependencies: `provision` installs them once, then runs the server.
"""

from __future__ import annotations

import os
import sys

# A bare name rather than `typing.TYPE_CHECKING`, and `collections.abc` only for mypy: the hook
# starts here on every read, and that import alone costs it more than a millisecond.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

SRC = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
"""The plugin's `src/` directory: this file is `src/mdsel_claude/launch.py`."""
MIN_PYTHON = (3, 11)


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    command = args.pop(0) if args else "serve"
    if sys.version_info < MIN_PYTHON:
        sys.stderr.write(f"mdsel-claude: needs Python 3.11 or later, not {sys.version}\n")
        # A hook must never fail the Read it was called for: say it, exit 0.
        return 0 if command == "hook" else 1
    if sys.platform == "win32":
        sys.stderr.write(
            "mdsel-claude: Windows is not supported yet (the server, the hook and setup rely on "
            "POSIX file checks); run Claude Code under WSL, where the plugin works as on Linux\n"
        )
        return 1
    if sys.path and os.path.abspath(sys.path[0] or ".") == os.path.join(SRC, "mdsel_claude"):
        sys.path[0] = SRC  # run as a script: the package's parent, not the package itself
    elif SRC not in sys.path:
        sys.path.insert(0, SRC)
    if command == "hook":
        from mdsel_claude.hook import main as hook_main

        return hook_main(args)
    if command == "serve":
        from mdsel_claude.provision import serve

        return serve(args)
    sys.stderr.write(f"mdsel-claude plugin launcher: unknown command {command!r} (serve, hook)\n")
    return 2


if __name__ == "__main__":
    sys.exit(main())
