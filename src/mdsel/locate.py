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
    higher level anywhere inside its container (its innermost list or quote, in a list or
    quote nested in it too: `- ### a` / `- > ## b` ends a), or to the container's end (a
    list's last item's, never link reference definitions after it)."""
    nested = document.nested
    heading = nested[index]
    lines = document.lines
    # Blocks nest by their ranges: a heading starting before the container's end is inside it.
    end = document.blocks.ends[heading.container]
    for later in nested[index + 1 :]:
        if later.start >= end:
            break
        if later.level <= heading.level:
            # From the start of its line: a list marker before it belongs to the next item.
            end = lines.starts[lines.line_of(later.start) - 1]
            break
    # Trailing blank lines dropped, and in a quote those holding only the markers of the
    # quotes around the heading, as for a block in its container: a `>` line of a quote
    # further in is text (as in a section or a list holding that quote).
    quoted, outermost = document.blocks.quoted(heading.container)
    indent = lines.quote_indent(outermost)
    return lines.content_span(heading.start, max(end, heading.end), quoted, indent)
