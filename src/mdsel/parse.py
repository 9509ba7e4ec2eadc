"""The only module that imports pyromark: Markdown text → flat block records with byte ranges.

This loop is the engine's overhead over the parser's own iteration, so it is kept tight: an
inline or End event costs one dict look-up. Containers are closed by their byte ranges (a
Start event already carries the node's whole range), so End events need no handling at all,
and a heading's inline events are consumed by an inner loop.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import islice

import pyromark

from mdsel._record import NamedTuple

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

# GitHub tables and strikethrough; never the metadata-block options (see source.front_matter_end).
OPTIONS = pyromark.Options.ENABLE_TABLES | pyromark.Options.ENABLE_STRIKETHROUGH

PARA = "para"
CODE = "code"
LIST = "list"
TABLE = "table"
QUOTE = "quote"

# pulldown-cmark tags that become nodes. Items, HTML blocks, rules, table parts and inline tags
# create none.
_KINDS = {"Paragraph": PARA, "CodeBlock": CODE, "Table": TABLE, "List": LIST, "BlockQuote": QUOTE}


class Block(NamedTuple):
    """A paragraph, code block, list, table or blockquote."""

    kind: str
    """para, code, list, table or quote."""
    start: int
    """Byte offset in Document.data where the parser's range starts (half-open with end)."""
    end: int
    parent: int
    """Index of the enclosing list or blockquote in Document.blocks; -1 at top level."""


class RawHeading(NamedTuple):
    level: int
    start: int
    end: int
    title: str


class Scan(NamedTuple):
    blocks: list[Block]
    last: list[int]
    """last[i] = index of block i's last descendant in blocks (i itself when it has none)."""
    headings: list[RawHeading]
    """Top-level headings only (not inside a list or blockquote)."""


CHECK_EVERY = 4096
"""Events between two calls of a scan's checkpoint: about 3 ms of work on this machine."""


def _checked(events: Iterator[Any], checkpoint: Callable[[], object]) -> Iterator[Any]:
    # Chunks, so the cost is one islice per CHECK_EVERY events rather than a test per event.
    while chunk := list(islice(events, CHECK_EVERY)):
        checkpoint()
        yield from chunk


def scan(text: str, shift: int = 0, checkpoint: Callable[[], object] | None = None) -> Scan:
    """One pass over the events of `text` with a stack of open containers; ranges + shift.

    `checkpoint`, when given, is called every CHECK_EVERY events; whatever it raises ends the
    scan (a caller that can be cancelled stops a long parse this way).
    """
    blocks: list[Block] = []
    last: list[int] = []
    headings: list[RawHeading] = []
    open_ends: list[int] = []  # byte end of each open container, innermost last
    open_index: list[int] = []
    kinds = _KINDS
    # tuple.__new__ builds a NamedTuple in C, skipping its Python-level __new__ (4x faster).
    new = tuple.__new__
    events: Iterator[tuple[Any, Any]] = iter(pyromark.events_with_range(text, options=OPTIONS))
    if checkpoint is not None:
        events = _checked(events, checkpoint)
    for event, span in events:
        if "Start" not in event:
            continue
        tag = event["Start"]
        if tag.__class__ is str:
            kind = kinds.get(tag)
            if kind is None:
                continue
        else:
            name = next(iter(tag))
            kind = kinds.get(name)
            if kind is None:
                if name != "Heading":
                    continue
                start = span["start"]
                while open_ends and open_ends[-1] <= start:
                    open_ends.pop()
                    last[open_index.pop()] = len(blocks) - 1
                if not open_ends:
                    level = int(tag["Heading"]["level"][1])
                    title = _heading_title(events)
                    end = span["end"]
                    headings.append(new(RawHeading, (level, start + shift, end + shift, title)))
                continue
        start = span["start"]
        end = span["end"]
        if open_ends:
            while open_ends and open_ends[-1] <= start:
                open_ends.pop()
                last[open_index.pop()] = len(blocks) - 1
            parent = open_index[-1] if open_index else -1
        else:
            parent = -1
        index = len(blocks)
        if end <= start:
            end = start + 1
        blocks.append(new(Block, (kind, start + shift, end + shift, parent)))
        last.append(index)
        if kind is LIST or kind is QUOTE:
            open_ends.append(end)
            open_index.append(index)
    while open_ends:
        open_ends.pop()
        last[open_index.pop()] = len(blocks) - 1
    return Scan(blocks, last, headings)


def _heading_title(events: Iterator[tuple[Any, Any]]) -> str:
    """Consume a heading's inline events up to its End; their text on one line."""
    parts: list[str] = []
    for event, _span in events:
        if "Text" in event:
            parts.append(event["Text"])
        elif "Code" in event:
            parts.append(event["Code"])
        elif event == "SoftBreak" or event == "HardBreak":
            parts.append(" ")
        elif "End" in event and event["End"].__class__ is dict and "Heading" in event["End"]:
            break
    return "".join(parts)
