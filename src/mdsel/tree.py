"""The document tree: immutable Block/Heading/Document values, built in one pass with a stack.

Only block nodes become objects. Blocks are kept in document (pre)order; a block's descendants
are the contiguous run `blocks[i+1 : last+1]`, so every walk is a slice, never recursion — a
document of 10,000 nested lists costs no Python stack. Sections come from one scan of the
top-level headings with a stack of open headings.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Mapping
from typing import NamedTuple

from mdsel.parse import CODE, END, HEADING, LIST, PARA, QUOTE, START, TABLE, block_events
from mdsel.source import LineTable, decode, front_matter_end, line_table, strip_bom

BLOCK_KINDS = (PARA, CODE, LIST, TABLE, QUOTE)
CONTAINERS = (LIST, QUOTE)


class Block(NamedTuple):
    """A paragraph, code block, list, table or blockquote."""

    kind: str
    """One of BLOCK_KINDS."""
    start: int
    """Byte offset in Document.data where the parser's range starts (half-open with end)."""
    end: int
    line_start: int
    """First line the range touches, 1-based."""
    line_end: int
    """Last line the range touches, trailing blank lines removed; 1-based, inclusive."""
    parent: int
    """Index of the enclosing list or blockquote in Document.blocks; -1 at top level."""
    last: int
    """Index of this block's last descendant in Document.blocks (itself when it has none)."""
    ordinal: int
    """0-based position among the blocks of its kind with the same parent."""


class Heading(NamedTuple):
    """A top-level heading (not inside a list or blockquote) and the section it opens."""

    level: int
    """1–6."""
    title: str
    """Inline text on one line, markup removed."""
    start: int
    """Byte offset where the heading starts."""
    line_start: int
    line_end: int
    """Last line of the heading itself (a setext heading spans two or more)."""
    section_end: int
    """Byte offset where the section ends: the next heading of the same or a higher level."""
    section_line_end: int
    """Last line of the section, trailing blank lines removed."""
    last: int
    """Index in Document.headings of the last heading inside this section (itself if none)."""
    parent: int
    """Index of the enclosing section's heading; -1 at the outline's top."""
    depth: int
    """Nesting depth in the outline: number of enclosing sections."""
    ordinal: int
    """0-based position among the top-level headings of its level."""


class Document(NamedTuple):
    """A parsed Markdown document. Path-independent: same bytes, same Document."""

    data: bytes
    """The file's bytes after a leading BOM."""
    lines: LineTable
    blocks: tuple[Block, ...]
    headings: tuple[Heading, ...]
    top_blocks: Mapping[str, tuple[int, ...]]
    """Kind → indices into blocks of the top-level blocks of that kind, in document order."""
    by_level: tuple[tuple[int, ...], ...]
    """by_level[n] = indices into headings of the level-n headings (n = 1..6; [0] is empty)."""
    front_matter_lines: int
    """Lines taken by YAML/TOML front matter at the start (0 if none)."""

    @property
    def word_count(self) -> int:
        return self.lines.words[-1]

    def line_of(self, offset: int) -> int:
        """1-based line holding byte `offset`."""
        return bisect_right(self.lines.starts, offset)

    def text(self, first: int, last: int) -> bytes:
        """Lines first..last (1-based, inclusive) verbatim, line endings included."""
        if last < first:
            return b""
        starts = self.lines.starts
        return self.data[starts[first - 1] : starts[last]]

    def section_words(self, index: int) -> int:
        heading = self.headings[index]
        return self.lines.words_in(heading.line_start, heading.section_line_end)

    def top_blocks_between(self, kind: str, start: int, end: int) -> list[int]:
        """Indices of the top-level blocks of `kind` starting in bytes [start, end)."""
        indices = self.top_blocks[kind]
        starts = [self.blocks[i].start for i in indices] if len(indices) < 64 else None
        if starts is None:
            lo = _bisect_blocks(self.blocks, indices, start)
            hi = _bisect_blocks(self.blocks, indices, end)
        else:
            lo, hi = bisect_left(starts, start), bisect_left(starts, end)
        return list(indices[lo:hi])

    def child_blocks(self, container: int, kind: str) -> list[int]:
        """Indices of the blocks of `kind` directly inside list or quote `container`'s items."""
        block = self.blocks[container]
        return [
            i
            for i in range(container + 1, block.last + 1)
            if self.blocks[i].parent == container and self.blocks[i].kind == kind
        ]


