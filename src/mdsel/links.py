"""A link between pages → the documents of a call it names, where a reader following it lands.

A link is written as its page's source has it: to a Markdown file (`api.md#setup`,
`../guide/api.md#setup`), or to the page a documentation site serves (`/guide/api#setup`,
`./api.html#setup`, `/guide/#setup`), whose source is `api.md` (or `.mdx`, `.markdown`…) or,
for a folder, its `index.md` (then `README.md`). The engine does not know which page a link
came from, so a relative link names the documents whose paths end with it (leading `./` and
`../` dropped), and a link from the site's root (`/guide/api`) the shallowest of those: the
root is the folder the call was given.
"""

from __future__ import annotations

import os

from mdsel.fragments import decoded_fragment
from mdsel.names import MARKDOWN_SUFFIXES, is_markdown_name, namespace_of

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from mdsel.tree import Source

_PAGE_SUFFIXES = (".html", ".htm")
"""A built page's suffix: `api.html` is served from `api.md`."""

_FOLDER_PAGES = ("index", "README")
"""The page a folder's link shows, in the order site generators look for it."""


def page_link(written: str) -> tuple[str, str | None]:
    """The path a link's text before `#` names, decoded as its page's source decodes it
    (entities, then percent escapes, once; `\\` read as `/`), with the namespace of the Markdown
    file it ends in (None for a site's page or folder)."""
    path = decoded_fragment(written.replace("\\", "/"))
    name = path.rpartition("/")[2]
    return path, namespace_of(name) if is_markdown_name(name) else None


def link_targets(link: str) -> list[str]:
    """The paths `link` may name, most likely first: a Markdown file as written; a site's page
    as its sources (`api` and `api.html` → `api.md`, `api.mdx`…, then `api/index.md`… for an
    extensionless one); a folder (`guide/`, `/`) as its index pages. `..` after a folder steps
    back; leading ones are dropped, as is `.`."""
    parts: list[str] = []
    for part in link.split("/"):
        if part == "..":
            if parts:
                parts.pop()
        elif part not in ("", "."):
            parts.append(part)
    folder = "/".join(parts)
    if link.rpartition("/")[2] in ("", ".", "..") or not parts:
        return _folder_pages(folder)
    name = parts[-1]
    if is_markdown_name(name):
        return [folder]
    stem = _page_stem(name)
    if stem:  # a built page: its source, and README for a folder's index.html
        parent = "/".join([*parts[:-1], ""])
        pages = [parent + stem + suffix for suffix in MARKDOWN_SUFFIXES]
        return pages + ([parent + "README" + suffix for suffix in MARKDOWN_SUFFIXES]
                        if stem == "index" else [])  # fmt: skip
    return [folder + suffix for suffix in MARKDOWN_SUFFIXES] + _folder_pages(folder)


def link_sources(link: str, sources: Sequence[Source]) -> list[int]:
    """Indices of the sources `link` names: those whose path ends with its first target that
    any path ends with (compared by whole components, the same letter case first, then any).
    A link from the site's root (`/…`) names the shallowest documents any target reaches: those
    of the first target that reaches that depth."""
    paths = [
        "/" + os.path.normpath(s.path).replace(os.sep, "/") if s.path != "-" else ""
        for s in sources
    ]
    targets = link_targets(link)
    from_root = link.startswith("/")
    for folded in (False, True):
        compared = [path.casefold() for path in paths] if folded else paths
        reached = []
        for target in targets:
            wanted = "/" + (target.casefold() if folded else target)
            hits = [i for i, path in enumerate(compared) if path.endswith(wanted)]
            if hits and not from_root:
                return hits
            reached.append(hits)
        depths = [paths[i].count("/") for hits in reached for i in hits]
        if depths:
            shallowest = min(depths)
            for hits in reached:
                if any(paths[i].count("/") == shallowest for i in hits):
                    return [i for i in hits if paths[i].count("/") == shallowest]
    return []


def _folder_pages(folder: str) -> list[str]:
    prefix = folder + "/" if folder else ""
    return [prefix + page + suffix for page in _FOLDER_PAGES for suffix in MARKDOWN_SUFFIXES]


def _page_stem(name: str) -> str:
    """`api` for `api.html` (any letter case), else ""."""
    stem, dot, suffix = name.rpartition(".")
    return stem if dot and stem and "." + suffix.lower() in _PAGE_SUFFIXES else ""
