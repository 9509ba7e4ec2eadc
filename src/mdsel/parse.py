"""The only module that imports pyromark: Markdown text → block and heading columns with byte
ranges (scan), and the other looks at the parser's events: HTML and plain text (for anchors).

The scan's loop is compiled (mdsel._scan) where the install built it, else scan_events' Python
loop, which gives the same columns.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterator

import pyromark

from mdsel.columns import Scan, offset_typecode, signed_typecode
from mdsel.compiled import COMPILED, native
from mdsel.errors import NodeLimitError
from mdsel.scan_events import CHECK_EVERY, CODES, LEVELS, RareHeadings, scan_events

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

# GitHub tables and strikethrough; never the metadata-block options (see front_matter).
OPTIONS = pyromark.Options.ENABLE_TABLES | pyromark.Options.ENABLE_STRIKETHROUGH


def scan(
    text: str,
    data: bytes,
    shift: int = 0,
    max_nodes: int = 2**62,
    checkpoint: Callable[[], object] | None = None,
) -> Scan:
    """One pass over the events of `text` with a stack of open containers; ranges + shift.

    `data` is the document `text` sits in at `shift` (read for ATX closing sequences).
    NodeLimitError past `max_nodes` blocks and headings. `checkpoint`, when given, is called
    every CHECK_EVERY events; whatever it raises ends the scan (a caller that can be cancelled
    stops a long parse this way).

    Compiled (mdsel._scan) when the install built it, else the same loop in Python.
    """
    if COMPILED:
        return scan_compiled(text, data, shift, max_nodes, checkpoint)
    return scan_python(text, data, shift, max_nodes, checkpoint)


def scan_compiled(
    text: str,
    data: bytes,
    shift: int = 0,
    max_nodes: int = 2**62,
    checkpoint: Callable[[], object] | None = None,
) -> Scan:
    """scan() by mdsel._scan's loop, which calls back here only for the rare headings (inside
    a list or quote, or whose title may end in a closing sequence or attribute block)."""
    code = offset_typecode(len(data) + 1)
    signed = signed_typecode(len(data) + 1)
    rare = RareHeadings(data, shift)

    def limit(offset: int) -> None:
        raise NodeLimitError(max_nodes, offset)

    events = pyromark.events_with_range(text, options=OPTIONS)
    columns = native.scan(
        events, CODES, LEVELS, checkpoint, CHECK_EVERY, max_nodes, rare, limit,
        array, code, _WIDTHS[code], signed, _WIDTHS[signed], shift,
    )  # fmt: skip
    return Scan(*columns, rare.ids, rare.texts, tuple(rare.nested))


_WIDTHS = {typecode: array(typecode).itemsize for typecode in "IQiq"}
"""Bytes an item of each offset column type takes (offset_typecode, signed_typecode)."""


def scan_python(
    text: str,
    data: bytes,
    shift: int = 0,
    max_nodes: int = 2**62,
    checkpoint: Callable[[], object] | None = None,
) -> Scan:
    """scan() by the Python loop (scan_events): where mdsel._scan was not built, and the
    reference the compiled loop is tested against."""
    events = pyromark.events_with_range(text, options=OPTIONS)
    return scan_events(events, data, shift, max_nodes, checkpoint)


def html_chunks(text: str, shift: int = 0) -> Iterator[tuple[int, str]]:
    """(byte offset, HTML) of each HTML block, whole, and each piece of inline HTML."""
    block_start = -1
    pieces: list[str] = []
    events: Iterator[tuple[Any, Any]] = iter(pyromark.events_with_range(text, options=OPTIONS))
    for event, span in events:
        if "InlineHtml" in event:
            yield span["start"] + shift, event["InlineHtml"]
        elif "Html" in event:
            if block_start < 0:
                block_start = span["start"]
            pieces.append(event["Html"])
        elif block_start >= 0 and event == {"End": "HtmlBlock"}:
            yield block_start + shift, "".join(pieces)
            block_start, pieces = -1, []


def text_spans(text: str, shift: int = 0) -> list[tuple[int, int]]:
    """Byte ranges of the document's plain text (not code, not HTML), in order."""
    spans: list[tuple[int, int]] = []
    in_code = False
    events: Iterator[tuple[Any, Any]] = iter(pyromark.events_with_range(text, options=OPTIONS))
    for event, span in events:
        if "Text" in event:
            if not in_code:
                spans.append((span["start"] + shift, span["end"] + shift))
        elif "Start" in event and "CodeBlock" in event["Start"]:
            in_code = True
        elif "End" in event and event["End"] == "CodeBlock":
            in_code = False
    return spans
