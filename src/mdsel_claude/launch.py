"""Run mdsel-claude straight from a plugin copy of this repository, with nothing installed.

The Claude Code plugin calls `python3 -S <plugin>/src/mdsel_claude/launch.py serve|hook`, so it
works where only Python (3.11 or later) is installed: no `mdsel-claude` on PATH, no pip step.

- `hook` runs from the plugin's own `src/` at once: the hook uses only the standard library.
  This file imports nothing else first, and `-S` skips the site packages, whose start-up
  files can cost more than the hook itself.
- `serve` needs the locked dependencies: `provision` installs them once, then runs the server.
- `provision` is that install, in a process of its own (see `provision`).

`python3` may be older than 3.11 (macOS ships 3.9): then, and for `serve` always, the first of
`python3.13`, `python3.12`, `python3.11` on PATH that runs is used, else `python3` itself when
it is recent enough. Finding none, the server answers the client's `initialize` with the reason
and the hook says it on stderr (it never fails a Read); `doctor --plugin` reports it. So this
file, and what it imports to say so (`plugin_wait`, `provision_state`), must still run on an
old Python 3: nothing newer than 3.7 there.
"""

from __future__ import annotations

import os
import sys

# A bare name rather than `typing.TYPE_CHECKING`, and `collections.abc` only for mypy: the hook
# starts here on every read, and that import alone costs it more than a millisecond.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

SRC = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
"""The plugin's `src/` directory: this file is `src/mdsel_claude/launch.py`."""
MIN_PYTHON = (3, 11)
CANDIDATES = ("python3.13", "python3.12", "python3.11")
"""Tried in this order before `python3` itself."""
CHOSEN = "MDSEL_PLUGIN_PYTHON"
"""Set on the re-run under the chosen Python, so that it does not look again (a pyenv shim
named `python3.13` would otherwise send it round)."""
PROBE = "import sys; sys.exit(sys.version_info < (3, 11))"


def on_path(name: str, environ: Mapping[str, str]) -> str | None:
    """`name` on PATH, as a shell would find it (no `shutil`: it costs the hook an import)."""
    for folder in environ.get("PATH", os.defpath).split(os.pathsep):
        path = os.path.join(folder or ".", name)
        if os.path.isfile(path) and os.access(path, os.X_OK):
            return path
    return None


def runs(python: str) -> bool:
    """Whether `python` starts and is 3.11 or later (a shim of a Python not installed fails)."""
    import subprocess

    try:
        done = subprocess.run(
            [python, "-S", "-c", PROBE],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            timeout=30,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return False
    return done.returncode == 0


def choose(environ: Mapping[str, str], current_ok: bool) -> str | None:
    """The Python the plugin runs: the first candidate on PATH that runs, else this one when
    `current_ok`; None when there is none."""
    here = os.path.realpath(sys.executable)
    for name in CANDIDATES:
        path = on_path(name, environ)
        if path is None:
            continue
        if os.path.realpath(path) == here:
            return sys.executable if current_ok else None
        if runs(path):
            return path
    return sys.executable if current_ok else None


def no_python(command: str) -> int:
    found = ", ".join((*CANDIDATES, "python3"))
    message = (
        f"the plugin needs Python 3.11 or later, and found none on PATH ({found}; python3 is "
        f"{sys.version.split()[0]} at {sys.executable}): install Python 3.11 or later (on "
        "macOS, `brew install python@3.13` or python.org's installer), make it `python3` or "
        "put it on the PATH Claude Code starts with, then restart Claude Code"
    )
    sys.stderr.write(f"mdsel-claude: {message}\n")
    if command != "serve":
        return 0  # A hook must never fail the Read it was called for: say it, exit 0.
    sys.path.insert(0, SRC)
    from mdsel_claude.plugin_wait import refuse_with

    return refuse_with(message)


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    command = args.pop(0) if args else "serve"
    if sys.platform == "win32":
        sys.stderr.write(
            "mdsel-claude: Windows is not supported yet (the server, the hook and setup rely on "
            "POSIX file checks); run Claude Code under WSL, where the plugin works as on Linux\n"
        )
        return 1
    current_ok = sys.version_info >= MIN_PYTHON
    if os.environ.pop(CHOSEN, None) is None and (command == "serve" or not current_ok):
        python = choose(os.environ, current_ok)
        if python is None:
            return no_python(command)
        if python != sys.executable:
            env = dict(os.environ, **{CHOSEN: python})
            script = os.path.abspath(__file__)
            os.execve(python, [python, "-S", script, command, *args], env)
    elif not current_ok:
        return no_python(command)
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
    if command == "provision":
        from mdsel_claude.provision import run_detached

        return run_detached(os.environ)
    sys.stderr.write(
        f"mdsel-claude plugin launcher: unknown command {command!r} (serve, hook, provision)\n"
    )
    return 2


if __name__ == "__main__":
    sys.exit(main())
