"""The only module that imports pyromark: Markdown text → block and heading columns with byte
ranges (scan), and the other looks at the parser's events: HTML and plain text (for anchors).

The scan's loop over those events is scan_events'.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pyromark

from mdsel.columns import Scan
from mdsel.scan_events import scan_events

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
    stops a long parse this way). The loop itself is scan_events'.
    """
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


_LEAD = "x "
"""Put before each line read as inline text: no line then opens a block (`2) x`, `# x`), and
the space lets emphasis open at the line's start (`_x_`)."""


def inline_texts(lines: list[str]) -> list[str]:
    """The plain text of each line read as inline Markdown (text and code spans, entities
    decoded; markup, HTML and link targets dropped): `` [`publishDir`](/x) `` is `publishDir`.
    One parse for all the lines, each its own paragraph."""
    if not lines:
        return []
    source = "\n\n".join(_LEAD + line.strip() for line in lines)
    texts: list[str] = []
    pieces: list[str] = []
    events: Iterator[Any] = iter(pyromark.events(source, options=OPTIONS))
    for event in events:
        if event == {"End": "Paragraph"}:
            texts.append("".join(pieces)[len(_LEAD) :])
            pieces = []
        elif isinstance(event, dict):
            piece = event.get("Text", event.get("Code"))
            if isinstance(piece, str):
                pieces.append(piece)
    return texts
