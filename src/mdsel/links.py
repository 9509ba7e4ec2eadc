"""A link between pages → the documents of a call it names, where a reader following it lands.

A link is written as its page's source has it: to a Markdown file (`api.md#setup`,
`../guide/api.md#setup`), or to the page a documentation site serves (`/guide/api#setup`,
`./api.html#setup`, `/guide/#setup`), whose source is `api.md` (or `.mdx`, `.markdown`…) or,
for a folder, its `index.md` (then Hugo's `_index.md`, then `README.md`). The engine does not
know which page a link came from, so:

- a relative link names the documents whose paths end with it (leading `./` and `../`
  dropped); within one folder a page's source comes before a folder's index page of that name,
  and documents in different folders are each named (the caller is told which);
- a link from the site's root (`/guide/api`) is read from the folder holding all the call's
  documents, or from a folder above it: `mdsel select '/guide/api#x' docs/` names
  `docs/guide/api.md`, never `docs/zh/guide/api.md`, and a page only under a subfolder is
  not at the root.
"""

from __future__ import annotations

import os
import re

from mdsel.fragments import decoded_fragment
from mdsel.names import MARKDOWN_SUFFIXES, is_markdown_name, namespace_of
from mdsel.selector_types import TYPES

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from mdsel.tree import Source

_PAGE_SUFFIXES = (".html", ".htm")
"""A built page's suffix: `api.html` is served from `api.md`."""

_FOLDER_PAGES = ("index", "_index", "README")
"""The page a folder's link shows, in the order site generators look for it."""


_NOT_IN_LINK = re.compile(r"[\s,?:]")
_OTHER_SITE = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://|[/\\]{2}")
_SEGMENT = re.compile(
    r"[Ll][0-9]+(?:[ \t]*-[ \t]*[0-9]+)?[ \t]*\Z|([A-Za-z][A-Za-z0-9]*)([.\[][ \t]*(?:[0-9]|\Z))?"
)


def on_another_site(written: str) -> bool:
    """Whether a selector's text before `#` is a link to another host (`https://…`,
    `//host/…`), which no document of a call is."""
    return _OTHER_SITE.match(written) is not None


def link_before(written: str, anchored: bool) -> tuple[str, str | None] | None:
    """The link a selector's text before `#` is (page_link), or None when it reads as a
    selector: it holds a space, `,`, `?` or `:`, or, not naming a Markdown file, it starts with
    a selector's segment or nothing follows the `#` (`anchored` False)."""
    if _NOT_IN_LINK.search(written) is not None:
        return None
    path, namespace = page_link(written)
    if namespace is None:
        first, slash, _rest = written.replace("\\", "/").partition("/")
        if not anchored or _is_segment(first, bool(slash)):
            return None
    return path, namespace