def _bisect_blocks(blocks: tuple[Block, ...], indices: tuple[int, ...], offset: int) -> int:
    lo, hi = 0, len(indices)
    while lo < hi:
        mid = (lo + hi) // 2
        if blocks[indices[mid]].start < offset:
            lo = mid + 1
        else:
            hi = mid
    return lo


def parse_document(raw: bytes) -> Document:
    """Parse a file's bytes. Raises errors.ParseError for invalid UTF-8 or a NUL byte."""
    data, bom = strip_bom(raw)
    full_text = decode(data, bom)
    fm = front_matter_end(data)
    text = full_text[len(data[:fm].decode("utf-8")) :] if fm else full_text
    lines = line_table(data)
    return _build(data, text, fm, lines)


def _build(data: bytes, text: str, shift: int, lines: LineTable) -> Document:
    starts = lines.starts
    words = lines.words

    # Pass 1 (the event loop): raw block records and top-level headings.
    raw: list[tuple[str, int, int, int]] = []  # kind, start, end, parent
    last: list[int] = []
    counters: dict[tuple[int, str], int] = {}
    ordinals: list[int] = []
    open_containers: list[int] = []
    raw_headings: list[tuple[int, int, int, str]] = []  # level, start, end, title
    heading_open = False
    for phase, kind, start, end, extra in block_events(text):
        if phase == START:
            if kind is HEADING:
                heading_open = not open_containers
                continue
            parent = open_containers[-1] if open_containers else -1
            index = len(raw)
            raw.append((kind, start + shift, max(end, start + 1) + shift, parent))
            last.append(index)
            key = (parent, kind)
            ordinal = counters.get(key, 0)
            counters[key] = ordinal + 1
            ordinals.append(ordinal)
            if kind is LIST or kind is QUOTE:
                open_containers.append(index)
        elif kind is LIST or kind is QUOTE:
            index = open_containers.pop()
            last[index] = len(raw) - 1
        elif kind is HEADING and heading_open and phase == END:
            raw_headings.append((int(extra[0]), start + shift, end + shift, extra[1:]))
            heading_open = False

    # Pass 2: line spans (whole lines touched, trailing blank lines dropped).
    blocks: list[Block] = []
    top: dict[str, list[int]] = {kind: [] for kind in BLOCK_KINDS}
    for index, (kind, start, end, parent) in enumerate(raw):
        first = bisect_right(starts, start)
        final = bisect_right(starts, end - 1)
        while final > first and words[final] == words[final - 1]:
            final -= 1
        blocks.append(Block(kind, start, end, first, final, parent, last[index], ordinals[index]))
        if parent == -1:
            top[kind].append(index)

    headings = _sections(data, lines, raw_headings)
    by_level: list[list[int]] = [[] for _ in range(7)]
    for index, heading in enumerate(headings):
        by_level[heading.level].append(index)

    front_lines = bisect_right(starts, shift - 1) if shift else 0
    return Document(
        data=data,
        lines=lines,
        blocks=tuple(blocks),
        headings=headings,
        top_blocks={kind: tuple(indices) for kind, indices in top.items()},
        by_level=tuple(tuple(level) for level in by_level),
        front_matter_lines=front_lines,
    )


def _sections(
    data: bytes, lines: LineTable, raw: list[tuple[int, int, int, str]]
) -> tuple[Heading, ...]:
    """Section ends, parents and depths from one scan with a stack of open headings."""
    starts, words = lines.starts, lines.words
    count = len(raw)
    section_end = [len(data)] * count
    last = [count - 1] * count
    parent = [-1] * count
    depth = [0] * count
    open_headings: list[int] = []
    for index, (level, start, _end, _title) in enumerate(raw):
        while open_headings and raw[open_headings[-1]][0] >= level:
            closed = open_headings.pop()
            section_end[closed] = start
            last[closed] = index - 1
        if open_headings:
            parent[index] = open_headings[-1]
        depth[index] = len(open_headings)
        open_headings.append(index)

    per_level = [0] * 7
    headings: list[Heading] = []
    for index, (level, start, end, title) in enumerate(raw):
        first = bisect_right(starts, start)
        own_last = max(first, bisect_right(starts, end - 1))
        final = bisect_right(starts, section_end[index] - 1)
        while final > own_last and words[final] == words[final - 1]:
            final -= 1
        headings.append(
            Heading(
                level=level,
                title=title,
                start=start,
                line_start=first,
                line_end=own_last,
                section_end=section_end[index],
                section_line_end=final,
                last=last[index],
                parent=parent[index],
                depth=depth[index],
                ordinal=per_level[level],
            )
        )
        per_level[level] += 1
    return tuple(headings)
