"""The document tree: Document, and its blocks and headings as immutable values.

Blocks and headings are kept as columns (a few bytes each, see parse.Scan), and a Block or
Heading value is made when someone asks for one: a document of millions of blocks costs a
fraction of what the parser's own events do. Blocks are kept in document (pre)order; a block's
descendants are the contiguous run `blocks[i+1 : last+1]`, so every walk is a slice, never
recursion — a document of 10,000 nested lists costs no Python stack. Sections come from one
scan of the top-level headings with a stack of open headings (see sections). A block's line span
is worked out when asked for: indexing needs only counts, so it never pays for the spans of
thousands of blocks.
"""

from __future__ import annotations

import sys
from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterator, Mapping, Sequence

from mdsel._record import NamedTuple
from mdsel.parse import CODE, KINDS, LIST, PARA, QUOTE, TABLE, Block, NestedHeading, Scan, scan
from mdsel.sections import Heading, Headings, build_sections
from mdsel.settings import DEFAULT_MAX_BLOCKS
from mdsel.source import LineTable, decode, front_matter_end, line_table, lone_cr_to_lf, strip_bom

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import overload


BLOCK_KINDS = (PARA, CODE, LIST, TABLE, QUOTE)
CONTAINERS = (LIST, QUOTE)

DEFAULT_MAX_NODES = DEFAULT_MAX_BLOCKS
"""Blocks and headings one document may have (MDSEL_MAX_BLOCKS)."""


class Blocks(Sequence[Block]):
    """The blocks of a document in (pre)order, one column per Block field; `blocks[i]` builds a
    Block."""

    __slots__ = ("ends", "kinds", "parents", "starts")

    def __init__(self, found: Scan) -> None:
        self.kinds = found.kinds
        self.starts = found.starts
        self.ends = found.ends
        self.parents = found.parents

    def __len__(self) -> int:
        return len(self.kinds)

    if TYPE_CHECKING:

        @overload
        def __getitem__(self, index: int) -> Block: ...
        @overload
        def __getitem__(self, index: slice) -> list[Block]: ...

    def __getitem__(self, index: int | slice) -> Block | list[Block]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self.kinds)))]
        fields = (
            KINDS[self.kinds[index]],
            self.starts[index],
            self.ends[index],
            self.parents[index],
        )
        return tuple.__new__(Block, fields)  # in C, skipping the NamedTuple's Python __new__

    def __iter__(self) -> Iterator[Block]:
        kinds = map(KINDS.__getitem__, self.kinds)
        for fields in zip(kinds, self.starts, self.ends, self.parents, strict=True):
            yield tuple.__new__(Block, fields)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Blocks):
            return NotImplemented
        return all(getattr(self, name) == getattr(other, name) for name in self.__slots__)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Blocks({len(self)})"


class Memo:
    """Values derived from a Document on first use (the Document itself stays immutable)."""

    __slots__ = ("ordinals",)

    def __init__(self) -> None:
        self.ordinals: Sequence[int] | None = None

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Memo)  # derived data never makes two Documents differ

    def __hash__(self) -> int:
        return 0


