"""Read policy of the server: Markdown names, MDSEL_ROOTS, symlink targets, file types, size."""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass

MARKDOWN_EXTENSIONS = (".md", ".markdown", ".mdx", ".mdown", ".mkd", ".mkdn")

PROCESSING_ERROR = "PROCESSING_ERROR"
FILE_NOT_FOUND = "FILE_NOT_FOUND"


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
        reason = "outside the directories allowed by MDSEL_ROOTS"
        return Refusal(path, PROCESSING_ERROR, "OUTSIDE_ROOTS", reason)
    if not is_markdown_name(target):
        return Refusal(
            path,
            PROCESSING_ERROR,
            "NOT_MARKDOWN",
            f"resolves to {target}, not a Markdown file name; only {extensions} files are read",
        )
    try:
        # stat, not open: opening a FIFO would block and opening a device may have side effects.
        info = os.stat(target)
    except FileNotFoundError:
        return Refusal(path, FILE_NOT_FOUND, "ENOENT", "no such file; check the path")
    except PermissionError:
        return Refusal(path, PROCESSING_ERROR, "EACCES", "permission denied; check its permissions")
    except OSError as error:
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
