"""Expand the paths a call names (literal, glob, directory) into the files to read, under the
per-call limits.

An existing path is taken literally; otherwise it is a glob (`docs/**/*.md`). Directories expand
to the Markdown files below them, sorted, skipping hidden entries, `node_modules` and `.git`, and
not following directory symlinks, at most MDSEL_MAX_DEPTH levels deep (`mdsel.walk`). Nothing
is opened here: reading is `mdsel.read`'s. `-` names standard input (namespace `stdin`); a file
called `-` is reached as `./-`.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence

from mdsel._record import NamedTuple
from mdsel.errors import FILE_NOT_FOUND, PROCESSING_ERROR, Problem
from mdsel.names import STDIN, is_glob
from mdsel.read import missing
from mdsel.settings import (
    DEFAULT_MAX_BYTES,
    DEFAULT_MAX_DEPTH,
    DEFAULT_MAX_FILES,
    DEFAULT_MAX_NAMES,
    DEFAULT_MAX_TOTAL_BYTES,
)
from mdsel.walk import SKIPPED_DIRS, Lister, glob, walk

__all__ = ["SKIPPED_DIRS", "Expansion", "FileLimits", "expand_paths"]


class FileLimits(NamedTuple):
    max_files: int = DEFAULT_MAX_FILES
    """Files per call after expansion (MDSEL_MAX_FILES)."""
    max_bytes: int = DEFAULT_MAX_BYTES
    """Largest single file read (MDSEL_MAX_BYTES)."""
    max_total_bytes: int = DEFAULT_MAX_TOTAL_BYTES
    """Bytes read per call (MDSEL_MAX_TOTAL_BYTES)."""
    max_depth: int = DEFAULT_MAX_DEPTH
    """Directory levels searched below a directory or a glob's fixed part (MDSEL_MAX_DEPTH)."""
    max_names: int = DEFAULT_MAX_NAMES
    """Names examined per call by directory and glob expansion (MDSEL_MAX_NAMES)."""


class Expansion(NamedTuple):
    paths: tuple[str, ...]
    """Files to read, in order, as the user would write them (relative stays relative)."""
    problems: tuple[Problem, ...]
    """Paths that gave no file (missing, no match, no Markdown below), in argument order."""
    warnings: tuple[str, ...]
    """Ready-to-print lines naming what the limits left out."""
    left_out: tuple[str, ...] = ()
    """The files MDSEL_MAX_FILES and MDSEL_MAX_TOTAL_BYTES left out, never read: a link the
    call's files answer may name one of them too (see resolve)."""


DEFAULT_LIMITS = FileLimits()


def expand_paths(
    paths: Sequence[str],
    limits: FileLimits = DEFAULT_LIMITS,
    cwd: str | None = None,
    checkpoint: Callable[[], object] | None = None,
) -> Expansion:
    """Files to read for these arguments, what could not be used, and what the limits left out.

    `checkpoint`, when given, is called before each directory is listed; what it raises passes
    through (a caller that can be cancelled stops a long walk this way).
    """
    base, gone = _base(cwd)
    found: list[str] = []
    problems: list[Problem] = []
    lister = Lister(limits.max_depth, checkpoint, limits.max_names)
    contributing = 0  # arguments that gave files: only several can name a file twice
    # The same argument twice is expanded once: 500 copies of a directory are one walk.
    for given in dict.fromkeys(paths):
        relative = given != STDIN and not os.path.isabs(given)
        files = _no_working_directory(given) if gone and relative else _expand(given, base, lister)
        if isinstance(files, Problem) and lister.exhausted and files.code != "ENOENT":
            # "No match" would be a guess: the walk stopped before it could tell.
            reason = f"not searched to the end: MDSEL_MAX_NAMES ({limits.max_names}) ran out"
            files = Problem(PROCESSING_ERROR, "NOT_SEARCHED", reason, file=given)
        if isinstance(files, Problem):
            problems.append(files)
        else:
            found.extend(files)
            contributing += bool(files)
    kept, warnings, left_out = _within_limits(
        _unique(found, base) if contributing > 1 else found, limits, base
    )
    if lister.exhausted:
        warnings.insert(
            0,
            f"warning: stopped listing after examining {limits.max_names} names "
            "(MDSEL_MAX_NAMES); files further on were not searched: name a narrower directory "
            "or pattern",
        )
    if lister.too_deep:
        warnings.insert(
            0,
            f"warning: directories more than {limits.max_depth} levels below "
            f"{_names(list(lister.too_deep))} were not searched (MDSEL_MAX_DEPTH)",
        )
    return Expansion(tuple(kept), tuple(problems), tuple(warnings), tuple(left_out))


def _base(cwd: str | None) -> tuple[str, bool]:
    """The folder relative paths are read against, and whether the process's own working
    folder is gone (removed while it stood there: the kernel can no longer name it, and every
    `os.getcwd()` fails). Then absolute paths are still read, against the root."""
    if cwd is not None:
        return cwd, False
    try:
        return os.getcwd(), False
    except FileNotFoundError:
        return os.sep, True


