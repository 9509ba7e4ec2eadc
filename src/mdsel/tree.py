"""The document tree: immutable Block/Heading/Document values, built in one pass with a stack.

Only block nodes become objects. Blocks are kept in document (pre)order; a block's descendants
are the contiguous run `blocks[i+1 : last+1]`, so every walk is a slice, never recursion — a
document of 10,000 nested lists costs no Python stack. Sections come from one scan of the
top-level headings with a stack of open headings. A block's line span is worked out when asked
for: indexing needs only counts, so it never pays for the spans of thousands of blocks.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable, Mapping

from mdsel._record import NamedTuple
from mdsel.parse import CODE, LIST, PARA, QUOTE, TABLE, Block, RawHeading, scan
from mdsel.source import LineTable, decode, front_matter_end, line_table, strip_bom

BLOCK_KINDS = (PARA, CODE, LIST, TABLE, QUOTE)
CONTAINERS = (LIST, QUOTE)


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


class Memo:
    """Values derived from a Document on first use (the Document itself stays immutable)."""

    __slots__ = ("ordinals",)

    def __init__(self) -> None:
        self.ordinals: tuple[int, ...] | None = None

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Memo)  # derived data never makes two Documents differ

    def __hash__(self) -> int:
        return 0


class Document(NamedTuple):
    """A parsed Markdown document. Path-independent: same bytes, same Document."""

    data: bytes
    """The file's bytes after a leading BOM."""
    lines: LineTable
    blocks: tuple[Block, ...]
    block_last: tuple[int, ...]
    """block_last[i] = index of block i's last descendant (i itself when it has none): block i's
    descendants are blocks[i+1 : block_last[i]+1]."""
    headings: tuple[Heading, ...]
    top_blocks: Mapping[str, tuple[int, ...]]
    """Kind → indices into blocks of the top-level blocks of that kind, in document order."""
    by_level: tuple[tuple[int, ...], ...]
    """by_level[n] = indices into headings of the level-n headings (n = 1..6; [0] is empty)."""
    front_matter_lines: int
    """Lines taken by YAML/TOML front matter at the start (0 if none)."""
    line_count: int
    """Lines in the document (a final line without a line ending counts)."""
    memo: Memo
    """Derived values computed on first use (nested block ordinals)."""
    heading_words: tuple[int, ...]
    """heading_words[k] = words before heading k's start; heading_words[-1] = all words. A
    section's words are heading_words[last + 1] - heading_words[k]: one pass over the bytes
    serves every section, however deep the outline."""

    @property
    def word_count(self) -> int:
        return self.heading_words[-1]

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
        content_end = self.lines.mask.rfind(b"x", start, end)
        final = max(first, bisect_right(starts, content_end))
        if quoted:
            while final > first and not data[starts[final - 1] : starts[final]].strip(b" \t>\r\n"):
                final -= 1
        return first, final

    def block_lines(self, index: int) -> tuple[int, int]:
        block = self.blocks[index]
        quoted = False
        ancestor = index
        while ancestor >= 0 and not quoted:
            quoted = self.blocks[ancestor].kind == QUOTE
            ancestor = self.blocks[ancestor].parent
        return self.content_span(block.start, block.end, quoted)

    def text(self, first: int, last: int) -> bytes:
        """Lines first..last (1-based, inclusive) verbatim, line endings included."""
        if last < first:
            return b""
        starts = self.lines.starts
        return self.data[starts[first - 1] : starts[last]]

    def section_words(self, index: int) -> int:
        return self.heading_words[self.headings[index].last + 1] - self.heading_words[index]

    def top_blocks_between(self, kind: str, start: int, end: int) -> list[int]:
        """Indices of the top-level blocks of `kind` starting in bytes [start, end)."""
        indices = self.top_blocks[kind]
        blocks = self.blocks
        lo = bisect_left(indices, start, key=lambda i: blocks[i].start)
        hi = bisect_left(indices, end, lo, key=lambda i: blocks[i].start)
        return list(indices[lo:hi])

    def block_ordinal(self, index: int) -> int:
        """0-based position of block `index` among the blocks of its kind with the same parent."""
        ordinals = self.memo.ordinals
        if ordinals is None:
            # One pass for all blocks, on first use: parsing skips it (indexing never needs it),
            # and per-block sibling walks would be quadratic in a list of 20,000 items.
            counters: dict[tuple[int, str], int] = {}
            values = []
            for block in self.blocks:
                key = (block.parent, block.kind)
                ordinal = counters.get(key, 0)
                counters[key] = ordinal + 1
                values.append(ordinal)
            ordinals = self.memo.ordinals = tuple(values)
        return ordinals[index]

    def child_blocks(self, container: int, kind: str) -> list[int]:
        """Indices of the blocks of `kind` directly inside list or quote `container`'s items."""
        result = []
        child = container + 1
        end = self.block_last[container]
        while child <= end:
            if self.blocks[child].kind == kind:
                result.append(child)
            child = self.block_last[child] + 1  # skip the child's own descendants
        return result


