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

    def __init__(
        self,
        max_depth: int,
        checkpoint: Callable[[], object] | None = None,
        max_names: int | None = None,
    ) -> None:
        self.max_depth = max_depth
        self._checkpoint = checkpoint
        self.too_deep: dict[str, None] = {}
        """Arguments whose walk stopped at the depth limit, in order."""
        self._seen: dict[str, tuple[list[str], list[str]]] = {}
        self.names_left = max_names
        """Names the walks of this expansion may still examine; None: no limit."""
        self.exhausted = False
        """Whether some walk stopped because no name was left to examine."""

    def spend(self, names: int) -> bool:
        """Count `names` examined; False (and every walk stops) once the budget is gone.

        Every argument examines the names again (a glob matches each one), so the budget is
        what bounds a call's work in a large tree, whatever the arguments."""
        if self.names_left is None:
            return True
        self.names_left -= names
        if self.names_left < 0:
            self.exhausted = True
        return not self.exhausted

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
        if not lister.spend(len(dirs) + len(files)):
            break
        result.extend(os.path.join(given, *parts, name) for name in files if is_markdown_name(name))
        if depth >= lister.max_depth:
            if dirs:
                lister.too_deep[given] = None
            continue
        # Pushed in reverse so the first subdirectory is walked next: os.walk's order.
        for name in reversed(dirs):
            stack.append((os.path.join(directory, name), (*parts, name), depth + 1))
    return result


_ANY = True
"""A `*` segment: matches every (non-empty) name without a regex."""


def _matchers(parts: list[str]) -> list[re.Pattern[str] | bool | None]:
    """Per pattern segment: None for `**`, _ANY for `*`, else its compiled fnmatch regex."""
    from fnmatch import translate

    matchers: list[re.Pattern[str] | bool | None] = []
    for part in parts:
        if part == "**":
            if not matchers or matchers[-1] is not None:
                matchers.append(None)  # `**/**` matches what `**` does: one state, not thousands
        else:
            matchers.append(_ANY if part == "*" else re.compile(translate(part)))
    return matchers


class _Automaton:
    """A glob's segments as an NFA over path segments: a set of states, no backtracking.

    Each directory carries the states its path reached, so a name costs one step from its
    directory's states (not a run from the root), and a directory no state survives is never
    listed at all.
    """

    def __init__(self, matchers: list[re.Pattern[str] | bool | None]) -> None:
        self.matchers = matchers
        self.accept = len(matchers)
        self.start = self._closure({0})

    def _closure(self, states: set[int]) -> frozenset[int]:
        pending = list(states)
        while pending:
            state = pending.pop()
            if state < self.accept and self.matchers[state] is None and state + 1 not in states:
                states.add(state + 1)
                pending.append(state + 1)
        return frozenset(states)

    def step(self, states: frozenset[int], name: str) -> frozenset[int]:
        following: set[int] = set()
        for state in states:
            if state < self.accept:
                matcher = self.matchers[state]
                if matcher is None:
                    following.add(state)
                elif matcher is _ANY or matcher.match(name):  # type: ignore[union-attr]
                    following.add(state + 1)
        return self._closure(following) if following else frozenset()


def glob(pattern: str, base: str, lister: Lister) -> list[str]:
    """Files (and directories, expanded) matching a glob, found by one walk that never follows
    directory symlinks: the standard glob's `**` does, and two links back to `.` make it explore
    2^40 paths. `*` and `?` stay within a path segment, `**` spans any number of them, and
    hidden entries, `node_modules` and `.git` are skipped as in directory expansion."""
    parts = pattern.replace(os.sep, "/").split("/")
    literal = 0
    while literal < len(parts) - 1 and not is_glob(parts[literal]):
        literal += 1
    prefix = "/".join(parts[:literal]) or ("/" if pattern.startswith("/") else "")
    root = os.path.join(base, prefix) if prefix else base
    nfa = _Automaton(_matchers(parts[literal:]))
    # Like a directory, a pattern stands for Markdown files only, even one spelling out another
    # extension (`notes/*.txt` matches nothing): what is read as Markdown is what the server
    # reads, whatever the name was written as.
    if not os.path.isdir(root):
        return []
    result: list[str] = []
    stack: list[tuple[str, tuple[str, ...], frozenset[int]]] = [(root, (), nfa.start)]
    while stack:
        directory, here, states = stack.pop()
        dirs, files = lister.entries(directory)
        if not lister.spend(len(dirs) + len(files)):
            break
        for name in files:
            if not is_markdown_name(name):
                continue
            if nfa.accept in nfa.step(states, name):
                result.append(os.path.join(prefix, *here, name))
        deeper = len(here) < lister.max_depth
        for name in dirs:
            reached = nfa.step(states, name)
            if nfa.accept in reached:
                below = os.path.join(prefix, *here, name)
                result.extend(walk(below, os.path.join(directory, name), lister))
            if not reached or reached == {nfa.accept}:
                continue  # nothing below can match (a full match was walked whole)
            if deeper:
                stack.append((os.path.join(directory, name), (*here, name), reached))
            else:
                lister.too_deep[pattern] = None
    return sorted(dict.fromkeys(result))
