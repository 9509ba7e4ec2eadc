"""Read policy of the server: Markdown names, MDSEL_ROOTS, symlink targets, file types, size."""

from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass

from mdsel.errors import PROCESSING_ERROR, Problem
from mdsel.names import MARKDOWN_SUFFIXES, is_glob, is_markdown_name
from mdsel.read import missing, not_regular, os_problem, too_large
from mdsel.settings import DEFAULT_MAX_BYTES
from mdsel_claude.server.where import real_path

OUTSIDE_ROOTS = "outside the directories allowed by MDSEL_ROOTS"


@dataclass(frozen=True, slots=True)
class Policy:
    """What the server may read on a model's behalf."""

    roots: tuple[str, ...] | None = None
    """Resolved directories reads are confined to; None means anywhere."""
    max_bytes: int = DEFAULT_MAX_BYTES
    """Largest file read, in bytes."""


def _refused(path: str, code: str, reason: str) -> Problem:
    return Problem(PROCESSING_ERROR, code, reason, file=path)


_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")
"""C0, DEL, C1 (U+0085 NEL and U+009B CSI among them) and the Unicode line and paragraph
separators: whatever a terminal or a line-splitting reader may take for a line break or an
escape sequence."""


def _escape(found: re.Match[str]) -> str:
    code = ord(found.group())
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def shown(path: str) -> str:
    """`path` with control characters written as escapes (`\\x0a`, `\\x85`, `\\u2028`), safe on
    one output line."""
    return _CONTROL.sub(_escape, path)


def control_refusal(path: str) -> Problem | None:
    """The refusal of a name holding a control character, judged on the name alone."""
    if not _CONTROL.search(path):
        return None
    # Output is line-based: a name with a line break in it, given or found by walking a
    # directory, could print lines of its own (a forged refusal, a fake heading). Shown escaped.
    reason = "the file name contains a line break or another control character; refused"
    return _refused(shown(path), "CONTROL_CHARACTER", reason)


def inside(path: str, root: str) -> bool:
    """Whether `path` is `root` or lies below it (both absolute and resolved)."""
    # Compare whole components: /docs-private must not pass for a root of /docs.
    if path == root or path.startswith(root.rstrip(os.sep) + os.sep):
        return True
    return _inside_in_other_case(path, root)


def _inside_in_other_case(path: str, root: str) -> bool:
    """Whether `path` lies in `root` spelled in another letter case, as on the case-insensitive
    file systems macOS and Windows use by default: resolving a path keeps the case it was typed
    in (and macOS's F_GETPATH gives the case on disk), so the same directory can reach the
    policy as `/Users/me/Proj` and `/users/me/proj`. The names alone decide nothing (another
    system may hold both): the directory at the root's depth must be the root itself."""
    wanted = root.rstrip(os.sep).split(os.sep)
    parts = path.split(os.sep)
    if len(parts) < len(wanted):
        return False
    if any(a.lower() != b.lower() for a, b in zip(parts, wanted, strict=False)):
        return False
    try:
        return os.path.samestat(os.stat(os.sep.join(parts[: len(wanted)])), os.stat(root))
    except (OSError, ValueError):
        return False


