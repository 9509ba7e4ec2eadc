"""Walks over directory trees for path expansion: iterative, depth-limited, sorted, and each
directory listed once per expansion.

Directory links are never followed (a link back to `.` would make a walk endless); hidden
entries, `node_modules` and `.git` are skipped.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable

from mdsel.names import is_glob, is_markdown_name

SKIPPED_DIRS = frozenset({"node_modules", ".git"})


class Lister:
    """Directory listings for one expansion, each directory read once however many arguments
    reach it, and the depth limit of every walk.

    Walks are iterative (a stack, not recursion): a tree a thousand levels deep must end in a
    warning, not a RecursionError.
    """

    def __init__(self, max_depth: int, checkpoint: Callable[[], object] | None = None) -> None:
        self.max_depth = max_depth
        self._checkpoint = checkpoint
        self.too_deep: dict[str, None] = {}
        """Arguments whose walk stopped at the depth limit, in order."""
        self._seen: dict[str, tuple[list[str], list[str]]] = {}

    def entries(self, directory: str) -> tuple[list[str], list[str]]:
        """Sorted subdirectories to descend into and sorted file names, hidden entries left out.

        A link to a directory is neither: walks never follow directory links. Anything else
        (a file, a link to one, a FIFO) is a file name; the reader decides about it later.
        """
        key = os.path.normpath(directory)
        listed = self._seen.get(key)
        if listed is not None:
            return listed
        if self._checkpoint is not None:
            self._checkpoint()
        dirs: list[str] = []
        files: list[str] = []
        try:
            with os.scandir(directory) as scan:
                for entry in scan:
                    name = entry.name
                    if name.startswith("."):
                        continue
                    try:
                        is_dir = entry.is_dir()
                        if is_dir and entry.is_symlink():
                            continue
                    except OSError:
                        is_dir = False
                    if not is_dir:
                        files.append(name)
                    elif name not in SKIPPED_DIRS:
                        dirs.append(name)
        except OSError:
            pass  # unreadable or vanished: nothing below it, as os.walk would have it
        listed = (sorted(dirs), sorted(files))
        self._seen[key] = listed
        return listed


def walk(given: str, full: str, lister: Lister) -> list[str]:
    """The Markdown files below `full`, named from `given`, in sorted top-down order."""
    result: list[str] = []
    stack: list[tuple[str, tuple[str, ...], int]] = [(full, (), 0)]
    while stack:
        directory, parts, depth = stack.pop()
        dirs, files = lister.entries(directory)
        result.extend(os.path.join(given, *parts, name) for name in files if is_markdown_name(name))
        if depth >= lister.max_depth:
            if dirs:
                lister.too_deep[given] = None
            continue
        # Pushed in reverse so the first subdirectory is walked next: os.walk's order.
        for name in reversed(dirs):
            stack.append((os.path.join(directory, name), (*parts, name), depth + 1))
    return result


def glob(pattern: str, base: str, lister: Lister) -> list[str]:
    """Files (and directories, expanded) matching a glob, found by one walk that never follows
    directory symlinks: the standard glob's `**` does, and two links back to `.` make it explore
    2^40 paths. `*` and `?` stay within a path segment, `**` spans any number of them, and
    hidden entries, `node_modules` and `.git` are skipped as in directory expansion."""
    from fnmatch import translate

    parts = pattern.replace(os.sep, "/").split("/")
    literal = 0
    while literal < len(parts) - 1 and not is_glob(parts[literal]):
        literal += 1
    prefix = "/".join(parts[:literal]) or ("/" if pattern.startswith("/") else "")
    root = os.path.join(base, prefix) if prefix else base
    matchers: list[re.Pattern[str] | None] = []
    for part in parts[literal:]:
        if part != "**":
            matchers.append(re.compile(translate(part)))
        elif not matchers or matchers[-1] is not None:
            matchers.append(None)  # `**/**` matches what `**` does: one state, not thousands
    fixed_depth = None if None in matchers else len(matchers)
    # Like a directory, a wildcard stands for Markdown files only, unless the pattern spells out
    # another extension itself (`notes/*.txt`).
    last = parts[-1]
    markdown_only = not re.search(r"\.[A-Za-z0-9]+$", last) or is_markdown_name(last)
    if not os.path.isdir(root):
        return []
    result: list[str] = []
    stack: list[tuple[str, list[str]]] = [(root, [])]
    while stack:
        directory, here = stack.pop()
        dirs, files = lister.entries(directory)
        for name in dirs:
            if glob_match(matchers, [*here, name]):
                below = os.path.join(prefix, *here, name)
                result.extend(walk(below, os.path.join(directory, name), lister))
        for name in files:
            if markdown_only and not is_markdown_name(name):
                continue
            if glob_match(matchers, [*here, name]):
                result.append(
                    os.path.join(prefix, *here, name) if prefix else os.path.join(*here, name)
                )
        if fixed_depth is not None and len(here) + 1 >= fixed_depth:
            continue  # without `**`, nothing deeper can match
        if len(here) >= lister.max_depth:
            if dirs:
                lister.too_deep[pattern] = None
            continue
        stack.extend((os.path.join(directory, name), [*here, name]) for name in dirs)
    return sorted(dict.fromkeys(result))


def glob_match(matchers: list[re.Pattern[str] | None], segments: list[str]) -> bool:
    """Whether path segments match the pattern's (None = `**`): a set of NFA states, no
    backtracking, so the cost is segments x pattern parts."""
    count = len(matchers)

    def closure(states: set[int]) -> set[int]:
        pending = list(states)
        while pending:
            state = pending.pop()
            if state < count and matchers[state] is None and state + 1 not in states:
                states.add(state + 1)
                pending.append(state + 1)
        return states

    states = closure({0})
    for segment in segments:
        following: set[int] = set()
        for state in states:
            if state < count:
                matcher = matchers[state]
                if matcher is None:
                    following.add(state)
                elif matcher.match(segment):
                    following.add(state + 1)
        states = closure(following)
        if not states:
            return False
    return count in states
