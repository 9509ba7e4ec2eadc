"""Sections of the top-level headings, kept as columns, and Heading values made on demand.

One scan of the headings with a stack of open ones gives each section's end, parent and depth;
first lines come from counting newlines between consecutive headings (in C). Every field is a
column (a few bytes per heading), and a Heading tuple exists only while someone holds it. What
only a shown heading needs (its last line, its section's last line and word count) is counted
when asked, from the bytes: an index prints a few hundred headings of a file that may have a
million, so counting them all up front would be the larger part of its time.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator, Sequence
from itertools import compress, repeat
from itertools import count as count_from
from operator import add, sub

from mdsel._record import NamedTuple
from mdsel.nesting import first_lines, nest, words_before
from mdsel.parse import Scan, offset_typecode
from mdsel.source import LineTable

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import overload


class Heading(NamedTuple):
    """A top-level heading (not inside a list or blockquote) and the section it opens."""

    level: int
    """1–6."""
    title: str
    """Inline text on one line, markup removed."""
    start: int
    """Byte offset where the heading starts."""
    line_start: int
    """1-based."""
    line_end: int
    """Last line of the heading itself (a setext heading spans two or more)."""
    section_end: int
    """Byte offset where the section ends: the next heading of the same or a higher level."""
    section_line_end: int
    """Last line of the section, trailing blank lines removed; 1-based, inclusive."""
    last: int
    """Index in Document.headings of the last heading inside this section (itself if none)."""
    parent: int
    """Index of the enclosing section's heading; -1 at the outline's top."""
    depth: int
    """Nesting depth in the outline: number of enclosing sections."""
    ordinal: int
    """0-based position among the top-level headings of its level."""


_IS_LEVEL = tuple(bytes(int(value == level) for value in range(256)) for level in range(7))
"""bytes.translate tables: a heading level → 1 when it is n, else 0."""

_BYTES_PER_HEADING = 512
"""Below this many bytes per heading on average, words and last lines are counted per shown
heading, not for every heading up front: see build_sections."""

_COUNT_ALL_AFTER = 1000
"""Heading values made one at a time before every heading's line columns are counted at once:
an index shows a few hundred headings; a JSON index or a select of every section, all of them."""


class Headings(Sequence[Heading]):
    """The headings of a document in order, one column per Heading field.

    `headings[i]` builds a Heading; loops over every heading read the columns (`depths`,
    `parents`, `lasts`, `levels`, `ordinals`) instead, which creates nothing.
    """

    COLUMNS = (
        "depths", "ends", "ids", "lasts", "levels", "ordinals", "parents", "section_ends",
        "starts", "texts", "title_ends", "titles",
    )  # fmt: skip
    """The attributes that hold the headings' fields (what a Document keeps for them), besides
    the first lines, which are counted when first needed (see line_start)."""

    __slots__ = (
        *COLUMNS, "_all_at_once", "_last", "_line_ends", "_line_starts", "_made", "_near",
        "_section_line_ends", "_words", "lines",
    )  # fmt: skip

    def __init__(self, scan: Scan, lines: LineTable, columns: dict[str, Sequence[int]]) -> None:
        self.levels = scan.levels
        self.titles = scan.titles
        self.title_ends = scan.title_ends
        self.ids = scan.ids  # heading index → the id of its attribute block
        self.texts = scan.texts  # heading index → its text with the attribute block
        self.starts = scan.heading_starts
        self.ends = scan.heading_ends
        self.lines = lines
        self._line_starts: array[int] | None = None  # see line_starts
        self._near = (0, 1)  # (offset, line) of the last line_start counted one at a time
        self.section_ends = columns["section_ends"]
        self.lasts = columns["lasts"]
        self.parents = columns["parents"]
        self.depths = columns["depths"]
        self.ordinals = columns["ordinals"]
        self._made = 0  # Heading values made so far
        self._line_ends: array[int] | None = None
        self._section_line_ends: array[int] | None = None
        self._last: Heading | None = None  # the last value made: often asked for again at once
        self._words: array[int] | None = None  # see section_words
        self._all_at_once = False  # count every heading's words and lines on first use

    def __len__(self) -> int:
        return len(self.levels)

    if TYPE_CHECKING:

        @overload
        def __getitem__(self, index: int) -> Heading: ...
        @overload
        def __getitem__(self, index: slice) -> list[Heading]: ...

    def __getitem__(self, index: int | slice) -> Heading | list[Heading]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self.levels)))]
        level = self.levels[index]  # IndexError for an index out of range
        if index < 0:
            index += len(self.levels)
        last = self._last
        if last is not None and last.start == self.starts[index]:
            return last
        line_ends, section_line_ends = self._line_ends, self._section_line_ends
        if line_ends is None or section_line_ends is None:
            self._made += 1
            if self._made > _COUNT_ALL_AFTER or self._all_at_once:
                line_ends, section_line_ends = self._count_line_columns()
        if line_ends is None or section_line_ends is None:
            line_end = self.line_end(index)
            section_line_end = self.section_line_end(index, line_end)
        else:
            line_end, section_line_end = line_ends[index], section_line_ends[index]
        fields = (
            level, self.title(index), self.starts[index], self.line_start(index), line_end,
            self.section_ends[index], section_line_end, self.lasts[index], self.parents[index],
            self.depths[index], self.ordinals[index],
        )  # fmt: skip
        # tuple.__new__ builds the NamedTuple in C, skipping its Python-level __new__.
        heading = self._last = tuple.__new__(Heading, fields)
        return heading

    def __iter__(self) -> Iterator[Heading]:
        return (self[i] for i in range(len(self.levels)))

    @property
    def line_starts(self) -> array[int]:
        """line_starts[i] = heading i's first line; one more entry: the line of the file's end
        (where the last top-level section ends). Counted for every heading on first use."""
        if self._line_starts is None:
            self._line_starts = first_lines(self.lines, self.starts)
        return self._line_starts

    def line_start(self, index: int) -> int:
        """Heading `index`'s first line (`len(self)`: the file's end's), without counting every
        heading's: an index shows a few hundred headings of a file that may have millions, in
        order, so counting newlines from the last one asked for costs one pass at most."""
        known = self._line_starts
        if known is not None or not self.lines.lf_endings:
            return self.line_starts[index]
        offset = self.starts[index] if index < len(self.starts) else len(self.lines.data)
        near, line = self._near
        count = self.lines.data.count
        if offset >= near:
            line += count(b"\n", near, offset)
        else:
            line -= count(b"\n", offset, near)
        self._near = (offset, line)
        return line

    def title(self, index: int) -> str:
        ends = self.title_ends
        return self.titles[ends[index - 1] if index else 0 : ends[index]]

    def github_text(self, index: int) -> str:
        """The heading's text as GitHub shows it: an attribute block is text there."""
        text = self.texts.get(index)
        return self.title(index) if text is None else text

    def line_end(self, index: int) -> int:
        """Last line of heading `index` itself (a setext heading spans two or more)."""
        lines, start, end = self.lines, self.starts[index], self.ends[index]
        if lines.lf_endings:
            return self.line_start(index) + lines.data.count(b"\n", start, end - 1)
        return max(self.line_start(index), lines.line_of(end - 1))

    def section_line_end(self, index: int, line_end: int) -> int:
        """Last line of heading `index`'s section, trailing blank lines dropped."""
        lines, start, end = self.lines, self.starts[index], self.section_ends[index]
        content_end = max(start, lines.content_end(start, end))
        if lines.lf_endings:
            # The line where the next section (or the file's end) starts, minus the newlines
            # of the trailing blank run.
            boundary = self.line_start(self.lasts[index] + 1)
            final = boundary - lines.data.count(b"\n", content_end, end)
        else:
            final = lines.line_of(content_end)
        return max(line_end, final)

    def section_words(self, index: int) -> int:
        """Words of heading `index`'s section: from the words before every heading when they
        were counted (see build_sections), else counted in the section's own bytes."""
        words = self._words
        if words is None and self._all_at_once:
            words = self._words = words_before(self.lines, self.starts)
        if words is not None:
            return words[self.lasts[index] + 1] - words[index]
        return self.lines.words_between(self.starts[index], self.section_ends[index])

    def word_count(self) -> int:
        """Words of the whole document."""
        words = self._words
        return words[-1] if words is not None else self.lines.words_between(0, len(self.lines.mask))

    def _count_line_columns(self) -> tuple[array[int], array[int]]:
        """Every heading's last line and section's last line at once, kept from then on: what
        line_end and section_line_end count one heading at a time, as maps over the columns
        (in C) when line numbers can be counted from newlines."""
        code = self.starts.typecode
        lines, starts, section_ends = self.lines, self.starts, self.section_ends
        if not lines.lf_endings:
            line_ends = array(code, map(self.line_end, range(len(starts))))
            finals = array(code, map(self.section_line_end, range(len(starts)), line_ends))
            self._line_ends, self._section_line_ends = line_ends, finals
            return line_ends, finals
        count = lines.data.count
        newlines = repeat(b"\n")
        inside = map(count, newlines, starts, map(sub, self.ends, repeat(1)))
        line_ends = array(code, map(add, self.line_starts, inside))
        if b"\x0b" in lines.data or b"\x0c" in lines.data:  # see LineTable.content_end
            contents: Iterator[int] = map(lines.content_end, starts, section_ends)
        else:
            contents = map(lines.mask.rfind, repeat(b"x"), starts, section_ends)
        trailing = map(count, newlines, map(max, contents, starts), section_ends)
        boundaries = map(self.line_starts.__getitem__, map(add, self.lasts, repeat(1)))
        finals = array(code, map(max, line_ends, map(sub, boundaries, trailing)))
        self._line_ends, self._section_line_ends = line_ends, finals
        return line_ends, finals

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Headings):
            return NotImplemented
        return all(getattr(self, name) == getattr(other, name) for name in self.COLUMNS)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Headings({len(self)})"