def check(path: str, policy: Policy, cwd: str | None = None) -> Problem | None:
    """Decide whether the server may read `path`; never opens it.

    Order matters: the name is judged before the file system is touched, and the roots before
    anything is said about the target, so a refusal never reveals what lies outside the roots.
    """
    refusal = control_refusal(path)
    if refusal is not None:
        return refusal
    extensions = " ".join(MARKDOWN_SUFFIXES)
    if not is_markdown_name(path):
        reason = f"not a Markdown file name; only {extensions} files are read"
        return _refused(path, "NOT_MARKDOWN", reason)
    absolute = os.path.join(os.getcwd() if cwd is None else cwd, path)
    try:
        target = real_path(absolute)
    except FileNotFoundError:  # swapped while it was resolved: gone, and nothing said of it
        return missing(path)
    if policy.roots is not None and not any(inside(target, root) for root in policy.roots):
        return _refused(path, "OUTSIDE_ROOTS", OUTSIDE_ROOTS)
    if not is_markdown_name(target):
        reason = f"resolves to {target}, not a Markdown file name; only {extensions} files are read"
        return _refused(path, "NOT_MARKDOWN", reason)
    try:
        # stat, not open: opening a FIFO would block and opening a device may have side effects.
        # The path as given, so the kernel follows its links as it will when the file is read.
        info = os.stat(absolute)
    except FileNotFoundError:
        return missing(path)
    except OSError as error:  # the engine's own problems: the CLI says the same of this file
        return os_problem(path, error)
    if stat.S_ISDIR(info.st_mode):
        return _refused(path, "EISDIR", "is a directory; name the files in it")
    if not stat.S_ISREG(info.st_mode):
        return not_regular(path, info.st_mode)
    if info.st_size > policy.max_bytes:
        return too_large(path, info.st_size, policy.max_bytes)
    return None


def _fixed_part(pattern: str) -> str:
    # The leading components without glob characters: the directory a glob starts listing from.
    parts = pattern.split(os.sep)
    for position, part in enumerate(parts):
        if is_glob(part):
            fixed = os.sep.join(parts[:position])
            return fixed or (os.sep if pattern.startswith(os.sep) else os.curdir)
    return pattern


def check_argument(given: str, policy: Policy, cwd: str | None = None) -> Problem | None:
    """With MDSEL_ROOTS, judge one `files` argument before it is expanded; never lists anything.

    Expanding a directory or a glob prints the names it finds, and "no such file" tells that a
    path does not exist: either would say something about what lies outside the roots. So a
    directory, a glob (by its fixed leading part) or a missing path must resolve inside a root
    to be expanded at all. An existing file goes on to `check`, which refuses it in the same
    words whether or not it exists.
    """
    if policy.roots is None:
        return None
    base = os.getcwd() if cwd is None else cwd
    full = os.path.join(base, given)
    exists = os.path.lexists(full)
    if exists and not os.path.isdir(full):
        return None
    expands = exists or is_glob(given)
    if not exists and expands:
        full = os.path.join(base, _fixed_part(given))
    try:
        target = real_path(full)
    except FileNotFoundError:
        return missing(given)
    if any(inside(target, root) for root in policy.roots):
        return None
    if expands and any(inside(root, target) for root in policy.roots):
        # Roots are the model's own working area: saying that one lies below this leaks nothing.
        reason = f"reaches {OUTSIDE_ROOTS}; name files, directories or patterns inside them"
        return _refused(given, "OUTSIDE_ROOTS", reason)
    return _refused(given, "OUTSIDE_ROOTS", OUTSIDE_ROOTS)


def glob_refusal(given: str, max_segments: int, cwd: str | None = None) -> Problem | None:
    """The refusal of a glob with more path segments than the server matches, before expansion.

    Matching costs segments x pattern parts per name walked: thousands of `**` would keep a call
    busy for minutes. A path that exists is taken literally and never counts as a glob.
    """
    if not is_glob(given):
        return None
    segments = len([part for part in given.replace(os.sep, "/").split("/") if part])
    if segments <= max_segments:
        return None
    if os.path.lexists(os.path.join(os.getcwd() if cwd is None else cwd, given)):
        return None
    reason = (
        f"pattern has {segments} path segments; the limit is {max_segments} "
        "(MDSEL_MAX_GLOB_SEGMENTS)"
    )
    return _refused(given, "GLOB_TOO_LONG", reason)


def refusals(
    paths: tuple[str, ...] | list[str], policy: Policy, cwd: str | None = None
) -> dict[str, Problem]:
    """The expanded paths the server may not read → why (those it may read are not in it)."""
    refused: dict[str, Problem] = {}
    for path in paths:
        refusal = check(path, policy, cwd)
        if refusal is not None:
            refused[path] = refusal
    return refused
