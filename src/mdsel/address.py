"""`L812`, `L800-850` and `#anchor` in the documents a selector applies to.

They name places in the whole document rather than ordinals in a scope, so they resolve here,
first segment only (the parser sees to that), into (document, kind, index, line) and, when
nothing matched anywhere, the reason.
"""

from __future__ import annotations

from collections.abc import Sequence

from mdsel import anchors
from mdsel.locate import heading_below, nested_lines, section_at
from mdsel.names import document_name
from mdsel.selector import ANCHOR, LINE, Segment
from mdsel.titles import shown_title
from mdsel.tree import Source

ROOT = "root"
HEADING = "heading"
LINES = "lines"
"""Node kind of `L800-850`: index = its first line, line = its last (clamped to the file)."""

Found = tuple[int, str, int, int]
"""(index into the call's sources, node kind, index in the document or first line, line)."""


def locate(segment: Segment, sources: Sequence[Source], docs: Sequence[int]) -> list[Found]:
    """What the segment names in each of the documents `docs` (those where it names nothing
    are skipped)."""
    found: list[Found] = []
    for doc in docs:
        document = sources[doc].document
        if segment.type == ANCHOR:
            target = anchors.find(document, segment.name)
            if target is None:
                continue
            if target.kind == anchors.HEADING:
                found.append((doc, HEADING, target.ref, 0))
            elif target.kind == anchors.NESTED:
                first, last = nested_lines(document, target.ref)
                found.append((doc, LINES, first, last))
            elif target.kind == anchors.TERM:
                found.append((doc, LINES, target.line, target.last))
            else:
                # An HTML anchor: the heading right below it when only tags and blank lines come
                # between (set for that heading), else the innermost section holding it, at the
                # page showing it.
                below = heading_below(document, target.line)
                if below >= 0:
                    found.append((doc, HEADING, below, 0))
                    continue
                index = section_at(document, target.line)
                found.append((doc, ROOT if index < 0 else HEADING, index, target.line))
            continue
        assert segment.items is not None  # the parser gives line segments their numbers
        first, last = segment.items[0]
        if first > document.line_count:
            continue
        if segment.type == LINE:
            index = section_at(document, first)
            found.append((doc, ROOT if index < 0 else HEADING, index, first))
        else:
            found.append((doc, LINES, first, min(last, document.line_count)))
    return found


def miss_reason(segment: Segment, sources: Sequence[Source], docs: Sequence[int]) -> str:
    """Why the segment named nothing in any of the documents `docs`."""
    if segment.type == ANCHOR:
        where = (
            document_name(sources[docs[0]].namespace, sources[docs[0]].path)
            if len(docs) == 1
            else f"any of {len(docs)} documents"
        )
        return f"no heading in {where} has the anchor #{shown_title(segment.name)}"
    assert segment.items is not None
    first, last = segment.items[0]
    what = f"line {first} is" if segment.type == LINE else f"lines {first}-{last} are"
    longest = max(docs, key=lambda doc: sources[doc].document.line_count)
    name = document_name(sources[longest].namespace, sources[longest].path)
    count = sources[longest].document.line_count
    lines = f"{count} line" + ("" if count == 1 else "s")
    if len(docs) == 1:
        return f"{what} past the end: {name} has {lines}"
    return f"{what} past the end of every document: the longest, {name}, has {lines}"
