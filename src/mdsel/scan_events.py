"""The scan's loop over the parser's events, in Python: blocks and top-level headings into
columns (columns.Scan), one event at a time, with a stack of open containers.

The rare headings (inside a list or quote, or with a closing sequence or attribute block) are
RareHeadings'. The parser's events come from parse, the only module that imports pyromark.

This loop is the engine's overhead over the parser's own iteration, so it is kept tight: an
inline or End event costs one dict look-up. Containers are closed by their byte ranges (a
Start event already carries the node's whole range), so End events need no handling at all,
and a heading's inline events are consumed by an inner loop.

Nothing here creates an object per block: every field goes into a column (`array`, `bytearray`,
one string for all titles), a few bytes per block, so a document of millions of blocks costs a
fraction of what the parser's own event list does.
"""

from __future__ import annotations

import sys
from array import array
from collections.abc import Callable, Iterable, Iterator
from itertools import accumulate, chain, islice, repeat
from operator import add

from mdsel.columns import (
    KINDS,
    LIST,
    QUOTE,
    NestedHeading,
    Scan,
    offset_typecode,
    signed_typecode,
)
from mdsel.errors import NodeLimitError
from mdsel.heading_text import heading_text

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_LIST_CODE = KINDS.index(LIST)
_QUOTE_CODE = KINDS.index(QUOTE)

CODES = {"Paragraph": 0, "CodeBlock": 1, "List": 2, "Table": 3, "BlockQuote": 4}
"""pulldown-cmark tags that become blocks → kind codes (columns.KINDS). Items, HTML blocks,
rules, table parts and inline tags make none."""
_ITEM = sys.intern("Item")
_CELL = "TableCell"
LEVELS = {"H1": 1, "H2": 2, "H3": 3, "H4": 4, "H5": 5, "H6": 6}
"""pulldown-cmark heading levels → 1-6."""


CHECK_EVERY = 4096
"""Events between two calls of a scan's checkpoint: about 3 ms of work on this machine."""


def _checked(events: Iterator[Any], checkpoint: Callable[[], object]) -> Iterator[Any]:
    """`events` with `checkpoint()` called before each run of CHECK_EVERY of them."""
    return chain.from_iterable(_runs(events, checkpoint))


def _runs(events: Iterator[Any], checkpoint: Callable[[], object]) -> Iterator[Iterable[Any]]:
    # Lazy runs chained in C: Python code once per run, not per event, and no run held in a
    # list. The parser makes its events as they are asked for; holding thousands at once would
    # let them reach the collector's oldest generation, and its full collections of the whole
    # heap (the SDK's objects included, in the server) would cost more than the parse itself.
    for first in events:
        checkpoint()
        yield (first,)
        yield islice(events, CHECK_EVERY - 1)


class RareHeadings:
    """The scan's branch for the rare headings: inside a list or quote (kept as a nested
    heading, a link target but not a section), or whose title may end in an ATX closing
    sequence or an attribute block (heading_text decides; an explicit id and text are kept)."""

    def __init__(self, data: bytes, shift: int) -> None:
        self.data = data
        self.shift = shift
        self.ids: dict[int, str] = {}
        self.texts: dict[int, str] = {}
        self.nested: list[NestedHeading] = []

    def __call__(
        self,
        level: int,
        start: int,
        end: int,
        container: int,
        title: str,
        index: int,
        github: str | None = None,
    ) -> str | None:
        """The title to show for heading number `index` (offsets unshifted; `container`: the
        block index of its innermost list or quote, -1 outside them), or None for a nested
        heading.
        `github`: the heading's text as GitHub shows it, where that is not `title`."""
        shift = self.shift
        raw = self.data[start + shift : end + shift]
        text, explicit = heading_text(title, raw)
        shown, ident = (text, None) if explicit is None else explicit
        if github is not None:
            text = heading_text(github, raw)[0]
        if container >= 0:
            title = shown.strip(" \t")  # as Headings.title: not the spaces by inline HTML
            self.nested.append(
                NestedHeading(level, start + shift, end + shift, container, title, text, ident)
            )
            return None
        if explicit is not None or github is not None:
            self.texts[index] = text
            if ident is not None:
                self.ids[index] = ident
        return shown


