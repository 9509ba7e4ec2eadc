"""Selector values (what a parsed request is) and their short written forms.

`mdsel.selector` parses strings into these and re-exports them; resolution, suggestions and
rendering only need the values and the formatting.
"""

from __future__ import annotations

from mdsel._record import NamedTuple

LINE = "line"
"""`L812`: the innermost section (or root) holding the line; items hold the line."""
LINES = "lines"
"""`L800-850`: exactly those lines; items hold the range."""
ANCHOR = "anchor"
"""`#installation`: the section whose heading has that anchor; Segment.name holds it."""


class Item(NamedTuple):
    """One index item: ordinals first..last, 0-based and inclusive (first == last for `N`)."""

    first: int
    last: int


class Segment(NamedTuple):
    type: str
    """Canonical short type: root, section, h1…h6, para, code, list, table, quote; or LINE,
    LINES, ANCHOR for `L812`, `L800-850`, `#anchor`."""
    items: tuple[Item, ...] | None
    """None means every match of the type in the scope."""
    name: str = ""
    """The anchor of an ANCHOR segment, lowercased and percent-decoded; empty otherwise."""


class Params(NamedTuple):
    head: int | None = None
    tail: int | None = None
    page: int | None = None
    full: bool = False
    toc: bool = False
    q: str | None = None
    """`?q=WORDS`: the words to search for (decoded: `+` and `%20` are spaces); None when the
    selector is no search."""


class Selector(NamedTuple):
    namespace: str | None
    """Lowercased namespace, or None for every document."""
    segments: tuple[Segment, ...]
    """Empty only for a search of whole documents (`?q=…`, `readme::?q=…`)."""
    params: Params
    source: str
    """The selector as written (trimmed), for messages."""
    link: str = ""
    """The file path of a link as written (`docs/api.md` of `docs/api.md#setup`), `/`-separated;
    empty when the selector is not a link. It names the document by its path, not only its
    namespace: a tree has an `index.md` in every directory."""
    file: str = ""
    """The file of `docs/a.md:23`, a line as `grep -n` prints it (the first segment is then
    that line, `L23`), as written; empty otherwise. It names the document at that path."""


def format_items(items: tuple[Item, ...]) -> str:
    return ",".join(str(i.first) if i.first == i.last else f"{i.first}-{i.last}" for i in items)


def format_segments(segments: tuple[Segment, ...]) -> str:
    """Short form of a path: `h2.1/code.0`, `section/list.0-2`, `L812/code.0`, `#setup`."""
    return "/".join(_format_segment(s) for s in segments)


def _format_segment(segment: Segment) -> str:
    if segment.type == ANCHOR:
        return f"#{segment.name}"
    if segment.type in (LINE, LINES) and segment.items:
        item = segment.items[0]
        return f"L{item.first}" if segment.type == LINE else f"L{item.first}-{item.last}"
    if segment.items is None:
        return segment.type
    return f"{segment.type}.{format_items(segment.items)}"


def format_params(params: Params) -> str:
    parts = []
    if params.head is not None:
        parts.append(f"head={params.head}")
    if params.tail is not None:
        parts.append(f"tail={params.tail}")
    if params.page is not None:
        parts.append(f"page={params.page}")
    if params.full:
        parts.append("full=true")
    if params.toc:
        parts.append("toc=true")
    if params.q is not None:
        parts.append(f"q={params.q}")
    return "?" + "&".join(parts) if parts else ""