def _is_segment(text: str, followed: bool) -> bool:
    """Whether `text`, before `#` or (`followed`) before `/`, reads as a selector's segment
    rather than a link's page or folder: a numbered one (`h2.1`, `para[0]`, `h2.`), a line
    (`L12`), or a type followed by more (`code/…`). A type alone before `#` (`list#v-for`) is
    a link: no selector has an anchor there."""
    match = _SEGMENT.match(text)
    if match is None:
        return False
    type_name, numbered = match.group(1, 2)
    if type_name is None:
        return True
    return type_name.lower() in TYPES and (numbered is not None or followed)


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
    extensionless one); a folder (`guide/`, `/`) as its index pages, then as the page of that
    name. `..` after a folder steps back; leading ones are dropped, as is `.`."""
    parts: list[str] = []
    for part in link.split("/"):
        if part == "..":
            if parts:
                parts.pop()
        elif part not in ("", "."):
            parts.append(part)
    folder = "/".join(parts)
    if link.rpartition("/")[2] in ("", ".", "..") or not parts:
        return _folder_or_page(folder)
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
    """Indices of the sources `link` names (see link_paths)."""
    return link_paths(link, [source.path for source in sources])


def link_paths(link: str, named: Sequence[str]) -> list[int]:
    """Indices of the document paths `link` names (see the module's rules); compared by whole
    components, in the same letter case first, then in any (only when no document matched in
    the same case: one matched but refused is not replaced by another name)."""
    paths = [_components(path) for path in named]
    targets = [tuple(target.split("/")) for target in link_targets(link)]
    from_root = link.startswith("/")
    root = root_of(named) if from_root else None
    matched = False
    for folded in (False, True):
        if matched:
            break
        wanted = [tuple(map(_case, t)) for t in targets] if folded else targets
        # folder → (target's rank, the sources matching it there)
        best: dict[tuple[str, ...], tuple[int, list[int]]] = {}
        for index, parts in enumerate(paths):
            if not parts:
                continue
            compared = tuple(map(_case, parts)) if folded else parts
            for rank, target in enumerate(wanted):
                if len(compared) >= len(target) and compared[-len(target) :] == target:
                    matched = True
                    folder = parts[: -len(target)]
                    if from_root and (root is None or root[: len(folder)] != folder):
                        break  # not at the site's root: below the folder of the call
                    if folder not in best or rank < best[folder][0]:
                        best[folder] = (rank, [index])
                    elif rank == best[folder][0]:  # `Setup.md` and `setup.md`, both in any case
                        best[folder][1].append(index)
                    break
        # One document per folder it may be in: for a relative link, the folders of the pages
        # it may come from; from the root, the call's folder and those above it (which is the
        # site's root the call does not say), so several are named, never one guessed.
        if best:
            return sorted(index for _rank, indices in best.values() for index in indices)
    return []


def _case(part: str) -> str:
    """A path component in lower case, to compare names in any letter case: lower() and not
    casefold(), which also equates names no file system does (`straße.md` with `strasse.md`)."""
    return part.lower()


def may_be_at(link: str, path: str) -> bool:
    """Whether the Markdown file a link names may be the document at `path`, from whatever page
    the link was written in: the two agree on as many of their last components as both have,
    in any letter case (`../b/guide.md` may be `guide.md` or `x/b/guide.md`, never
    `a/guide.md`)."""
    wanted = [_case(part) for part in link_targets(link)[0].split("/")]
    parts = [_case(part) for part in _components(path)]
    common = min(len(wanted), len(parts))
    return common > 0 and wanted[-common:] == parts[-common:]


def site_root(sources: Sequence[Source]) -> tuple[str, ...] | None:
    """The folder holding every document of the call (see root_of)."""
    return root_of([source.path for source in sources])


def root_of(named: Sequence[str]) -> tuple[str, ...] | None:
    """The folder holding every document path of the call (as components), where a link from
    the site's root is read; None when they are not comparable (some absolute, some not)."""
    folders = [parts[:-1] for parts in map(_components, named) if parts]
    if not folders or len({parts[:1] == ("/",) for parts in folders}) > 1:
        return None
    common = folders[0]
    for parts in folders[1:]:
        size = 0
        while size < min(len(common), len(parts)) and common[size] == parts[size]:
            size += 1
        common = common[:size]
    return common


def shown_root(root: tuple[str, ...] | None) -> str:
    """A site root as a path, for messages."""
    if root is None:
        return "(none: the documents were named both by absolute and relative paths)"
    if root[:1] == ("/",):
        return "/" + "/".join(root[1:])
    return "/".join(root) or "."


def _components(path: str) -> tuple[str, ...]:
    """A document's path as components (`/` first when absolute); () for standard input."""
    if path == "-":
        return ()
    normal = os.path.normpath(path).replace(os.sep, "/")
    parts = tuple(part for part in normal.split("/") if part and part != ".")
    return ("/", *parts) if normal.startswith("/") else parts


def _folder_pages(folder: str) -> list[str]:
    prefix = folder + "/" if folder else ""
    return [prefix + page + suffix for page in _FOLDER_PAGES for suffix in MARKDOWN_SUFFIXES]


def _folder_or_page(folder: str) -> list[str]:
    """A link ending in `/`: the folder's index pages, then (MkDocs serves `api.md` at `api/`)
    the page of that name."""
    pages = [folder + suffix for suffix in MARKDOWN_SUFFIXES] if folder else []
    return _folder_pages(folder) + pages


def _page_stem(name: str) -> str:
    """`api` for `api.html` (any letter case), else ""."""
    stem, dot, suffix = name.rpartition(".")
    return stem if dot and stem and "." + suffix.lower() in _PAGE_SUFFIXES else ""