def scan_events(
    events: Iterable[tuple[Any, Any]],
    data: bytes,
    shift: int = 0,
    max_nodes: int = 2**62,
    checkpoint: Callable[[], object] | None = None,
) -> Scan:
    """parse.scan's columns from the parser's `events` (with ranges).

    Longer than our functions usually are, on purpose: this loop runs once per parser event
    (tens of millions in some files), and a function call per event or per block would cost
    about as much as the parser's own iteration.
    """
    code = offset_typecode(len(data) + 1)
    kinds = bytearray()
    starts, ends, last = array(code), array(code), array(code)
    parents = array(signed_typecode(len(data) + 1))
    top = tuple(array(code) for _ in KINDS)
    levels = bytearray()
    heading_starts, heading_ends = array(code), array(code)
    inline_starts = array(code)
    # Held until the end, then joined: an append per title, where a write and its length cost
    # three calls. The strings are the parser's own, which the loop would otherwise free.
    titles: list[str] = []
    rare = RareHeadings(data, shift)
    open_ends: list[int] = []  # byte end of each open container, innermost last
    item_ends: dict[int, int] = {}  # list index → the end of its last item so far
    start_of = starts.__getitem__
    open_index: list[int] = []
    codes = CODES
    levels_of = LEVELS
    # Bound once: a method look-up per append is a measurable share of this loop. Offsets are
    # stored unshifted and shifted after the loop (in C), for the same reason.
    add_kind, add_start, add_end, add_parent, add_last = (
        kinds.append,
        starts.append,
        ends.append,
        parents.append,
        last.append,
    )
    add_level, add_heading_start, add_heading_end = (
        levels.append,
        heading_starts.append,
        heading_ends.append,
    )
    add_title = titles.append
    add_inline = inline_starts.append
    # Blocks allowed before the limit: a block passes it when len(kinds) >= room, and each
    # heading takes one away (no counter to add to per node).
    room = max_nodes
    events = iter(events)
    if checkpoint is not None:
        events = _checked(events, checkpoint)
    for event, span in events:
        if "Start" not in event:
            continue
        tag = event["Start"]
        # List items and links are the commonest Start events that make no node. The parser's
        # tag strings are interned, so an item is `is` _ITEM (the second test, for a parser that
        # did not intern them, is reached by the other string tags only).
        if tag is _ITEM or (tag.__class__ is str and tag == _ITEM):
            # A list's range can run on over link reference definitions after its last item
            # (pulldown-cmark ends it where the last one starts); its items' ranges do not, so
            # the list is cut at its last item's end below. The item's list is the innermost
            # open container once those that ended before the item are closed.
            start = span["start"]
            add_inline(start)
            while open_ends and open_ends[-1] <= start:
                open_ends.pop()
                last[open_index.pop()] = len(kinds) - 1
            if open_index:
                item_ends[open_index[-1]] = span["end"]
            continue
        if tag.__class__ is str:
            kind = codes.get(tag)
            if kind is None:
                if tag == _CELL:
                    add_inline(span["start"])
                continue
        elif "Heading" in tag:
            start = span["start"]
            while open_ends and open_ends[-1] <= start:
                open_ends.pop()
                last[open_index.pop()] = len(kinds) - 1
            if len(kinds) >= room:
                raise NodeLimitError(max_nodes, start + shift)
            room -= 1
            end = span["end"]
            # The inline events up to the heading's End (the only End holding a dict
            # there), inlined: this runs once per heading, a million times in some files.
            # GitHub's text, where it differs (github not None): no image's alt text, and a
            # newline for a line break.
            # A title of one piece (most are) is that piece; from the second on, pieces are
            # gathered in a list and joined once: `+=` on a string is linear only while
            # realloc can grow it in place, and a fragmented heap (a long-running server)
            # makes it copy, quadratic in the pieces of one heading (a setext heading can
            # hold a million).
            title = ""
            pieces: list[str] | None = None
            github = None
            in_image = 0
            for inline, _span in events:
                if "Text" in inline:
                    piece = inline["Text"]
                elif "End" in inline:
                    if inline["End"].__class__ is dict:
                        break
                    if in_image and inline["End"] == "Image":
                        in_image -= 1
                    continue
                elif "Start" in inline:
                    if inline["Start"].__class__ is dict and "Image" in inline["Start"]:
                        in_image += 1
                    continue
                elif "Code" in inline:
                    piece = inline["Code"]
                elif inline == "SoftBreak" or inline == "HardBreak":
                    if github is None:
                        github = [title] if pieces is None else pieces.copy()
                    github.append("\n")
                    piece = " "
                    if pieces is None:
                        pieces = [title, piece]
                    else:
                        pieces.append(piece)
                    continue
                else:
                    continue
                if in_image:
                    if github is None:
                        github = [title] if pieces is None else pieces.copy()
                elif github is not None:
                    github.append(piece)
                if pieces is not None:
                    pieces.append(piece)
                elif title:
                    pieces = [title, piece]
                else:
                    title = piece
            if pieces is not None:
                title = "".join(pieces)
            level = levels_of[tag["Heading"]["level"]]
            if open_ends or (title and title[-1] in "#\t }") or github is not None:
                # Rare: inside a list or quote, ending in a closing sequence pulldown-cmark
                # kept or in an attribute block, or shown otherwise on GitHub; one test keeps
                # them off the usual path.
                container = open_index[-1] if open_index else -1
                shown = rare(
                    level, start, end, container, title, len(levels),
                    None if github is None else "".join(github),
                )  # fmt: skip
                if shown is None:
                    continue
                title = shown
            add_level(level)
            add_heading_start(start)
            add_heading_end(end)
            add_title(title)
            continue
        elif "Link" in tag:
            continue
        else:
            kind = codes.get(next(iter(tag)))
            if kind is None:
                continue
        start = span["start"]
        end = span["end"]
        index = len(kinds)
        if index >= room:
            raise NodeLimitError(max_nodes, start + shift)
        if end <= start:
            end = start + 1
        if open_ends:
            while open_ends and open_ends[-1] <= start:
                open_ends.pop()
                last[open_index.pop()] = index - 1
            if open_index:
                add_parent(open_index[-1])
            else:
                add_parent(-1)
                top[kind].append(index)
        else:
            add_parent(-1)
            top[kind].append(index)
        add_kind(kind)
        add_start(start)
        add_end(end)
        add_last(index)
        if kind == _LIST_CODE or kind == _QUOTE_CODE:  # noqa: SIM109 (no tuple per block)
            open_ends.append(end)
            open_index.append(index)
    while open_ends:
        open_ends.pop()
        last[open_index.pop()] = len(kinds) - 1
    for index, item_end in item_ends.items():
        if kinds[index] == _LIST_CODE and start_of(index) < item_end < ends[index]:
            ends[index] = item_end
    if shift:
        for column in (starts, ends, heading_starts, heading_ends, inline_starts):
            column[:] = array(code, map(add, column, repeat(shift)))
    return Scan(
        kinds, starts, ends, parents, last, top,
        levels, heading_starts, heading_ends, "".join(titles),
        array(code, accumulate(map(len, titles))), rare.ids, rare.texts, tuple(rare.nested),
        inline_starts,
    )  # fmt: skip
