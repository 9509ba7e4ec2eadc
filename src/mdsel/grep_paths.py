"""`docs/a.md:23`, a line as `grep -n` prints it → the documents of a call at that path.

grep names a file as it was given, from the folder it ran in; a call names its documents as it
was given them, maybe from another folder. The two name one file when they agree on as many of
their last components as both have: `docs/a.md` is `docs/a.md`, `./docs/a.md` or
`/repo/docs/a.md`, and from inside `docs/`, `a.md`; never `other/a.md`. A document whose path is
the written one, component for component, comes before those: `a.md` in a call of `a.md` and
`sub/a.md` is the first. Paths are compared as written, in their letter case, as the file
system names them (no file is looked at).
"""

from __future__ import annotations

import posixpath
from collections.abc import Sequence


def grep_paths(written: str, named: Sequence[str]) -> list[int]:
    """Indices of the document paths `named` that the file `written` is (see the module)."""
    wanted = _components(written)
    if not wanted:
        return []
    paths = [_components(path) for path in named]
    same = [index for index, parts in enumerate(paths) if parts == wanted]
    if same:
        return same
    found = []
    for index, parts in enumerate(paths):
        common = min(len(parts), len(wanted))
        # Two absolute paths name one file only when they are the same path.
        absolute = parts[:1] == ("/",) and wanted[:1] == ("/",)
        if common and not absolute and parts[-common:] == wanted[-common:]:
            found.append(index)
    return found


def _components(path: str) -> tuple[str, ...]:
    """A path as components, `/` first when absolute, leading `..` dropped (the folder it
    steps out of is unknown); () for standard input."""
    if path in ("", "-"):
        return ()
    normal = posixpath.normpath(path)
    parts = [part for part in normal.split("/") if part and part != "."]
    while parts and parts[0] == "..":
        parts.pop(0)
    return ("/", *parts) if normal.startswith("/") else tuple(parts)
