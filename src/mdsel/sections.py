"""The top-level headings as a sequence of Heading values, made on demand from columns.

One scan of the headings with a stack of open ones gives each section's end, parent and depth
(nesting.nest). Every field is a column (a few bytes per heading), and a Heading tuple exists
only while someone holds it. What only a shown heading needs is worked out when asked, each by
its own part: its lines (heading_lines), its section's words (section_words) and its number
(numbering). An index prints a few hundred headings of a file that may have a million, so
working them all out up front would be the larger part of its time.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator, Sequence
from itertools import chain

from mdsel._record import NamedTuple
from mdsel.columns import Scan, offset_typecode, signed_typecode
from mdsel.heading_lines import HeadingLines
from mdsel.nesting import HeadingCounts, nest
from mdsel.numbering import Numbering
from mdsel.section_words import SectionWords
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


_BYTES_PER_HEADING = 512
"""Below this many bytes per heading on average, words and lines are counted per shown
heading, not for every heading at once: see build_sections."""


class Headings(Sequence[Heading]):
    """The headings of a document in order, one column per Heading field.

    `headings[i]` builds a Heading; loops over every heading read the columns (`depths`,
    `parents`, `lasts`, `levels`) instead, which creates nothing. Lines, words and numbers
    come from `lines`, `words` and `numbers`, each counted when first needed.
    """

    COLUMNS = (
        "depths", "ends", "ids", "lasts", "levels", "parents", "section_ends", "starts",
        "texts", "title_ends", "titles",
    )  # fmt: skip
    """The attributes that hold the headings' own fields (what a Document keeps for them),
    besides what `lines`, `words` and `numbers` count when first needed."""

    __slots__ = (*COLUMNS, "_last", "lines", "numbers", "words")

    def __init__(
        self,
        scan: Scan,
        sections: tuple[Sequence[int], Sequence[int], Sequence[int], bytearray],
        lines: HeadingLines,
        words: SectionWords,
        numbers: Numbering,
    ) -> None:
        self.levels = scan.levels
        self.titles = scan.titles
        self.title_ends = scan.title_ends
        self.ids = scan.ids  # heading index → the id of its attribute block
        self.texts = scan.texts  # heading index → its GitHub text, where not its title
        self.starts = scan.heading_starts
        self.ends = scan.heading_ends
        self.section_ends, self.lasts, self.parents, self.depths = sections
        self.lines = lines
        self.words = words
        self.numbers = numbers
        self._last: Heading | None = None  # the last value made: often asked for again at once

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
        line_start, line_end, section_line_end = self.lines.spans(index)
        fields = (
            level, self.title(index), self.starts[index], line_start, line_end,
            self.section_ends[index], section_line_end, self.lasts[index], self.parents[index],
            self.depths[index], self.numbers.ordinal(index),
        )  # fmt: skip
        # tuple.__new__ builds the NamedTuple in C, skipping its Python-level __new__.
        heading = self._last = tuple.__new__(Heading, fields)
        return heading

    def __iter__(self) -> Iterator[Heading]:
        return (self[i] for i in range(len(self.levels)))

    def title(self, index: int) -> str:
        """Heading `index`'s title. Spaces at its ends are dropped: the parser keeps those
        between inline HTML and the text (`## <a name="x"></a> Usage`), which no reader sees
        (its GitHub anchor, from github_text, keeps them)."""
        return self._inline_text(index).strip(" \t")

    def github_text(self, index: int) -> str:
        """The heading's text as GitHub shows it, from which its anchor is made: an attribute
        block is text there, and so are the spaces beside inline HTML (`## Setup <!-- x -->`
        is `setup-`); an image's alt text is not (the scan keeps those that differ)."""
        text = self.texts.get(index)
        return self._inline_text(index) if text is None else text

    def all_texts(self, shown: bool) -> list[str]:
        """Every heading's title (`shown`) or GitHub text, in order: what a look-up of an
        anchor slugs, made in one pass over the column rather than a call per heading."""
        titles, ends = self.titles, self.title_ends
        texts = [titles[start:end] for start, end in zip(chain((0,), ends), ends, strict=False)]
        if shown:
            return [text.strip(" \t") for text in texts]
        for index, text in self.texts.items():
            texts[index] = text
        return texts

    def _inline_text(self, index: int) -> str:
        """Heading `index`'s inline text as the scan kept it."""
        ends = self.title_ends
        return self.titles[ends[index - 1] if index else 0 : ends[index]]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Headings):
            return NotImplemented
        return all(getattr(self, name) == getattr(other, name) for name in self.COLUMNS)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Headings({len(self)})"


def build_sections(data: bytes, lines: LineTable, scan: Scan) -> Headings:
    """The headings of `scan` with their sections."""
    code = offset_typecode(len(data) + 1)
    levels, starts = scan.levels, scan.heading_starts
    count = len(levels)
    if count and levels.count(levels[0]) == count:
        # One level only (a flat list of entries: a changelog, a generated reference): every
        # section ends at the next heading, with no parent; no stack to run, columns made in C.
        lasts = array(code, range(count))
        section_ends = starts[1:]
        section_ends.append(len(data))
        parents = array(signed_typecode(len(data) + 1), [-1]) * count  # repeated in C
        depths = bytearray(count)
    else:
        section_ends, lasts, parents, depths = nest(levels, starts, len(data), code)
    # Where headings are sparse, the words before every heading and every heading's first line
    # are counted at once, in the passes over the bytes that the document's word and line
    # counts make anyway (parse_document asks for both); where they are dense, counting them
    # all would cost more than counting the few sections an index shows.
    sparse = count * _BYTES_PER_HEADING < len(data)
    counts = HeadingCounts(lines, starts)  # first lines and words before, shared by both
    return Headings(
        scan,
        (section_ends, lasts, parents, depths),
        HeadingLines(lines, starts, scan.heading_ends, section_ends, lasts, sparse, counts),
        SectionWords(lines, starts, section_ends, lasts, sparse, counts),
        Numbering(levels, code),
    )
