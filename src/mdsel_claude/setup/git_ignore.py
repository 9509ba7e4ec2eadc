"""`.claude/settings.local.json` kept out of git, as Claude Code keeps it.

Claude Code, when it writes a project's local settings, appends `**/.claude/settings.local.json`
to the user's global git-ignore file (`core.excludesfile`, else `$XDG_CONFIG_HOME/git/ignore`,
else `~/.config/git/ignore`), creating it if need be. Install writes that file too (with a path
of the user's home in it), so it does the same: the same line, in the same file, only when it
is not there yet. Only the user's own global git settings are read (`git config --global`, run
outside the project), never a repository's, and the file is only ever added to, whole lines.
The line stays on uninstall: Claude Code writes it too, and it ignores a file nobody shares.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Mapping
from pathlib import Path

from mdsel_claude.setup import jsonfile
from mdsel_claude.setup.jsonfile import ConfigFileError
from mdsel_claude.setup.steps import MakeDir, Note, Step, WriteText

PATTERN = "**/.claude/settings.local.json"
"""The line Claude Code writes, byte for byte, so that either finds the other's."""


def _configured(home: Path, environ: Mapping[str, str]) -> str:
    """`git config --global core.excludesfile`, or "" (unset, or no git)."""
    git = shutil.which("git", path=environ.get("PATH", os.defpath))
    if git is None:
        return ""
    try:
        done = subprocess.run(
            [git, "config", "--global", "--get", "core.excludesfile"],
            cwd=home if home.is_dir() else "/",  # never inside the project: its config is not read
            env={**environ, "GIT_CONFIG_NOSYSTEM": "1"},
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        )
    except (OSError, subprocess.SubprocessError, UnicodeDecodeError):
        return ""
    return done.stdout.strip() if done.returncode == 0 else ""


def excludes_file(environ: Mapping[str, str]) -> Path:
    """The global git-ignore file, found as Claude Code (and git) find it."""
    home = Path(environ.get("HOME") or Path.home())
    configured = _configured(home, environ)
    if configured == "~" or configured.startswith("~/"):
        return home / configured[2:]
    if configured and os.path.isabs(configured):
        return Path(configured)
    config_home = environ.get("XDG_CONFIG_HOME")
    if config_home and os.path.isabs(config_home):
        return Path(config_home) / "git" / "ignore"
    return home / ".config" / "git" / "ignore"


def plan_ignore(environ: Mapping[str, str]) -> list[Step]:
    """The steps that add `PATTERN` to the global git-ignore file, when it is not there."""
    path = excludes_file(environ)
    what = f"{PATTERN} (git ignores the local settings in every repository, as Claude Code has it)"
    try:
        data = jsonfile.read_bytes(path)
        text = "" if data is None else data.decode("utf-8")
    except (ConfigFileError, OSError, UnicodeDecodeError):
        return [Note(f"left alone: {path} cannot be read as text; add the line {PATTERN} to it")]
    if any(line.strip() == PATTERN for line in text.splitlines()):
        return []
    steps: list[Step] = []
    if data is None and not path.parent.is_dir():
        steps.append(MakeDir(path.parent))
    ending = "\r\n" if "\r\n" in text else "\n"
    joint = ending if text and not text.endswith("\n") else ""
    steps.append(WriteText(path, f"{text}{joint}{PATTERN}{ending}", data is None, what))
    return steps
