"""Read policy of the server: Markdown names, MDSEL_ROOTS, symlink targets, file types, size."""

from __future__ import annotations

import errno
import os
import re
import stat
from dataclasses import dataclass

MARKDOWN_EXTENSIONS = (".md", ".markdown", ".mdx", ".mdown", ".mkd", ".mkdn")

PROCESSING_ERROR = "PROCESSING_ERROR"
FILE_NOT_FOUND = "FILE_NOT_FOUND"

OUTSIDE_ROOTS = "outside the directories allowed by MDSEL_ROOTS"

_GLOB_MAGIC = re.compile(r"[*?[]")
"""What makes a missing path a glob; the same rule as the engine's file module."""


@dataclass(frozen=True, slots=True)
class Policy:
    """What the server may read on a model's behalf."""

    roots: tuple[str, ...] | None = None
    """Resolved directories reads are confined to; None means anywhere."""
    max_bytes: int = 50 * 1024 * 1024
    """Largest file read, in bytes."""


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why one path is not read; shaped like the engine's file problems so it prints like them."""

    path: str
    type: str
    code: str
    message: str


def is_markdown_name(path: str) -> bool:
    """Whether the last component of `path` ends in a Markdown extension (any letter case)."""
    name = os.path.basename(path.rstrip("/" + (os.altsep or "")))
    stem, extension = os.path.splitext(name)
    return bool(stem) and extension.lower() in MARKDOWN_EXTENSIONS


_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def shown(path: str) -> str:
    """`path` with control characters written as escapes (`\\x0a`), safe on one output line."""
    return _CONTROL.sub(lambda found: f"\\x{ord(found.group()):02x}", path)


def _inside(path: str, root: str) -> bool:
    # Compare whole components: /docs-private must not pass for a root of /docs.
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


# Codes and wording follow the engine's own file problems, so a file refused by the server reads
# the same as one the CLI could not read.
_KINDS = (
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def _kind(mode: int) -> str:
    for test, kind in _KINDS:
        if test(mode):
            return kind
    return "not a regular file"


def check(path: str, policy: Policy, cwd: str | None = None) -> Refusal | None:
    """Decide whether the server may read `path`; never opens it.

    Order matters: the name is judged before the file system is touched, and the roots before
    anything is said about the target, so a refusal never reveals what lies outside the roots.
    """
    if _CONTROL.search(path):
        # Output is line-based: a name with a line break in it, found by walking a directory,
        # could print lines of its own (a forged refusal, a fake heading). Shown escaped.
        reason = "the file name contains a line break or another control character; refused"
        return Refusal(shown(path), PROCESSING_ERROR, "CONTROL_CHARACTER", reason)
    extensions = " ".join(MARKDOWN_EXTENSIONS)
    if not is_markdown_name(path):
        return Refusal(
            path,
            PROCESSING_ERROR,
            "NOT_MARKDOWN",
            f"not a Markdown file name; only {extensions} files are read",
        )
    absolute = os.path.join(os.getcwd() if cwd is None else cwd, path)
    target = os.path.realpath(absolute)
    if policy.roots is not None and not any(_inside(target, root) for root in policy.roots):
        return Refusal(path, PROCESSING_ERROR, "OUTSIDE_ROOTS", OUTSIDE_ROOTS)
    if not is_markdown_name(target):
        return Refusal(
            path,
            PROCESSING_ERROR,
            "NOT_MARKDOWN",
            f"resolves to {target}, not a Markdown file name; only {extensions} files are read",
        )
    try:
        # stat, not open: opening a FIFO would block and opening a device may have side effects.
        # The path as given, so the kernel follows its links as it will when the file is read.
        info = os.stat(absolute)
    except FileNotFoundError:
        return Refusal(path, FILE_NOT_FOUND, "ENOENT", "no such file; check the path")
    except PermissionError:
        return Refusal(path, PROCESSING_ERROR, "EACCES", "permission denied; check its permissions")
    except OSError as error:
        if error.errno == errno.ELOOP:
            reason = "symbolic links that loop (or a chain too long to follow); refused"
            return Refusal(path, PROCESSING_ERROR, "ELOOP", reason)
        return Refusal(
            path, PROCESSING_ERROR, "OS_ERROR", f"cannot read: {error.strerror or error}"
        )
    if stat.S_ISDIR(info.st_mode):
        return Refusal(path, PROCESSING_ERROR, "EISDIR", "is a directory; name the files in it")
    if not stat.S_ISREG(info.st_mode):
        reason = f"not a regular file ({_kind(info.st_mode)}); refused"
        return Refusal(path, PROCESSING_ERROR, "NOT_REGULAR", reason)
    if info.st_size > policy.max_bytes:
        reason = f"file is {info.st_size} bytes; the limit is {policy.max_bytes} (MDSEL_MAX_BYTES)"
        return Refusal(path, PROCESSING_ERROR, "TOO_LARGE", reason)
    return None


def _fixed_part(pattern: str) -> str:
    # The leading components without glob characters: the directory a glob starts listing from.
    parts = pattern.split(os.sep)
    for position, part in enumerate(parts):
        if _GLOB_MAGIC.search(part):
            fixed = os.sep.join(parts[:position])
            return fixed or (os.sep if pattern.startswith(os.sep) else os.curdir)
    return pattern


def check_argument(given: str, policy: Policy, cwd: str | None = None) -> Refusal | None:
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
    expands = exists or bool(_GLOB_MAGIC.search(given))
    if not exists and expands:
        full = os.path.join(base, _fixed_part(given))
    target = os.path.realpath(full)
    if any(_inside(target, root) for root in policy.roots):
        return None
    if expands and any(_inside(root, target) for root in policy.roots):
        # Roots are the model's own working area: saying that one lies below this leaks nothing.
        reason = f"reaches {OUTSIDE_ROOTS}; name files, directories or patterns inside them"
        return Refusal(given, PROCESSING_ERROR, "OUTSIDE_ROOTS", reason)
    return Refusal(given, PROCESSING_ERROR, "OUTSIDE_ROOTS", OUTSIDE_ROOTS)


def partition(
    paths: tuple[str, ...] | list[str], policy: Policy, cwd: str | None = None
) -> tuple[tuple[str, ...], tuple[Refusal, ...]]:
    """Split expanded paths into those the server may read and the refusals for the rest."""
    accepted: list[str] = []
    refused: list[Refusal] = []
    for path in paths:
        refusal = check(path, policy, cwd)
        if refusal is None:
            accepted.append(path)
        else:
            refused.append(refusal)
    return tuple(accepted), tuple(refused)
