"""How things are named, for the engine, the server's read policy and the hook alike: which file
names are Markdown, which arguments are glob patterns, the namespace a file name gives, and a
heading's short selector.

A leaf module of the standard library only (`os`, `re`), so the hook, which runs on every `Read`,
can import it without loading the engine: `import mdsel` itself loads nothing (see `__init__`).
"""

from __future__ import annotations

import os
import re

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

MARKDOWN_SUFFIXES = (".md", ".markdown", ".mdx", ".mdown", ".mkd", ".mkdn")
"""Lower-cased extensions that make a file name Markdown (SPEC §5), matched in any letter case."""

_SEPARATORS = "/" + (os.altsep or "")
_GLOB_MAGIC = re.compile(r"[*?[]")
_NOT_NAMESPACE = re.compile(r"[^a-z0-9_-]")


STDIN = "-"
"""The file argument that names standard input."""
STDIN_NAMESPACE = "stdin"


def is_markdown_name(path: str) -> bool:
    """Whether the last component of `path` has a Markdown extension (any letter case).

    The name needs a stem before the extension: `.md` alone is a hidden file without one, as
    `os.path.splitext` has it. A trailing separator is ignored, so `notes.md/` is judged by name.
    """
    name = os.path.basename(path.rstrip(_SEPARATORS))
    stem, extension = os.path.splitext(name)
    return bool(stem) and extension.lower() in MARKDOWN_SUFFIXES


def is_glob(path: str) -> bool:
    """Whether a path that does not exist is read as a glob pattern (`*`, `?` or `[` in it)."""
    return _GLOB_MAGIC.search(path) is not None


def heading_selector(level: int, ordinal: int) -> str:
    """The short selector of a heading: `h2.1` is the second top-level h2 (0-based)."""
    return f"h{level}.{ordinal}"


def namespace_of(path: str) -> str:
    """A path's namespace before collisions are numbered: its base name without the last
    extension, lowercased, other characters than [a-z0-9_-] as `_`, `doc` if nothing is left;
    `stdin` for standard input (`-`)."""
    if path == STDIN:
        return STDIN_NAMESPACE
    base = os.path.basename(path.rstrip("/\\"))
    stem = (base.rpartition(".")[0] if "." in base else base).lower()
    return _NOT_NAMESPACE.sub("_", stem) or "doc"


def namespaces(paths: Sequence[str]) -> list[str]:
    """Namespace per path (`namespace_of`); collisions get -2, -3… in input order."""
    result: list[str] = []
    seen: dict[str, int] = {}
    taken: set[str] = set()
    for path in paths:
        name = namespace_of(path)
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


def document_name(namespace: str, path: str) -> str:
    """How prose names a document: its namespace quoted, then its path (`'index'
    (docs/index.md)`), so that a namespace such as `all` or `index` never reads as a word of
    the sentence."""
    if path and path != namespace:
        return f"'{namespace}' ({path})"
    return f"'{namespace}'"
