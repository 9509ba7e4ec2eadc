"""Heading numbers: `h2.5` is the sixth h2 of the document. Each heading's ordinal among the
headings of its level, and the headings of each level in order, counted when first needed.

An index shows a few hundred headings of a file that may have millions, so their numbers are
counted from the level column one at a time (in C, from the last one counted) until many are
asked for; then, and for any select by number, every heading's at once.
"""

from __future__ import annotations

from array import array
from itertools import compress
from itertools import count as count_from

_IS_LEVEL = tuple(bytes(level) + b"\x01" + bytes(255 - level) for level in range(7))
"""bytes.translate tables: a heading level → 1 when it is n, else 0."""

COUNT_ALL_AFTER = 1000
"""Ordinals counted one at a time before every heading's is counted at once."""


class Numbering:
    """The numbers of the headings whose levels are `levels` (one byte per heading, 1–6)."""

    __slots__ = ("_asked", "_by_level", "_near", "_ordinals", "code", "levels")

    def __init__(self, levels: bytearray, code: str) -> None:
        self.levels = levels
        self.code = code
        """The array type of the columns made here."""
        self._ordinals: array[int] | None = None
        self._by_level: tuple[array[int], ...] | None = None
        self._near = [(0, 0)] * 7  # per level: (heading index, ordinal there) last counted
        self._asked = 0

    def ordinal(self, index: int) -> int:
        """0-based position of heading `index` among the headings of its level."""
        known = self._ordinals
        if known is not None:
            return known[index]
        self._asked += 1
        if self._asked > COUNT_ALL_AFTER:
            return self.ordinals[index]
        levels = self.levels
        level = levels[index]  # IndexError out of range, as a column gives
        if index < 0:
            index += len(levels)
        near, ordinal = self._near[level]
        if index >= near:
            ordinal += levels.count(level, near, index)
        else:
            ordinal -= levels.count(level, index, near)
        self._near[level] = (index, ordinal)
        return ordinal

    @property
    def ordinals(self) -> array[int]:
        """ordinals[i] = ordinal(i), for every heading: one counter per level, each heading
        taking the next of its level's, in C."""
        if self._ordinals is None:
            counters = [count_from(0) for _ in range(7)]
            self._ordinals = array(self.code, map(next, map(counters.__getitem__, self.levels)))
        return self._ordinals

    @property
    def by_level(self) -> tuple[array[int], ...]:
        """by_level[n] = the indices of the level-n headings, in order (n = 1..6; [0] empty):
        by_level[n][k] is the heading numbered hn.k."""
        if self._by_level is None:
            levels, code = self.levels, self.code
            self._by_level = tuple(
                array(code, compress(range(len(levels)), levels.translate(_IS_LEVEL[n])))
                if n in levels
                else array(code)
                for n in range(7)
            )
        return self._by_level

    def resident_bytes(self) -> int:
        """What the ordinals and the per-level lists take once built (built or not yet)."""
        return 2 * array(self.code).itemsize * len(self.levels) + 8 * 64
