"""Where setup works: the files of each of Claude Code's scopes, and its user files.

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
import stat
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from mdsel_claude.setup import jsonfile
from mdsel_claude.setup.entries import MARKETPLACE_NAME, KeyPath

SCOPES = ("local", "project", "user")
"""The install scopes, the default first."""


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
    instructions: Path | None = None
    """The instructions file Claude Code reads in this scope (`install --instructions`):
    `CLAUDE.local.md` (local), `CLAUDE.md` (project) at the project root, where Claude Code
    2.1 looks walking up from where it starts; `CLAUDE.md` in the user folder (user)."""

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
    user- and local-scope MCP servers, per-project approvals, and Claude Code's own state.

    Where older versions left a `.config.json` in the user folder (`~/.claude/`), Claude Code
    2.1 reads and writes that one instead (`claude mcp add` writes there): when it is a regular
    file that is not empty, or an empty writable one while `.claude.json` is missing (or is an
    empty read-only file: a placeholder)."""
    configured = environ.get("CLAUDE_CONFIG_DIR")
    current = (Path(configured).expanduser() if configured else Path.home()) / ".claude.json"
    legacy = user_config_dir(environ) / ".config.json"
    try:
        found = os.stat(legacy)
    except (OSError, ValueError):
        return current
    if not stat.S_ISREG(found.st_mode):
        return current
    if found.st_size > 0:
        return legacy
    if not found.st_mode & _WRITABLE:
        return current
    try:
        present = os.stat(current)
    except (OSError, ValueError):
        return legacy
    placeholder = (
        sys.platform.startswith("linux") and stat.S_ISREG(present.st_mode)
        and present.st_size == 0 and not present.st_mode & _WRITABLE and present.st_nlink == 1
    )  # fmt: skip
    return legacy if placeholder else current


_WRITABLE = stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH


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


def _read_small(path: Path) -> str | None:
    """The text of a small regular file of git's (`.git`, `commondir`, `gitdir`), or None."""
    try:
        if not path.is_file():
            return None
        with open(path, "rb") as handle:
            data = handle.read(4097)
    except OSError:
        return None
    if len(data) > 4096:
        return None
    try:
        return data.decode("utf-8").strip()
    except UnicodeDecodeError:
        return None


def config_key_root(root: Path) -> Path:
    """The project `~/.claude.json` keys `root`'s local-scope servers and approvals by.

    Claude Code keys a linked git worktree (`.git` is a file `gitdir: <repo>/.git/worktrees/N`)
    by its main repository's root, so that every worktree shares one project entry (`claude
    mcp add -s local` run in a worktree writes there); any other root is its own key. The
    checks follow Claude Code 2.1's: the worktree's git folder must sit in the repository's
    `worktrees`, list `commondir`, and point back (`gitdir`) at this `.git`; anything else,
    or anything unreadable, keeps `root`."""
    text = _read_small(root / ".git")
    if text is None or not text.startswith("gitdir:"):
        return root
    git_dir = Path(os.path.normpath(root / text[len("gitdir:") :].strip()))
    common = _read_small(git_dir / "commondir")
    back = _read_small(git_dir / "gitdir")
    if not common or not back:
        return root
    common_dir = Path(os.path.normpath(git_dir / common))
    if git_dir.parent != common_dir / "worktrees":
        return root
    if os.path.realpath(git_dir / back) != os.path.join(os.path.realpath(root), ".git"):
        return root
    if common_dir.name != ".git":  # a bare repository: its own folder is the project
        return root if os.path.lexists(common_dir / ".git") else common_dir
    return common_dir.parent


def is_own_checkout(root: Path) -> bool:
    """True when `root` is a checkout of mdsel-claude itself (its marketplace file names the
    mdsel-claude marketplace): project scope would write into the project's own repository."""
    # Read as strictly as a settings file (a regular file, bounded): the project's own
    # `.claude-plugin/marketplace.json` may be a FIFO or a link to /dev/zero.
    data = jsonfile.read_bytes(root / ".claude-plugin" / "marketplace.json")
    try:
        manifest = json.loads(data or b"")
    except ValueError:
        return False
    return isinstance(manifest, dict) and manifest.get("name") == MARKETPLACE_NAME


def locations(scope: str, project_dir: Path, environ: Mapping[str, str]) -> Locations:
    """The files of `scope` for the project around `project_dir` (user scope ignores it)."""
    if scope == "user":
        config_dir = user_config_dir(environ)
        return Locations(
            scope, user_state_file(environ), (), config_dir / "settings.json", config_dir, None,
            config_dir / "CLAUDE.md",
        )  # fmt: skip
    root = project_root(project_dir)
    claude_dir = root / ".claude"
    if scope == "project":
        return Locations(
            scope, root / ".mcp.json", (), claude_dir / "settings.json", claude_dir, root,
            root / "CLAUDE.md",
        )  # fmt: skip
    return Locations(
        scope,
        user_state_file(environ),
        ("projects", str(config_key_root(root))),
        claude_dir / "settings.local.json",
        claude_dir,
        root,
        root / "CLAUDE.local.md",
    )
