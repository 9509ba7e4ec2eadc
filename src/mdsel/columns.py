"""What the scan of a document gives: its blocks and top-level headings as parallel columns
(Scan), the Block record, headings nested in lists and quotes, and the array types that hold
offsets. Values only: parse.py fills them, blocks.py and sections.py serve them.
"""

from __future__ import annotations

from array import array

from mdsel._record import NamedTuple

PARA = "para"
CODE = "code"
LIST = "list"
TABLE = "table"
QUOTE = "quote"

KINDS = (PARA, CODE, LIST, TABLE, QUOTE)
"""Block kinds by their code in Scan.kinds."""


class Block(NamedTuple):
    """A paragraph, code block, list, table or blockquote."""

    kind: str
    """para, code, list, table or quote."""
    start: int
    """Byte offset in Document.data where the parser's range starts (half-open with end)."""
    end: int
    parent: int
    """Index of the enclosing list or blockquote in Document.blocks; -1 at top level."""


def offset_typecode(size: int) -> str:
    """The smallest unsigned `array` type that holds every offset of `size` bytes.

    Unsigned because an append to a signed array goes through PyArg_Parse, several times the
    cost of an unsigned one: the scan appends a few offsets per block."""
    return "I" if size < 2**32 else "Q"


def signed_typecode(size: int) -> str:
    """The smallest signed `array` type that holds every offset of `size` bytes and -1."""
    return "i" if size < 2**31 else "q"


class Scan(NamedTuple):
    """Blocks in document (pre)order and top-level headings, as parallel columns."""

    kinds: bytearray
    """Index into KINDS."""
    starts: array[int]
    ends: array[int]
    parents: array[int]
    """Index of the enclosing list or blockquote; -1 at top level."""
    last: array[int]
    """last[i] = index of block i's last descendant (i itself when it has none)."""
    top: tuple[array[int], ...]
    """top[code] = indices of the top-level blocks of kind KINDS[code], in document order."""
    levels: bytearray
    """Top-level headings only (not inside a list or blockquote): level 1–6."""
    heading_starts: array[int]
    heading_ends: array[int]
    titles: str
    """Every title, one after the other; title k is titles[title_ends[k-1]:title_ends[k]]."""
    title_ends: array[int]
    ids: dict[int, str]
    """Heading index → the id its attribute block gives (`## Intro {#intro}` → intro)."""
    texts: dict[int, str]
    """Heading index → its text as GitHub shows it, for headings whose title differs from it:
    an attribute block is text there, an image's alt text is not, and a line break is a newline
    (GitHub's anchor comes from this text)."""
    nested: tuple[NestedHeading, ...]
    """Headings inside lists and blockquotes, in document order."""
    inline_starts: array[int]
    """Where each list item and table cell starts, in document order: runs of words that no
    paragraph holds (a tight list's items, a table's cells), which the search keeps apart."""


class NestedHeading(NamedTuple):
    """A heading inside a list or blockquote: not a section, but a link target."""

    level: int
    start: int
    end: int
    container: int
    """Index in the document's blocks of its innermost list or blockquote (whose end is cut at
    its last item's, as every list's is: never on link reference definitions after it)."""
    title: str
    """Shown title (without an attribute block)."""
    text: str
    """Text as GitHub shows it (with the attribute block, without images' alt text)."""
    id: str | None
    """The id of its attribute block, if any."""