def _no_working_directory(given: str) -> Problem:
    reason = (
        "is a relative path, and the current directory no longer exists (it was removed); "
        "run from a folder that exists, or give an absolute path"
    )
    return Problem(PROCESSING_ERROR, "NO_WORKING_DIRECTORY", reason, file=given)


def _unique(found: list[str], base: str) -> list[str]:
    """`found` with each file once, as first named: `docs/a.md`, `./docs/a.md`, its absolute
    path and `docs/../docs/a.md` are one file (read twice, it would be indexed and counted
    twice, and a link to it would name two documents). Its folder is resolved, links and all,
    but not its own name: a link to a file is an entry of its own, read (or refused) as named.

    Only for files of several arguments: one argument's files are each named once (a walk
    lists every entry once and follows no folder link), and resolving a thousand folders,
    a system call per component, would cost a third of indexing them."""
    first: dict[str, str] = {}
    resolved: dict[str, str] = {}  # folder → its real path: files share folders
    folded: dict[str, str] = {}  # a key in lower case → the first key spelled so
    for path in found:
        if path == STDIN:
            key = path
        else:
            folder, name = os.path.split(os.path.join(base, path))
            real = resolved.get(folder)
            if real is None:
                try:
                    real = os.path.realpath(folder)
                except OSError:  # swapped while resolved (a link, then a directory): as given
                    real = folder
                resolved[folder] = real
            key = os.path.join(real, name)
            # Where names ignore case (macOS, Windows), resolving keeps the case as typed:
            # `docs/A.md` and `DOCS/a.md` are one file there, and two on another system.
            # The entries themselves decide, and only for keys alike but for case.
            earlier = folded.setdefault(key.lower(), key)
            if earlier != key and _same_entry(earlier, key):
                key = earlier
        first.setdefault(key, path)
    return list(first.values())


def _same_entry(one: str, other: str) -> bool:
    """Whether two paths name one directory entry's file (lstat: a link is an entry of its own)."""
    try:
        return os.path.samestat(os.lstat(one), os.lstat(other))
    except (OSError, ValueError):
        return False


def _expand(given: str, base: str, lister: Lister) -> list[str] | Problem:
    """The files one argument names, or why it names none."""
    if given == STDIN:
        return [given]
    full = os.path.join(base, given)
    if os.path.lexists(full):
        if not os.path.isdir(full):
            return [given]
        below = walk(given, full, lister)
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
    matches = glob(given, base, lister)
    if matches:
        return matches
    return Problem(FILE_NOT_FOUND, "NO_MATCH", "no file matches this pattern", file=given)


def _within_limits(
    unique: list[str], limits: FileLimits, base: str
) -> tuple[list[str], list[str], list[str]]:
    """The files kept under MDSEL_MAX_FILES and MDSEL_MAX_TOTAL_BYTES, warnings naming the
    rest, and the rest. A file over MDSEL_MAX_BYTES is kept without counting: reading it
    reports it."""
    warnings: list[str] = []
    left_out: list[str] = []
    if len(unique) > limits.max_files:
        left_out = unique[limits.max_files :]
        unique = unique[: limits.max_files]
        warnings.append(
            f"warning: only the first {limits.max_files} files were read (MDSEL_MAX_FILES); "
            + (
                f"left out {len(left_out)}: {_names(left_out)}"
                if len(left_out) <= 10
                else f"{len(left_out)} more not read, by directory: {_by_directory(left_out)}; "
                "name a subdirectory or raise MDSEL_MAX_FILES"
            )
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
    return kept, warnings, [*left_out, *skipped]


def _by_directory(paths: list[str], limit: int = 20) -> str:
    """`docs/a/ 40, docs/b/ 12`: files counted per directory, directories merged into their
    parents until at most `limit` remain, so every file left out is counted somewhere."""
    directories = [os.path.dirname(path).replace(os.sep, "/") for path in paths]
    depth = max((d.count("/") + 1 for d in directories if d), default=0)
    while True:
        counts: dict[str, int] = {}
        for directory in directories:
            key = "/".join(directory.split("/")[:depth]) if directory else ""
            counts[key] = counts.get(key, 0) + 1
        if len(counts) <= limit or depth == 0:
            break
        depth -= 1
    return ", ".join(f"{_names([d + '/' if d else './'])} {n}" for d, n in counts.items())


def _names(paths: list[str], limit: int = 10) -> str:
    # Control characters escaped: a name holding a line break must not forge a line of the
    # output. Every other character is kept, so `docs/指南/` is a path the reader can name.
    from mdsel.titles import shown_title

    shown = ", ".join(shown_title(p) for p in paths[:limit])
    return shown + (f", … +{len(paths) - limit} more" if len(paths) > limit else "")
