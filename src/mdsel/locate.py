"""Lines → what holds them: the section a line number falls in, and the page showing it; and
the lines of a heading inside a list or quote, which is no section.

Grep, compiler messages and editors speak in line numbers; `L812` turns one into the section
to read without an index first.
"""

from __future__ import annotations

from bisect import bisect_left

from mdsel.paginate import Span
from mdsel.tree import Document


def section_at(document: Document, line: int) -> int:
    """Index in document.headings of the innermost section holding `line` (1-based), or -1
    when the line comes before the first heading (it belongs to the root only).

    The last heading starting at or before the line is the innermost: its section runs at
    least to the next heading's start, which is after the line, and any deeper section holding
    the line would have to start after it. Blank lines between sections belong to the one
    before, as do a heading's own setext underline lines.
    """
    # From the columns, by bytes: the headings starting before the line after it (a heading's
    # first line is the one holding its first byte). Heading values would each count lines.
    return bisect_left(document.headings.starts, document.lines.starts[line]) - 1


_TAGS_ONLY = rb"[ \t]*(?:(?:<!--.*?-->|<[A-Za-z/][^<>]*>)[ \t]*)*\r?\n?"
"""A line holding nothing but HTML tags and comments (`<a id="x"></a>`) or nothing at all.
Passed to `re` by its text: compiled on the first HTML anchor looked up."""

MAX_LINES_ABOVE = 8
"""How far above a heading an anchor set for it may stand (blank and tag-only lines between)."""


def heading_below(document: Document, line: int) -> int:
    """Index of the heading that starts right below `line` when `line` and every line between
    hold only HTML tags or nothing: an anchor set on its own line above a heading
    (`<a name="x"></a>`, a blank line, `## Title`) names that heading. Else -1."""
    index = section_at(document, line) + 1
    if index >= len(document.headings):
        return -1
    below = document.headings[index].line_start
    if below - line > MAX_LINES_ABOVE:
        return -1
    import re

    starts, data = document.lines.starts, document.lines.data
    for number in range(line, below):
        if re.fullmatch(_TAGS_ONLY, data[starts[number - 1] : starts[number]], re.DOTALL) is None:
            return -1
    return index


def page_holding(spans: list[Span], line: int) -> int:
    """1-based number of the first page showing `line`. When no page does (a blank line the
    section's trailing blank lines leave out, or a line cut off by head/tail), the last page
    before it, else 1: the text nearest the line."""
    nearest = 1
    for number, span in enumerate(spans, start=1):
        if span.line_start <= line <= span.line_end:
            return number
        if span.line_start <= line:
            nearest = number
    return nearest


def nested_lines(document: Document, index: int) -> tuple[int, int]:
    """The lines of a heading inside a list or quote: to the next heading of the same or a
    higher level inside the same container, or to the container's end."""
    nested = document.nested
    heading = nested[index]
    end = heading.container_end
    for later in nested[index + 1 :]:
        if later.start >= end:
            break
        if later.container_end == heading.container_end and later.level <= heading.level:
            # From the start of its line: a list marker before it belongs to the next item.
            end = document.lines.starts[document.lines.line_of(later.start) - 1]
            break
    # The quote around it, if any, is the first `>` before the heading on its line (only
    # container markup comes before a heading there); it may sit in a list item (`  - > ## x`).
    lines = document.lines
    line_start = lines.starts[lines.line_of(heading.start) - 1]
    indent = lines.quote_indent(document.data.find(b">", line_start, heading.start))
    return lines.content_span(heading.start, max(end, heading.end), quoted=-1, indent=indent)
