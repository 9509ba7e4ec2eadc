"""Expand the paths a call names (literal, glob, directory) into the files to read, under the
per-call limits.

An existing path is taken literally; otherwise it is a glob (`docs/**/*.md`). Directories expand
to the Markdown files below them, sorted, skipping hidden entries, `node_modules` and `.git`, and
not following directory symlinks. Nothing is opened here: reading is `mdsel.read`'s. `-` names
standard input (namespace `stdin`); a file called `-` is reached as `./-`.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence

from mdsel._record import NamedTuple
from mdsel.errors import FILE_NOT_FOUND, Problem
from mdsel.names import STDIN, is_glob, is_markdown_name
from mdsel.read import missing
from mdsel.settings import DEFAULT_MAX_BYTES, DEFAULT_MAX_FILES, DEFAULT_MAX_TOTAL_BYTES

SKIPPED_DIRS = frozenset({"node_modules", ".git"})


class FileLimits(NamedTuple):
    max_files: int = DEFAULT_MAX_FILES
    """Files per call after expansion (MDSEL_MAX_FILES)."""
    max_bytes: int = DEFAULT_MAX_BYTES
    """Largest single file read (MDSEL_MAX_BYTES)."""
    max_total_bytes: int = DEFAULT_MAX_TOTAL_BYTES
    """Bytes read per call (MDSEL_MAX_TOTAL_BYTES)."""


class Expansion(NamedTuple):
    paths: tuple[str, ...]
    """Files to read, in order, as the user would write them (relative stays relative)."""
    problems: tuple[Problem, ...]
    """Paths that gave no file (missing, no match, no Markdown below), in argument order."""
    warnings: tuple[str, ...]
    """Ready-to-print lines naming what the limits left out."""


DEFAULT_LIMITS = FileLimits()


def expand_paths(
    paths: Sequence[str], limits: FileLimits = DEFAULT_LIMITS, cwd: str | None = None
) -> Expansion:
    base = os.getcwd() if cwd is None else cwd
    found: list[str] = []
    problems: list[Problem] = []
    for given in paths:
        files = _expand(given, base)
        if isinstance(files, Problem):
            problems.append(files)
        else:
            found.extend(files)
    kept, warnings = _within_limits(list(dict.fromkeys(found)), limits, base)
    return Expansion(tuple(kept), tuple(problems), tuple(warnings))


def _expand(given: str, base: str) -> list[str] | Problem:
    """The files one argument names, or why it names none."""
    if given == STDIN:
        return [given]
    full = os.path.join(base, given)
    if os.path.lexists(full):
        if not os.path.isdir(full):
            return [given]
        below = _walk(given, full)
        if below:
            return below
        return Problem(
            FILE_NOT_FOUND,
            "NO_MARKDOWN",
            "no Markdown files in this directory (hidden entries, node_modules and .git are "
            "skipped)",
            file=given,
        )
    if not is_glob(given):
        return missing(given)
    matches = _glob(given, base)
    if matches:
        return matches
    return Problem(FILE_NOT_FOUND, "NO_MATCH", "no file matches this pattern", file=given)


def _within_limits(unique: list[str], limits: FileLimits, base: str) -> tuple[list[str], list[str]]:
    """The files kept under MDSEL_MAX_FILES and MDSEL_MAX_TOTAL_BYTES, and warnings naming the
    rest. A file over MDSEL_MAX_BYTES is kept without counting: reading it reports it."""
    warnings: list[str] = []
    if len(unique) > limits.max_files:
        left_out = unique[limits.max_files :]
        unique = unique[: limits.max_files]
        warnings.append(
            f"warning: only the first {limits.max_files} files were read (MDSEL_MAX_FILES); "
            f"left out {len(left_out)}: {_names(left_out)}"
        )
    kept: list[str] = []
    total = 0
    skipped: list[str] = []
    for path in unique:
        try:
            size = os.stat(os.path.join(base, path)).st_size
        except OSError:
            size = 0  # reported when read
        if size <= limits.max_bytes and total + size > limits.max_total_bytes:
            skipped.append(path)
            continue
        if size <= limits.max_bytes:
            total += size
        kept.append(path)
    if skipped:
        warnings.append(
            f"warning: {len(skipped)} files left out to stay under {limits.max_total_bytes} bytes "
            f"per call (MDSEL_MAX_TOTAL_BYTES): {_names(skipped)}"
        )
    return kept, warnings


def _names(paths: list[str], limit: int = 10) -> str:
    # Escaped: a name holding a line break must not forge a line of the output.
    shown = ", ".join(p.encode("unicode_escape").decode("ascii") for p in paths[:limit])
    return shown + (f", … +{len(paths) - limit} more" if len(paths) > limit else "")


def _walk(given: str, full: str) -> list[str]:
    result: list[str] = []
    for directory, dirnames, filenames in os.walk(full):
        # Pruning in place keeps os.walk out of hidden trees; it never follows dir symlinks.
        dirnames[:] = sorted(d for d in dirnames if not d.startswith(".") and d not in SKIPPED_DIRS)
        relative = os.path.relpath(directory, full)
        for name in sorted(filenames):
            if name.startswith(".") or not is_markdown_name(name):
                continue
            parts = (given, name) if relative == "." else (given, relative, name)
            result.append(os.path.join(*parts))
    return result


def _glob(pattern: str, base: str) -> list[str]:
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
    matchers = [None if part == "**" else re.compile(translate(part)) for part in parts[literal:]]
    fixed_depth = None if None in matchers else len(matchers)
    # Like a directory, a wildcard stands for Markdown files only, unless the pattern spells out
    # another extension itself (`notes/*.txt`).
    last = parts[-1]
    markdown_only = not re.search(r"\.[A-Za-z0-9]+$", last) or is_markdown_name(last)
    if not os.path.isdir(root):
        return []
    result: list[str] = []
    for directory, dirnames, filenames in os.walk(root):
        relative = os.path.relpath(directory, root)
        here = [] if relative == "." else relative.split(os.sep)
        dirnames[:] = sorted(d for d in dirnames if not d.startswith(".") and d not in SKIPPED_DIRS)
        for name in dirnames:
            if not os.path.islink(os.path.join(directory, name)) and _glob_match(
                matchers, [*here, name]
            ):
                result.extend(
                    _walk(os.path.join(prefix, *here, name), os.path.join(directory, name))
                )
        if fixed_depth is not None and len(here) + 1 >= fixed_depth:
            dirnames[:] = []  # without `**`, nothing deeper can match
        for name in sorted(filenames):
            if markdown_only and not is_markdown_name(name):
                continue
            if not name.startswith(".") and _glob_match(matchers, [*here, name]):
                result.append(
                    os.path.join(prefix, *here, name) if prefix else os.path.join(*here, name)
                )
    return sorted(dict.fromkeys(result))


def _glob_match(matchers: list[re.Pattern[str] | None], segments: list[str]) -> bool:
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
