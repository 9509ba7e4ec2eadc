"""The engine's only I/O: expand paths (literal, glob, directory), read bytes under a cap, name
documents.

An existing path is taken literally; otherwise it is a glob (`docs/**/*.md`). Directories expand
to the Markdown files below them, sorted, skipping hidden entries, `node_modules` and `.git`, and
not following directory symlinks. Only regular files are ever opened: a FIFO or a device would
block or never end. `-` names standard input (namespace `stdin`), read once and under the same
byte cap; a file called `-` is reached as `./-`.
"""

from __future__ import annotations

import os
import re
import stat
import sys
from collections.abc import Sequence

from mdsel.errors import FILE_NOT_FOUND, PROCESSING_ERROR

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import NamedTuple
else:  # typing costs a quarter of an interpreter start: see mdsel._record
    from mdsel._record import NamedTuple

MARKDOWN_SUFFIXES = (".md", ".markdown", ".mdx", ".mdown", ".mkd", ".mkdn")
SKIPPED_DIRS = frozenset({"node_modules", ".git"})
_GLOB_MAGIC = re.compile(r"[*?[]")
STDIN = "-"
STDIN_NAMESPACE = "stdin"


class FileLimits(NamedTuple):
    max_files: int = 500
    """Files per call after expansion (MDSEL_MAX_FILES)."""
    max_bytes: int = 52_428_800
    """Largest single file read (MDSEL_MAX_BYTES)."""
    max_total_bytes: int = 104_857_600
    """Bytes read per call (MDSEL_MAX_TOTAL_BYTES)."""


class FileProblem(NamedTuple):
    """A path that could not be used, in the `!<path> TYPE: reason` sense."""

    path: str
    type: str
    code: str
    message: str


class Expansion(NamedTuple):
    paths: tuple[str, ...]
    """Files to read, in order, as the user would write them (relative stays relative)."""
    problems: tuple[FileProblem, ...]
    warnings: tuple[str, ...]
    """Ready-to-print lines naming what the limits left out."""


class FileReadError(Exception):
    def __init__(self, problem: FileProblem) -> None:
        super().__init__(problem.message)
        self.problem = problem


def is_markdown_name(path: str) -> bool:
    return path.lower().endswith(MARKDOWN_SUFFIXES)


DEFAULT_LIMITS = FileLimits()


def expand_paths(
    paths: Sequence[str], limits: FileLimits = DEFAULT_LIMITS, cwd: str | None = None
) -> Expansion:
    base = os.getcwd() if cwd is None else cwd
    found: list[str] = []
    problems: list[FileProblem] = []
    for given in paths:
        full = os.path.join(base, given)
        if given == STDIN:
            found.append(given)
        elif os.path.lexists(full):
            if os.path.isdir(full):
                below = _walk(given, full)
                if not below:
                    problems.append(
                        FileProblem(
                            given,
                            FILE_NOT_FOUND,
                            "NO_MARKDOWN",
                            "no Markdown files in this directory (hidden entries, node_modules "
                            "and .git are skipped)",
                        )
                    )
                found.extend(below)
            else:
                found.append(given)
        elif _GLOB_MAGIC.search(given):
            matches = _glob(given, base)
            if matches:
                found.extend(matches)
            else:
                problems.append(
                    FileProblem(given, FILE_NOT_FOUND, "NO_MATCH", "no file matches this pattern")
                )
        else:
            problems.append(_missing(given))

    unique = list(dict.fromkeys(found))
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
    return Expansion(tuple(kept), tuple(problems), tuple(warnings))


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
    while literal < len(parts) - 1 and not _GLOB_MAGIC.search(parts[literal]):
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


