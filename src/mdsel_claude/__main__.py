"""`mdsel-claude [serve|hook|install|uninstall|doctor]`: pick a command, import only its module.

The hook runs on every Read, so nothing here may import the MCP SDK or the parser up front.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

USAGE = """\
usage: mdsel-claude [serve | hook | install | uninstall | doctor] [options]
       mdsel-claude --version

  serve       run the MCP stdio server (the default with no command)
  hook        Claude Code Read hook: reads the hook JSON on stdin
  install     register the server and the hook in Claude Code
  uninstall   remove exactly what install added
  doctor      check what is installed and that it works

Run `mdsel-claude COMMAND --help` for a command's options.
"""


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
    if command == "hook":
        from mdsel_claude.hook import main as hook_main

        return hook_main(args)
    if command == "serve":
        from mdsel_claude.server import main as serve_main

        return serve_main(args)
    if command in ("install", "uninstall", "doctor"):
        from mdsel_claude.install import main as install_main

        return install_main([command, *args])
    sys.stderr.write(f"mdsel-claude: unknown command {command!r}\n\n{USAGE}")
    return 2


if __name__ == "__main__":
    sys.exit(main())
