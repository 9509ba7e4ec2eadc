"""Words of sections and of the whole document, from the word mask of the line table.

Where headings are sparse, the words before every heading are counted in one pass over the
bytes, and every section's count (and the document's) is a subtraction: an outline of nested
sections would otherwise count a large file once per nesting depth. Where they are dense,
counting them all would cost more than counting the few sections an index shows, one by one.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence

from mdsel.nesting import HeadingCounts
from mdsel.source import LineTable


class SectionWords:
    """Words of the sections of the headings at `starts`, whose sections end at `section_ends`
    and hold the headings up to `lasts`; `all_at_once`: count the words before every heading
    on first use."""

    __slots__ = ("_all_at_once", "_before", "_counts", "lasts", "lines", "section_ends", "starts")

    def __init__(
        self,
        lines: LineTable,
        starts: array[int],
        section_ends: Sequence[int],
        lasts: Sequence[int],
        all_at_once: bool,
        counts: HeadingCounts | None = None,
    ) -> None:
        self.lines = lines
        self.starts = starts
        self.section_ends = section_ends
        self.lasts = lasts
        self._all_at_once = all_at_once
        self._counts = HeadingCounts(lines, starts) if counts is None else counts
        self._before: array[int] | None = None  # words before each heading, then all words

    def _counted(self) -> array[int] | None:
        before = self._before
        if before is None and self._all_at_once:
            before = self._before = self._counts.words_before()
        return before

    def section(self, index: int) -> int:
        """Words of heading `index`'s section."""
        before = self._counted()
        if before is not None:
            return before[self.lasts[index] + 1] - before[index]
        return self.lines.words_between(self.starts[index], self.section_ends[index])

    def total(self) -> int:
        """Words of the whole document (one pass serves this and every section's count)."""
        before = self._counted()
        if before is not None:
            return before[-1]
        return self.lines.words_between(0, len(self.lines.data))

    def resident_bytes(self) -> int:
        """What the words before each heading take once counted, whether counted yet or not."""
        return self.starts.itemsize * (len(self.starts) + 1) + 64
