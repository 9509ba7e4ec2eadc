"""Which of Codex CLI's configuration files decides whether it runs hooks, for `doctor --client
codex`: the user's `config.toml`, then, in a project that file trusts, each `.codex/config.toml`
from the project's root down to the folder Codex starts in, the nearest last (what `codex
features list` shows, Codex CLI 0.169). The project's root is the nearest folder holding a git
repository, else the folder itself. Nothing is written.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

PROJECT_FILE = Path(".codex") / "config.toml"
FEATURES = "features"
HOOKS_FEATURES = ("hooks", "codex_hooks")
"""Codex's switch for all hooks under `[features]` (default on), then its legacy alias, which
counts only when the first is not set (`codex features list`)."""


def _switch(doc: object, key: str) -> bool | None:
    """`[features] key` of one file's plain values when it is a switch (a boolean), else None."""
    features = doc.get(FEATURES) if isinstance(doc, dict) else None
    value = features.get(key) if isinstance(features, dict) else None
    return value if isinstance(value, bool) else None


def project_root(folder: Path) -> Path:
    """The nearest folder from `folder` up that holds a git repository (a `.git` folder with a
    `HEAD`, or a worktree's `.git` file), else `folder`: where Codex looks for a project's files
    from. An empty `.git` folder is none to Codex."""
    for candidate in (folder, *folder.parents):
        marker = candidate / ".git"
        if marker.is_file() or (marker / "HEAD").exists():
            return candidate
    return folder


def trusted(user_doc: object, root: Path) -> bool:
    """Whether the user's file trusts the project at `root` (`[projects."<root>"]` with
    `trust_level = "trusted"`): only then does Codex read the project's own files."""
    projects = user_doc.get("projects") if isinstance(user_doc, dict) else None
    if not isinstance(projects, dict):
        return False
    for key in dict.fromkeys((str(root), str(root.resolve()))):
        entry = projects.get(key)
        if isinstance(entry, dict) and entry.get("trust_level") == "trusted":
            return True
    return False


def project_files(user_doc: object, folder: Path) -> list[Path]:
    """The project's `.codex/config.toml` files Codex reads after the user's, root first (none
    where the project is not trusted)."""
    folder = folder.absolute()
    root = project_root(folder)
    if not trusted(user_doc, root):
        return []
    chain = [folder, *folder.parents]
    below_root = chain[: chain.index(root) + 1]
    return [f / PROJECT_FILE for f in reversed(below_root) if (f / PROJECT_FILE).is_file()]


def deciding(layers: Sequence[tuple[Path, object]]) -> tuple[Path, str, bool] | None:
    """Of the files read in order (path, plain values), the one whose hooks switch Codex
    follows: its path, key and value; None when none sets it (hooks on). Codex merges the
    files first, then applies `codex_hooks` and after it `hooks`: a `hooks` in any file beats
    a `codex_hooks` in any other, and among files setting the same key the last wins."""
    for key in HOOKS_FEATURES:
        found = None
        for path, doc in layers:
            value = _switch(doc, key)
            if value is not None:
                found = (path, key, value)
        if found is not None:
            return found
    return None
