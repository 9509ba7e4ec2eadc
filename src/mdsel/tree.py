"""The document tree: Document, the parsed parts of one file, and parse_document, which makes it.

Blocks and headings are kept as columns (a few bytes each, see columns.Scan), and a Block or
Heading value is made when someone asks for one: a document of millions of blocks costs a
fraction of what the parser's own events do. The parts answer for themselves: the line table
for lines and words (source.LineTable), the blocks for their nesting (blocks.Blocks), the
headings for their sections (sections.Headings). A block's line span is worked out when asked
for: indexing needs only counts, so it never pays for the spans of thousands of blocks.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from mdsel._record import NamedTuple
from mdsel.blocks import Blocks
from mdsel.columns import CODE, LIST, PARA, QUOTE, TABLE, Block, NestedHeading
from mdsel.front_matter import front_matter_end
from mdsel.parse import scan
from mdsel.sections import Heading, Headings, build_sections
from mdsel.settings import DEFAULT_MAX_BLOCKS
from mdsel.source import (
    LineTable,
    decode,
    lf_endings_only,
    line_table,
    lone_cr_to_lf,
    strip_bom,
)

BLOCK_KINDS = (PARA, CODE, LIST, TABLE, QUOTE)
CONTAINERS = (LIST, QUOTE)

DEFAULT_MAX_NODES = DEFAULT_MAX_BLOCKS
"""Blocks and headings one document may have (MDSEL_MAX_BLOCKS)."""


class Document(NamedTuple):
    """A parsed Markdown document. Path-independent: same bytes, same Document."""

    data: bytes
    """The file's bytes after a leading BOM."""
    lines: LineTable
    blocks: Blocks
    headings: Headings
    front_matter_lines: int
    """Lines taken by YAML/TOML front matter at the start (0 if none)."""
    line_count: int
    """Lines in the document (a final line without a line ending counts)."""
    word_count: int
    nested: tuple[NestedHeading, ...] = ()
    """Headings inside lists and blockquotes: link targets, not sections."""
    inline_starts: Sequence[int] = ()
    """Where each list item and table cell starts (columns.Scan.inline_starts)."""

    def block_lines(self, index: int) -> tuple[int, int]:
        """Lines of block `index`, trailing blank lines dropped; 1-based, inclusive."""
        blocks = self.blocks
        quoted, outermost = blocks.quoted(index)
        indent = self.lines.quote_indent(outermost)
        return self.lines.content_span(blocks.starts[index], blocks.ends[index], quoted, indent)

    def resident_bytes(self) -> int:
        """What keeping this Document costs in memory, in bytes (see footprint)."""
        from mdsel.footprint import resident_bytes  # the server's cache asks; the CLI never

        return resident_bytes(
            self.lines, self.blocks, self.headings, self.line_count, self.inline_starts
        )


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
    return (text if document.lines.lf_endings else lone_cr_to_lf(text)), fm


def parse_document(
    raw: bytes,
    max_nodes: int = DEFAULT_MAX_NODES,
    checkpoint: Callable[[], object] | None = None,
) -> Document:
    """Parse a file's bytes. Raises errors.ParseError for invalid UTF-8 or a NUL byte, and
    errors.NodeLimitError past `max_nodes` blocks and headings.

    `checkpoint` is called every few milliseconds of parsing; what it raises passes through.
    """
    data, bom = strip_bom(raw)
    fm = front_matter_end(data)
    text = decode(data, bom)
    if fm:
        text = text[len(data[:fm].decode("utf-8")) :]
    lf_endings = lf_endings_only(data)  # one search serves the parser's text and the lines
    if not lf_endings:
        text = lone_cr_to_lf(text)
    found = scan(text, data, fm, max_nodes, checkpoint)
    del text  # the parser's copy of the document is not needed past the scan
    lines = line_table(data, lf_endings)
    headings = build_sections(data, lines, found)
    return Document(
        data,
        lines,
        Blocks(found),
        headings,
        lines.line_of(fm - 1) if fm else 0,
        headings.lines.line_count(),
        headings.words.total(),
        found.nested,
        found.inline_starts,
    )


__all__ = [
    "BLOCK_KINDS", "CONTAINERS", "Block", "Blocks", "Document", "Heading", "Headings", "Source",
    "parse_document", "source_text",
]  # fmt: skip