class Source(NamedTuple):
    """A document of the call, with the namespace it got and the path it came from."""

    namespace: str
    path: str
    document: Document


def parse_document(raw: bytes, checkpoint: Callable[[], object] | None = None) -> Document:
    """Parse a file's bytes. Raises errors.ParseError for invalid UTF-8 or a NUL byte.

    `checkpoint` is called every few milliseconds of parsing; what it raises passes through.
    """
    data, bom = strip_bom(raw)
    full_text = decode(data, bom)
    fm = front_matter_end(data)
    text = full_text[len(data[:fm].decode("utf-8")) :] if fm else full_text
    found = scan(text, fm, checkpoint)
    lines = line_table(data)
    blocks = tuple(found.blocks)
    top: dict[str, list[int]] = {kind: [] for kind in BLOCK_KINDS}
    for index, block in enumerate(blocks):
        if block.parent == -1:
            top[block.kind].append(index)
    headings, heading_words = _sections(data, lines, found.headings)
    line_count = lines.count
    by_level: list[list[int]] = [[] for _ in range(7)]
    for index, heading in enumerate(headings):
        by_level[heading.level].append(index)
    return Document(
        data,
        lines,
        blocks,
        tuple(found.last),
        headings,
        {kind: tuple(indices) for kind, indices in top.items()},
        tuple(tuple(level) for level in by_level),
        lines.line_of(fm - 1) if fm else 0,
        line_count,
        Memo(),
        heading_words,
    )


def _sections(
    data: bytes, lines: LineTable, raw: list[RawHeading]
) -> tuple[tuple[Heading, ...], tuple[int, ...]]:
    """Headings with their sections (ends, parents, depths from one scan with a stack of open
    headings, and line spans), and the words before each heading (see Document.heading_words).

    Line numbers: when every line ends in LF or CRLF, line(offset) = 1 + newlines before it, so
    counting newlines between consecutive headings (in C) touches each byte once, and a
    section's last line is the next boundary's line minus the newlines of its trailing blank
    run. A lone CR needs the line table instead. Words are counted the same way, between
    consecutive headings, and summed.
    """
    mask = lines.mask
    count = len(raw)
    section_end = [len(data)] * count
    last = [count - 1] * count
    parent = [-1] * count
    depth = [0] * count
    lf_only = lines.lf_endings
    line_at: list[int] = []
    words_before: list[int] = []
    line = 1
    words = 0
    previous = 0
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
        if lf_only:
            line += data.count(b"\n", previous, start)
            line_at.append(line)
        if start > previous:  # LineTable.words_between, inlined: this loop runs per heading
            words += mask.count(b" x", previous, start) + (mask[previous] == 0x78)
        words_before.append(words)
        previous = start
    line_at.append(line + data.count(b"\n", previous, len(data)))  # the line of len(data)
    words_before.append(words + lines.words_between(previous, len(data)))

    per_level = [0] * 7
    headings: list[Heading] = []
    new = tuple.__new__  # builds the NamedTuple in C, skipping its Python-level __new__
    for index, (level, start, end, title) in enumerate(raw):
        end_of_section = section_end[index]
        content_end = mask.rfind(b"x", start, end_of_section)
        if lf_only:
            first = line_at[index]
            own_last = first + data.count(b"\n", start, end - 1)
            final = line_at[last[index] + 1] - data.count(b"\n", content_end, end_of_section)
        else:
            first = lines.line_of(start)
            own_last = max(first, lines.line_of(end - 1))
            final = lines.line_of(content_end)
        fields = (
            level, title, start, first, own_last, end_of_section, max(own_last, final),
            last[index], parent[index], depth[index], per_level[level],
        )  # fmt: skip
        headings.append(new(Heading, fields))
        per_level[level] += 1
    return tuple(headings), tuple(words_before)


__all__ = ["BLOCK_KINDS", "CONTAINERS", "Block", "Document", "Heading", "Source", "parse_document"]
