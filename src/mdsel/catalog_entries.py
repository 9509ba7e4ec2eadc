"""One document as the map of a tree shows it (see catalog): its line (file, title, lines,
words) and its headings down to an outline depth, at most so many of them.

The title of a document is its front matter's `title:` when it has one, else its first
heading's text; that heading is then not repeated under the file when it holds the whole
document (the usual single `# Title`). A document with neither says so (`(no title)`), so
that its line counts are not read as its title.
"""

from __future__ import annotations

import os

from mdsel.front_matter import front_matter_title
from mdsel.names import heading_selector
from mdsel.titles import short_title, shown_title
from mdsel.tree import Document, Source

INDENT = "  "
MAX_DEPTH = 5
"""Six heading levels: outline depths 0-5."""


class Entry:
    """One document as the map shows it: where it is, its title, the headings under it."""

    __slots__ = ("base", "column", "directory", "document", "name", "path", "skip", "title")

    def __init__(self, source: Source, root: str) -> None:
        self.document = document = source.document
        self.path = source.path
        # Escaped: a file name may hold a line break or ESC, and must not forge a line.
        relative = shown_title(_relative(source.path, root))
        self.directory, _, self.name = relative.rpartition("/")
        title = None
        if document.front_matter_lines:
            title = front_matter_title(
                document.data[: document.lines.starts[document.front_matter_lines]]
            )
        headings = document.headings
        self.skip = -1  # the heading given as the title, not repeated under the file
        self.base = 0  # outline depth shown at the file's indentation
        if title is None:
            title = headings.title(0) if len(headings) else ""
        if len(headings) and headings.lasts[0] == len(headings) - 1:
            # One heading holding the whole document: the page's title, shown on its line.
            self.skip, self.base = 0, 1
        self.column = bytes(headings.depths)
        self.title = short_title(" ".join(title.split()))

    def line(self, indent: str) -> str:
        document = self.document
        title = f"{self.title} " if self.title else "(no title) "
        return f"{indent}{self.name}: {title}{document.line_count} {document.word_count}"

    def outline_lines(self, depth: int, cap: int, indent: str) -> list[str]:
        """The document's headings to outline depth `depth` below the file (0: its top level),
        at most `cap` of them: the shallowest depths that fit whole, or the first `cap` of the
        top level with a line counting the rest. The deepest shown carry what they hide."""
        document = self.document
        headings = document.headings
        column = self.column
        base = self.base
        shown_depth = -1
        total = 0
        for level in range(depth + 1):
            count = column.count(base + level)
            if not count or total + count > cap:
                if count:
                    break
                shown_depth = MAX_DEPTH  # nothing deeper: every heading is shown
                break
            total += count
            shown_depth = level
        lines: list[str] = []
        lasts = headings.lasts
        pad = indent + INDENT
        if shown_depth < 0:
            found = 0
            start = 0
            while found < cap:
                index = column.find(base, start)
                if index < 0:
                    break
                start = index + 1
                if index != self.skip:
                    lines.append(_heading_line(document, index, pad, lasts[index] - index))
                    found += 1
            rest = column.count(base) - found
            if rest > 0:
                lines.append(f"{pad}… +{rest} more")
            return lines
        deepest = base + shown_depth
        for index, value in enumerate(column):
            if base <= value <= deepest and index != self.skip:
                hidden = lasts[index] - index if value == deepest else 0
                lines.append(_heading_line(document, index, pad + INDENT * (value - base), hidden))
        return lines


def _heading_line(document: Document, index: int, pad: str, hidden: int) -> str:
    headings = document.headings
    title = short_title(headings.title(index))
    selector = heading_selector(headings.levels[index], headings.numbers.ordinal(index))
    more = f" +{hidden}" if hidden else ""
    return (
        f"{pad}{selector} {title} {headings.lines.line_start(index)} "
        f"{document.headings.words.section(index)}{more}"
    )


def _relative(path: str, root: str) -> str:
    relative = os.path.relpath(path, root) if root else os.path.normpath(path)
    return relative.replace(os.sep, "/")
