"""Where setup works: the files of each scope, Claude Code's user directory, our executable."""

from __future__ import annotations

import os
import shutil
import sys
import sysconfig
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from mdsel_claude.setup.entries import EXECUTABLE_NAME


class SetupError(Exception):
    """Something that stops install or uninstall (exit status 1), said in one line."""


@dataclass(frozen=True, slots=True)
class Locations:
    """The files one scope uses."""

    scope: str
    """`project` or `user`."""
    mcp_config: Path | None
    """The project's `.mcp.json`; None for user scope, whose server the `claude` CLI manages."""
    settings: Path
    """The settings file that carries the hook."""
    settings_dir: Path
    """The directory of `settings`, created by install when missing."""


def user_config_dir(environ: Mapping[str, str]) -> Path:
    """Claude Code's user directory: `CLAUDE_CONFIG_DIR` when set, else `~/.claude`."""
    configured = environ.get("CLAUDE_CONFIG_DIR")
    return Path(configured).expanduser() if configured else Path.home() / ".claude"


def locations(scope: str, project_dir: Path, environ: Mapping[str, str]) -> Locations:
    """The files of `scope` for a project directory (user scope ignores the project)."""
    if scope == "project":
        claude_dir = project_dir / ".claude"
        return Locations(scope, project_dir / ".mcp.json", claude_dir / "settings.json", claude_dir)
    config_dir = user_config_dir(environ)
    return Locations(scope, None, config_dir / "settings.json", config_dir)


def find_executable() -> str:
    """Absolute path of the installed `mdsel-claude` script that entries should run.

    The running script when we were started through it, else the one installed beside this
    interpreter, else the first on PATH. The path is absolute but symlinks are kept: a venv's
    `bin/` is the stable name.
    """
    argv0 = sys.argv[0] if sys.argv else ""
    candidates = []
    if os.path.basename(argv0) == EXECUTABLE_NAME:
        candidates.append(os.path.abspath(argv0))
    candidates.append(os.path.join(os.path.dirname(sys.executable), EXECUTABLE_NAME))
    candidates.append(os.path.join(sysconfig.get_path("scripts"), EXECUTABLE_NAME))
    for candidate in candidates:
        if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    found = shutil.which(EXECUTABLE_NAME)
    if found:
        return os.path.abspath(found)
    raise SetupError(
        f"cannot find the {EXECUTABLE_NAME} executable (looked beside {sys.executable} and on "
        f"PATH); install the package with pip, then run this again"
    )
