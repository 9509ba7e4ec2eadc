"""Heading columns worked out from the level and start columns: the nesting of sections (one
scan with a stack of open sections), each heading's first line, and the words before each.

Kept apart from the Headings sequence that serves them: these run once per document, over every
heading, so each is a single loop or a few maps in C (the standard library's, over the bytes).
"""

from __future__ import annotations

from array import array
from itertools import accumulate, repeat
from operator import add

from mdsel.source import LineTable


def nest(
    levels: bytearray, starts: array[int], size: int, code: str
) -> tuple[array[int], array[int], array[int], bytearray]:
    """Section ends, last headings inside, parents (-1 at the top) and depths, from one scan of
    the headings with a stack of open sections. `code`: the array type for offsets."""
    count = len(levels)
    section_ends = array(code, [size]) * count  # repeated in C
    lasts = array(code, [max(count - 1, 0)]) * count  # (empty when there are none)
    # Parents are appended unsigned, -1 as its two's complement, and read back as signed at the
    # end: an append to a signed array goes through PyArg_Parse, several times the cost.
    parents = array(code.upper())
    no_parent = (1 << 8 * parents.itemsize) - 1
    depths = bytearray()
    # Sentinels (no heading, level 0) at the bottom: the loop never tests for an empty stack.
    open_headings = [no_parent]  # the stack of open sections, innermost last
    open_levels = [0]
    innermost = 0  # level of the innermost open section; 0 when none is open
    depth = -1  # of the previous heading
    previous = no_parent  # the previous heading: the innermost open section, unless closed
    pop_heading, pop_level = open_headings.pop, open_levels.pop
    push_heading, push_level = open_headings.append, open_levels.append
    add_parent, add_depth = parents.append, depths.append
    for index, level in enumerate(levels):
        if level > innermost:
            # Inside the previous heading's section: it is the parent, one level deeper; this
            # way reads no stack.
            add_parent(previous)
            depth += 1
        else:
            start = starts[index]
            closing = index - 1
            while open_levels[-1] >= level:
                pop_level()
                closed = pop_heading()
                section_ends[closed] = start
                lasts[closed] = closing
            add_parent(open_headings[-1])
            depth = len(open_headings) - 1
        add_depth(depth)
        push_heading(index)
        push_level(level)
        innermost = level
        previous = index
    signed = array(code.lower())  # the signed type of the same size
    signed.frombytes(memoryview(parents).cast("B"))
    return section_ends, lasts, signed, depths


class HeadingCounts:
    """Each heading's first line and the words before it, for the headings starting at
    `starts`: counted on first use and kept (the heading lines and the section words each ask
    for their half)."""

    __slots__ = ("_first_lines", "_words_before", "lines", "starts")

    def __init__(self, lines: LineTable, starts: array[int]) -> None:
        self.lines = lines
        self.starts = starts
        self._first_lines: array[int] | None = None
        self._words_before: array[int] | None = None

    def first_lines(self) -> array[int]:
        """first_lines(lines, starts)."""
        counted = self._first_lines
        if counted is None:
            counted = self._first_lines = first_lines(self.lines, self.starts)
        return counted

    def words_before(self) -> array[int]:
        """words_before(lines, starts)."""
        counted = self._words_before
        if counted is None:
            counted = self._words_before = words_before(self.lines, self.starts)
        return counted


def first_lines(lines: LineTable, starts: array[int]) -> array[int]:
    """The first line of each heading, then the line of the file's end.

    With LF or CRLF endings only, a line number is one plus the newlines before: counted between
    consecutive headings in C (a map over the column, no Python loop). A lone CR needs the
    line table.
    """
    code = starts.typecode
    data = lines.data
    if not lines.lf_endings:
        result = array(code, map(lines.line_of, starts))
        result.append(lines.line_of(len(data)))
        return result
    bounds = array(code, [0])
    bounds.extend(starts)
    bounds.append(len(data))
    return array(
        code, accumulate(map(data.count, repeat(b"\n"), bounds[:-1], bounds[1:]), initial=1)
    )[1:]


def words_before(lines: LineTable, starts: array[int]) -> array[int]:
    """words[k] = words before heading k's start; words[-1] = all words.

    Counted between consecutive headings, in C (maps over the columns): a span's words are its
    b" x" pairs plus one if it opens on a word (LineTable.words_between), which adds up because
    headings start at line starts.
    """
    bounds = array(starts.typecode, [0])
    bounds.extend(starts)
    bounds.append(len(lines.data))
    mask = lines.mask
    firsts, nexts = bounds[:-1], bounds[1:]
    pairs = map(mask.count, repeat(b" x"), firsts, nexts)
    opens = map(mask.startswith, repeat(b"x"), firsts, nexts)  # False for an empty span
    return array(starts.typecode, accumulate(map(add, pairs, opens)))
