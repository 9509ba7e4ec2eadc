"""Where setup works: the files of each scope, Claude Code's user files, our executable.

Claude Code's scopes (as `claude mcp add -s local|project|user` writes them):

- **local** (the default): private to this user in this project. The server sits in the user's
  `~/.claude.json` under `projects[<project root>].mcpServers`, the hook in the project's
  `.claude/settings.local.json` (which Claude Code keeps out of version control).
- **project**: shared with everyone who clones the project: `.mcp.json` and
  `.claude/settings.json` at the project root. Only portable commands go there.
- **user**: every project of this user: `~/.claude.json` `mcpServers`, and the hook in
  `~/.claude/settings.json`.

`CLAUDE_CONFIG_DIR`, when set, moves both `~/.claude.json` and `~/.claude/` into it.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import sysconfig
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from mdsel_claude.setup import jsonfile, ours
from mdsel_claude.setup.entries import EXECUTABLE_NAME, KeyPath

SCOPES = ("local", "project", "user")
"""The install scopes, the default first."""

PLUGIN_NAME = "mdsel-claude"
"""The plugin's name in `.claude-plugin/plugin.json`."""


class SetupError(Exception):
    """Something that stops install or uninstall (exit status 1), said in one line."""


@dataclass(frozen=True, slots=True)
class Locations:
    """The files one scope uses."""

    scope: str
    """`local`, `project` or `user`."""
    mcp_config: Path
    """The file that holds the server: the project's `.mcp.json`, or the user's `.claude.json`."""
    servers_at: KeyPath
    """Keys leading from the top of `mcp_config` to the object that holds `mcpServers`:
    `()` for `.mcp.json` and user scope, `("projects", <root>)` for local scope."""
    settings: Path
    """The settings file that carries the hook."""
    settings_dir: Path
    """The directory of `settings`, created by install when missing."""
    project_root: Path | None
    """The project the scope belongs to; None for user scope."""

    @property
    def portable(self) -> bool:
        """Entries go into files shared through version control: commands from PATH only."""
        return self.scope == "project"


def user_config_dir(environ: Mapping[str, str]) -> Path:
    """Claude Code's user directory: `CLAUDE_CONFIG_DIR` when set, else `~/.claude`."""
    configured = environ.get("CLAUDE_CONFIG_DIR")
    return Path(configured).expanduser() if configured else Path.home() / ".claude"


def user_state_file(environ: Mapping[str, str]) -> Path:
    """Claude Code's user file (`~/.claude.json`, or `.claude.json` in `CLAUDE_CONFIG_DIR`):
    user- and local-scope MCP servers, per-project approvals, and Claude Code's own state."""
    configured = environ.get("CLAUDE_CONFIG_DIR")
    if configured:
        return Path(configured).expanduser() / ".claude.json"
    return Path.home() / ".claude.json"


def project_root(start: Path) -> Path:
    """The project `start` belongs to: the nearest directory at or above it holding `.git`
    (a directory, or the file of a worktree), else `start` itself — both with symlinks
    resolved, as Claude Code keys its per-project settings by that path.

    Found by looking, not by running git: a repository's own git configuration is never used.
    """
    here = Path(os.path.realpath(start))
    for folder in (here, *here.parents):
        if os.path.lexists(folder / ".git"):
            return folder
    return here


def is_own_checkout(root: Path) -> bool:
    """True when `root` is a checkout of mdsel-claude itself: its `.mcp.json` and hooks are
    the plugin's own files, which install must never change."""
    # Read as strictly as a settings file (a regular file, bounded): the project's own
    # `.claude-plugin/plugin.json` may be a FIFO or a link to /dev/zero.
    data = jsonfile.read_bytes(root / ".claude-plugin" / "plugin.json")
    try:
        manifest = json.loads(data or b"")
    except ValueError:
        return False
    return isinstance(manifest, dict) and manifest.get("name") == PLUGIN_NAME


def locations(scope: str, project_dir: Path, environ: Mapping[str, str]) -> Locations:
    """The files of `scope` for the project around `project_dir` (user scope ignores it)."""
    if scope == "user":
        config_dir = user_config_dir(environ)
        return Locations(
            scope, user_state_file(environ), (), config_dir / "settings.json", config_dir, None
        )
    root = project_root(project_dir)
    claude_dir = root / ".claude"
    if scope == "project":
        return Locations(
            scope, root / ".mcp.json", (), claude_dir / "settings.json", claude_dir, root
        )
    return Locations(
        scope,
        user_state_file(environ),
        ("projects", str(root)),
        claude_dir / "settings.local.json",
        claude_dir,
        root,
    )


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
    # Absolute PATH entries only: with `.` on PATH, a repository's own `mdsel-claude` would
    # otherwise be written into the user's configuration as ours.
    found = ours.resolve(EXECUTABLE_NAME, os.environ)
    if found:
        return found
    raise SetupError(
        f"cannot find the {EXECUTABLE_NAME} executable (looked beside {sys.executable} and on "
        f"PATH); install the package with pip, then run this again"
    )


def portable_executable(environ: Mapping[str, str]) -> str:
    """The bare name `mdsel-claude`, for files shared with others; refuses when it is not on
    PATH, since then the shared entries would not run even here."""
    if shutil.which(EXECUTABLE_NAME, path=environ.get("PATH", os.defpath)) is None:
        raise SetupError(
            f"--scope project writes files shared with everyone who clones the project, so "
            f"they run `{EXECUTABLE_NAME}` from PATH, but it is not on your PATH; install it "
            f"with `pipx install mdsel-claude` (or put its directory on PATH), or leave out "
            f"--scope project: the other scopes run {EXECUTABLE_NAME} by its full path"
        )
    return EXECUTABLE_NAME