def read_bytes(path: str, max_bytes: int, cwd: str | None = None) -> bytes:
    """The file's bytes, or FileReadError: missing, not a regular file, too large, unreadable.

    Opened non-blocking and checked with fstat on the open descriptor, so a FIFO swapped in after
    any earlier check still cannot block the read.
    """
    if path == STDIN:
        return _read_stdin(max_bytes)
    full = path if cwd is None else os.path.join(cwd, path)
    try:
        info = os.stat(full)
    except FileNotFoundError:
        raise FileReadError(_missing(path)) from None
    except OSError as exc:
        raise FileReadError(_os_problem(path, exc)) from None
    _check_kind(path, info.st_mode, info.st_size, max_bytes)
    try:
        fd = os.open(full, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise FileReadError(_missing(path)) from None
    except OSError as exc:
        raise FileReadError(_os_problem(path, exc)) from None
    try:
        info = os.fstat(fd)
        _check_kind(path, info.st_mode, info.st_size, max_bytes)
        with os.fdopen(fd, "rb", closefd=False) as handle:
            # st_size + 1 bytes: one read call, and the extra byte shows a file that grew.
            data = handle.read(min(info.st_size, max_bytes) + 1)
            if len(data) > info.st_size:
                data += handle.read(max_bytes + 1 - len(data))
    except OSError as exc:
        raise FileReadError(_os_problem(path, exc)) from None
    finally:
        os.close(fd)
    if len(data) > max_bytes:  # grew since stat
        raise FileReadError(_too_large(path, len(data), max_bytes))
    return data


def _read_stdin(max_bytes: int) -> bytes:
    """Standard input to its end, refused past `max_bytes` (read one byte more to tell)."""
    stream = sys.stdin.buffer if sys.stdin is not None else None
    try:
        data = stream.read(max_bytes + 1) if stream is not None else None
    except OSError as exc:
        raise FileReadError(_os_problem(STDIN, exc)) from None
    if data is None:
        reason = "standard input is closed; pipe the document in or name a file"
        raise FileReadError(FileProblem(STDIN, PROCESSING_ERROR, "NO_STDIN", reason))
    if len(data) > max_bytes:
        reason = (
            f"standard input is over {max_bytes} bytes, the limit (MDSEL_MAX_BYTES); "
            "raise it or select from a file"
        )
        raise FileReadError(FileProblem(STDIN, PROCESSING_ERROR, "TOO_LARGE", reason))
    return data


def _missing(path: str) -> FileProblem:
    return FileProblem(path, FILE_NOT_FOUND, "ENOENT", "no such file; check the path")


def _check_kind(path: str, mode: int, size: int, max_bytes: int) -> None:
    if stat.S_ISDIR(mode):
        raise FileReadError(
            FileProblem(path, PROCESSING_ERROR, "EISDIR", "is a directory; name the files in it")
        )
    if not stat.S_ISREG(mode):
        raise FileReadError(
            FileProblem(
                path,
                PROCESSING_ERROR,
                "NOT_REGULAR",
                "not a regular file (FIFO, device or socket); refused",
            )
        )
    if size > max_bytes:
        raise FileReadError(_too_large(path, size, max_bytes))


def _too_large(path: str, size: int, limit: int) -> FileProblem:
    return FileProblem(
        path,
        PROCESSING_ERROR,
        "TOO_LARGE",
        f"file is {size} bytes; the limit is {limit} (MDSEL_MAX_BYTES)",
    )


def _os_problem(path: str, exc: OSError) -> FileProblem:
    if isinstance(exc, PermissionError):
        return FileProblem(
            path, PROCESSING_ERROR, "EACCES", "permission denied; check its permissions"
        )
    return FileProblem(path, PROCESSING_ERROR, "OS_ERROR", f"cannot read: {exc.strerror or exc}")


def namespaces(paths: Sequence[str]) -> list[str]:
    """Namespace per path: base name without its last extension, lowercased, other characters
    than [a-z0-9_-] as `_` (`doc` if empty); collisions get -2, -3… in input order."""
    result: list[str] = []
    seen: dict[str, int] = {}
    taken: set[str] = set()
    for path in paths:
        base = os.path.basename(path.rstrip("/\\"))
        stem = (base.rpartition(".")[0] if "." in base else base).lower()
        name = re.sub(r"[^a-z0-9_-]", "_", stem) or "doc"
        if path == STDIN:
            name = STDIN_NAMESPACE
        candidate = name
        if candidate in taken:
            number = seen.get(name, 1)
            while candidate in taken:
                number += 1
                candidate = f"{name}-{number}"
            seen[name] = number
        taken.add(candidate)
        result.append(candidate)
    return result