class Document(NamedTuple):
    """A parsed Markdown document. Path-independent: same bytes, same Document."""

    data: bytes
    """The file's bytes after a leading BOM."""
    lines: LineTable
    blocks: Blocks
    block_last: Sequence[int]
    """block_last[i] = index of block i's last descendant (i itself when it has none): block i's
    descendants are blocks[i+1 : block_last[i]+1]."""
    headings: Headings
    top_blocks: Mapping[str, Sequence[int]]
    """Kind → indices into blocks of the top-level blocks of that kind, in document order."""
    by_level: tuple[Sequence[int], ...]
    """by_level[n] = indices into headings of the level-n headings (n = 1..6; [0] is empty)."""
    front_matter_lines: int
    """Lines taken by YAML/TOML front matter at the start (0 if none)."""
    line_count: int
    """Lines in the document (a final line without a line ending counts)."""
    memo: Memo
    """Derived values computed on first use (nested block ordinals)."""
    word_count: int
    nested: tuple[NestedHeading, ...] = ()
    """Headings inside lists and blockquotes: link targets, not sections."""

    def line_of(self, offset: int) -> int:
        """1-based line holding byte `offset`."""
        return self.lines.line_of(offset)

    def content_span(self, start: int, end: int, quoted: bool = False) -> tuple[int, int]:
        """Lines touched by bytes [start, end), trailing blank lines dropped; 1-based, inclusive.

        `quoted`: inside a blockquote, where a line holding only `>` markers is a blank line.
        """
        starts, data = self.lines.starts, self.data
        first = bisect_right(starts, start)
        # pulldown-cmark may end a nested block's range just past the `> ` or indentation of the
        # next line; that line belongs to what follows.
        tail = starts[bisect_right(starts, end - 1) - 1]
        if tail > start and not data[tail:end].strip(b" \t>"):
            end = tail
        content_end = self.lines.content_end(start, end)
        final = max(first, bisect_right(starts, content_end))
        if quoted:
            while final > first and not data[starts[final - 1] : starts[final]].strip(b" \t>\r\n"):
                final -= 1
        return first, final

    def block_lines(self, index: int) -> tuple[int, int]:
        blocks = self.blocks
        quoted = False
        ancestor = index
        while ancestor >= 0 and not quoted:
            quoted = blocks.kinds[ancestor] == _QUOTE_CODE
            ancestor = blocks.parents[ancestor]
        return self.content_span(blocks.starts[index], blocks.ends[index], quoted)

    def text(self, first: int, last: int) -> bytes:
        """Lines first..last (1-based, inclusive) verbatim, line endings included."""
        if last < first:
            return b""
        starts = self.lines.starts
        return self.data[starts[first - 1] : starts[last]]

    def resident_bytes(self) -> int:
        """What keeping this Document costs in memory, in bytes, once selected from: its bytes,
        word mask and columns, plus the line table and block ordinals that selecting builds
        (counted whether built yet or not, so the figure does not grow while it is kept)."""
        parts: list[object] = [
            self.data, self.lines.mask, self.block_last, *self.top_blocks.values(),
            *self.by_level, *(getattr(self.blocks, name) for name in Blocks.__slots__),
            *(getattr(self.headings, name) for name in Headings.COLUMNS),
        ]  # fmt: skip
        line_table = 8 * (self.line_count + 2) + 64  # LineTable.starts: array("q")
        ordinals = self.blocks.parents.itemsize * len(self.blocks) + 64
        # Headings' first and last lines, section last lines and words before each, once needed.
        heading_lines = 4 * (self.headings.starts.itemsize * (len(self.headings) + 1) + 64)
        fixed = line_table + ordinals + heading_lines + _FIXED_BYTES
        return sum(map(sys.getsizeof, parts)) + fixed

    def section_words(self, index: int) -> int:
        return self.headings.section_words(index)

    def top_blocks_between(self, kind: str, start: int, end: int) -> list[int]:
        """Indices of the top-level blocks of `kind` starting in bytes [start, end)."""
        indices = self.top_blocks[kind]
        starts = self.blocks.starts
        lo = bisect_left(indices, start, key=starts.__getitem__)
        hi = bisect_left(indices, end, lo, key=starts.__getitem__)
        return list(indices[lo:hi])

    def block_ordinal(self, index: int) -> int:
        """0-based position of block `index` among the blocks of its kind with the same parent."""
        ordinals = self.memo.ordinals
        if ordinals is None:
            # One pass for all blocks, on first use: parsing skips it (indexing never needs it),
            # and per-block sibling walks would be quadratic in a list of 20,000 items.
            counters: dict[tuple[int, int], int] = {}
            values = array(self.blocks.parents.typecode)
            for key in zip(self.blocks.parents, self.blocks.kinds, strict=True):
                ordinal = counters.get(key, 0)
                counters[key] = ordinal + 1
                values.append(ordinal)
            ordinals = self.memo.ordinals = values
        return ordinals[index]

    def child_blocks(self, container: int, kind: str) -> list[int]:
        """Indices of the blocks of `kind` directly inside list or quote `container`'s items."""
        result = []
        child = container + 1
        end = self.block_last[container]
        code = KINDS.index(kind)
        kinds = self.blocks.kinds
        while child <= end:
            if kinds[child] == code:
                result.append(child)
            child = self.block_last[child] + 1  # skip the child's own descendants
        return result


class Source(NamedTuple):
    """A document of the call, with the namespace it got and the path it came from."""

    namespace: str
    path: str
    document: Document


def source_text(document: Document) -> tuple[str, int]:
    """The text the parser read for `document` and the byte offset it starts at (after front
    matter): what a second look at the parser's events needs."""
    data = document.data
    fm = front_matter_end(data)
    text = decode(data)
    if fm:
        text = text[len(data[:fm].decode("utf-8")) :]
    return lone_cr_to_lf(text), fm


def parse_document(
    raw: bytes,
    max_nodes: int = DEFAULT_MAX_NODES,
    checkpoint: Callable[[], object] | None = None,
) -> Document:
    """Parse a file's bytes. Raises errors.ParseError for invalid UTF-8 or a NUL byte, and
    parse.NodeLimitError past `max_nodes` blocks and headings.

    `checkpoint` is called every few milliseconds of parsing; what it raises passes through.
    """
    data, bom = strip_bom(raw)
    fm = front_matter_end(data)
    text = decode(data, bom)
    if fm:
        text = text[len(data[:fm].decode("utf-8")) :]
    text = lone_cr_to_lf(text)
    found = scan(text, data, fm, max_nodes, checkpoint)
    del text  # the parser's copy of the document is not needed past the scan
    lines = line_table(data)
    headings, by_level = build_sections(data, lines, found)
    return Document(
        data,
        lines,
        Blocks(found),
        found.last,
        headings,
        dict(zip(BLOCK_KINDS, found.top, strict=True)),
        by_level,
        lines.line_of(fm - 1) if fm else 0,
        lines.count,
        Memo(),
        headings.word_count(),
        found.nested,
    )


_QUOTE_CODE = KINDS.index(QUOTE)
_FIXED_BYTES = 2048
"""The Document, its line table, views and memo objects themselves, roughly."""

__all__ = [
    "BLOCK_KINDS", "CONTAINERS", "Block", "Blocks", "Document", "Heading", "Headings", "Source",
    "parse_document", "source_text",
]  # fmt: skip
