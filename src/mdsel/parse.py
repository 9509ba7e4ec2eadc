"""The only module that imports pyromark: Markdown text → a flat stream of block starts and ends.

Inline events are skipped as cheaply as possible (two dict look-ups each): they are most of the
stream, and the cost of this loop over the parser's own iteration is the engine's overhead.
"""

from __future__ import annotations

from collections.abc import Iterator

import pyromark

# GitHub tables and strikethrough; never the metadata-block options (see source.front_matter_end).
OPTIONS = pyromark.Options.ENABLE_TABLES | pyromark.Options.ENABLE_STRIKETHROUGH

PARA = "para"
CODE = "code"
LIST = "list"
TABLE = "table"
QUOTE = "quote"
HEADING = "heading"

# pulldown-cmark tag name → our block kind; tags not listed (items, HTML blocks, table rows and
# cells, inline tags) create no node.
_KINDS = {
    "Paragraph": PARA,
    "CodeBlock": CODE,
    "List": LIST,
    "Table": TABLE,
    "BlockQuote": QUOTE,
    "Heading": HEADING,
}

START = 0
END = 1

BlockEvent = tuple[int, str, int, int, str]
"""(START or END, kind, byte start, byte end, heading level digit + title on END of a heading)."""


def block_events(text: str) -> Iterator[BlockEvent]:
    """Balanced START/END events for the blocks of `text`, with UTF-8 byte ranges into it.

    A heading's END carries its level and inline text (markup removed, line breaks as spaces)
    as "N" + title.
    """
    kinds = _KINDS
    title: list[str] | None = None
    level = ""
    for event, span in pyromark.events_with_range(text, options=OPTIONS):
        if title is not None:
            # Inside a heading only inline events occur until its End.
            if "Text" in event:
                title.append(event["Text"])  # type: ignore[index]
            elif "Code" in event:
                title.append(event["Code"])  # type: ignore[index]
            elif event == "SoftBreak" or event == "HardBreak":
                title.append(" ")
            elif "End" in event and event["End"].__class__ is dict and "Heading" in event["End"]:  # type: ignore[index]
                yield END, HEADING, span["start"], span["end"], level + "".join(title)
                title = None
            continue
        if "Start" in event:
            tag = event["Start"]  # type: ignore[index]
            kind = kinds.get(tag if tag.__class__ is str else next(iter(tag)))
            if kind is not None:
                if kind is HEADING:
                    level = tag["Heading"]["level"][1]
                    title = []
                yield START, kind, span["start"], span["end"], ""
        elif "End" in event:
            tag = event["End"]  # type: ignore[index]
            kind = kinds.get(tag if tag.__class__ is str else next(iter(tag)))
            if kind is not None:
                yield END, kind, span["start"], span["end"], ""
