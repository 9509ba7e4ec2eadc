"""The lines of headings and their sections: where each heading starts and ends, and the last
line of its section, counted no sooner and no more widely than asked for.

An index shows a few hundred headings of a file that may have millions, in order: their first
lines are counted one at a time, from the last one counted (a pass over the bytes at most), or
all at once where headings are sparse (one pass, which the file's line count shares). Past a
thousand headings asked for (or a 64th of them, when that is more), every heading's last lines
are counted at once too, with maps over the columns (in C).
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator, Sequence
from itertools import repeat
from operator import add, sub

from mdsel.nesting import HeadingCounts
from mdsel.source import LineTable

COUNT_ALL_AFTER = 1000
"""Headings' lines counted one at a time before every heading's are counted at once (or a
64th of the headings, when that is more): an index shows a few hundred headings, a select with
full=true ten thousand at most; a JSON index, all of them."""


class HeadingLines:
    """Line numbers (1-based) of the headings starting at `starts` and ending at `ends`, whose
    sections end at `section_ends` and hold the headings up to `lasts`."""

    __slots__ = (
        "_all_at_once", "_asked", "_counts", "_line_ends", "_line_starts", "_near",
        "_section_line_ends", "ends", "lasts", "lines", "section_ends", "starts",
    )  # fmt: skip

    def __init__(
        self,
        lines: LineTable,
        starts: array[int],
        ends: array[int],
        section_ends: Sequence[int],
        lasts: Sequence[int],
        all_at_once: bool,
        counts: HeadingCounts | None = None,
    ) -> None:
        self.lines = lines
        self.starts = starts
        self.ends = ends
        self.section_ends = section_ends
        self.lasts = lasts
        self._all_at_once = all_at_once  # count every heading's first line on first use
        self._counts = HeadingCounts(lines, starts) if counts is None else counts
        self._line_starts: array[int] | None = None  # see line_starts
        self._near = (0, 1)  # (offset, line) of the last first line counted one at a time
        self._asked = 0
        self._line_ends: array[int] | None = None
        self._section_line_ends: array[int] | None = None

    def spans(self, index: int) -> tuple[int, int, int]:
        """Heading `index`'s first line, last line and its section's last line (trailing blank
        lines dropped)."""
        line_ends, section_line_ends = self._line_ends, self._section_line_ends
        if line_ends is None or section_line_ends is None:
            self._asked += 1
            if self._asked > max(COUNT_ALL_AFTER, len(self.starts) >> 6):
                line_ends, section_line_ends = self._count_all()
        if line_ends is None or section_line_ends is None:
            line_end = self.line_end(index)
            return self.line_start(index), line_end, self.section_line_end(index, line_end)
        return self.line_start(index), line_ends[index], section_line_ends[index]

    @property
    def line_starts(self) -> array[int]:
        """line_starts[i] = heading i's first line; one more entry: the line of the file's end
        (where the last top-level section ends). Counted for every heading on first use."""
        if self._line_starts is None:
            self._line_starts = self._counts.first_lines()
        return self._line_starts

    def line_start(self, index: int) -> int:
        """Heading `index`'s first line (`len(starts)`: the file's end's), without counting
        every heading's: counting newlines from the last one asked for costs one pass at most
        over headings asked for in order."""
        known = self._line_starts
        if known is not None or self._all_at_once or not self.lines.lf_endings:
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

    def line_count(self) -> int:
        """Lines of the whole file (a last line without a line ending counts): the line of the
        file's end in the first lines' column when every heading's lines are counted at once
        anyway (one pass over the bytes serves both), else the line table's count."""
        lines = self.lines
        if not (self._all_at_once and lines.lf_endings):
            return lines.count
        data = lines.data
        return self.line_starts[-1] - 1 + (bool(data) and not data.endswith(b"\n"))

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

    def _count_all(self) -> tuple[array[int], array[int]]:
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

    def resident_bytes(self) -> int:
        """What the line columns take once counted (first lines, last lines, sections' last
        lines), whether counted yet or not."""
        return 3 * (self.starts.itemsize * (len(self.starts) + 1) + 64)