def build_sections(
    data: bytes, lines: LineTable, scan: Scan
) -> tuple[Headings, tuple[array[int], ...]]:
    """Headings with their sections, and the indices of the headings of each level (by_level)."""
    code = offset_typecode(len(data) + 1)
    levels, starts = scan.levels, scan.heading_starts
    count = len(levels)
    if count and levels.count(levels[0]) == count:
        # One level only (a flat list of entries: a changelog, a generated reference): every
        # section ends at the next heading, with no parent; no stack to run, columns made in C.
        lasts = array(code, range(count))
        section_ends = starts[1:]
        section_ends.append(len(data))
        parents = array(code, repeat(-1, count))
        depths = bytearray(count)
    else:
        section_ends, lasts, parents, depths = nest(levels, starts, len(data), code)
    # Ordinals: one counter per level, each heading taking the next of its level's; by_level[n]:
    # the indices of the level-n headings. Both in C, no step per heading here.
    counters = [count_from(0) for _ in range(7)]
    ordinals = array(code, map(next, map(counters.__getitem__, levels)))
    by_level = tuple(
        array(code, compress(range(count), levels.translate(_IS_LEVEL[n])) if n in levels else ())
        for n in range(7)
    )
    columns: dict[str, Sequence[int]] = {
        "section_ends": section_ends, "lasts": lasts, "parents": parents, "depths": depths,
        "ordinals": ordinals,
    }  # fmt: skip
    headings = Headings(scan, lines, columns)
    # The words before every heading make every section's count a subtraction: one pass over the
    # bytes serves an outline of nested sections, which would otherwise count a large file once
    # per nesting depth. Where headings are dense, counting them all would cost more than
    # counting the few sections an index shows.
    # The same goes for the line columns.
    # Counted on first use, not here: a tree's index parses a thousand documents and shows the
    # headings of few of them.
    if count * _BYTES_PER_HEADING < len(data):
        headings._all_at_once = True
    return headings, by_level
