"""Bytes to text: BOM, strict UTF-8 (errors carry the byte offset), line endings, the line table.

The line table is the only place line numbers and word counts come from. Words are
ASCII-whitespace tokens of the raw bytes (`bytes.split()`), the rule the hook uses too; because a
line break is whitespace, counts over consecutive lines add up to the whole-file count.
"""

from __future__ import annotations

import re
from array import array
from bisect import bisect_right
from collections.abc import Iterator
from itertools import accumulate

from mdsel.errors import ParseError

BOM = b"\xef\xbb\xbf"


def strip_bom(data: bytes) -> tuple[bytes, int]:
    """The document bytes without a leading BOM, and how many bytes were skipped."""
    if data.startswith(BOM):
        return data[len(BOM) :], len(BOM)
    return data, 0


def decode(data: bytes, offset_base: int = 0) -> str:
    """Strict UTF-8; a NUL byte or an invalid sequence is a ParseError naming its offset."""
    nul = data.find(b"\x00")
    if nul >= 0:
        raise ParseError(nul + offset_base, "NUL byte (binary file?)")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ParseError(exc.start + offset_base, "invalid UTF-8") from None


# bytes.split() whitespace (space, \t, \n, \v, \f, \r) → " ", everything else → "x".
_WORD_MASK = bytes(0x20 if byte in b" \t\n\x0b\x0c\r" else 0x78 for byte in range(256))


# Patterns passed to `re` by their text: compiled (and cached by `re`) only when a document holds
# a CR, which most never do.
_LONE_CR = rb"\r(?!\n)"
_LONE_CR_TEXT = "\r(?!\n)"


def lone_cr_to_lf(text: str) -> str:
    """Each CR not followed by LF replaced by LF: the same length, so byte ranges are unchanged.

    pulldown-cmark does not end a line at a lone CR inside indented code, fenced code and HTML
    blocks, so headings after them vanish or phantom ones appear; with LF it sees the lines
    every CommonMark implementation sees.
    """
    if "\r" not in text:
        return text
    return re.sub(_LONE_CR_TEXT, "\n", text)


def lone_cr_to_lf_bytes(data: bytes) -> bytes:
    """lone_cr_to_lf of bytes."""
    if b"\r" not in data:
        return data
    return re.sub(_LONE_CR, b"\n", data)


class LineTable:
    """Where each line starts, and a mask that counts words in any byte range in C.

    Immutable in use. The table of line starts is built on first use: indexing never needs it
    (heading lines come from counting newlines), only selecting does.
    """

    __slots__ = ("_lf_endings", "_mask", "_starts", "data")

    def __init__(self, data: bytes, lf_endings: bool | None = None) -> None:
        self.data = data
        self._mask: bytes | None = None
        self._starts: array[int] | None = None
        self._lf_endings = lf_endings  # see lf_endings; given when the caller already knows

    @property
    def mask(self) -> bytes:
        """The data with whitespace as b" " and every other byte as b"x": a word starts at each
        b" x" pair (or at an b"x" at the range start), so counting never creates word objects.
        Made on first use."""
        if self._mask is None:
            self._mask = self.data.translate(_WORD_MASK)
        return self._mask

    @property
    def starts(self) -> array[int]:
        """starts[i] = byte offset of line i+1 (0-based i); starts[-1] = len(data)."""
        if self._starts is None:
            lengths = map(len, _lines(self.data))
            self._starts = array("q", accumulate(lengths, initial=0))
        return self._starts

    @property
    def lf_endings(self) -> bool:
        """Every line break is LF or CRLF (no lone CR): counting b"\n" counts lines."""
        if self._lf_endings is None:
            self._lf_endings = lf_endings_only(self.data)
        return self._lf_endings

    @property
    def count(self) -> int:
        if self._starts is None and self.lf_endings:
            ends_open = bool(self.data) and not self.data.endswith(b"\n")
            return self.data.count(b"\n") + ends_open
        return len(self.starts) - 1

    def line_of(self, offset: int) -> int:
        """1-based line holding byte `offset`."""
        return bisect_right(self.starts, offset)

    def words_between(self, start: int, end: int) -> int:
        """Words in bytes [start, end); additive when cut at whitespace (e.g. line starts)."""
        if end <= start:
            return 0
        mask = self.mask
        return mask.count(b" x", start, end) + (mask[start] == 0x78)

    def words_in(self, first: int, last: int) -> int:
        """Words in lines first..last (1-based, inclusive)."""
        if last < first:
            return 0
        return self.words_between(self.starts[first - 1], self.starts[last])

    def content_span(
        self, start: int, end: int, quoted: int = 0, indent: int = 3
    ) -> tuple[int, int]:
        """Lines touched by bytes [start, end), trailing blank lines dropped; 1-based, inclusive.

        `quoted`: inside that many blockquotes (-1: some), where a line holding only their `>`
        markers is a blank line, the first of them at most `indent` columns in (see
        quote_blank). A `>` past them, or one indented four spaces past a marker
        (`>     >>>`, a prompt in indented code), is text.
        """
        starts, data = self.starts, self.data
        first = bisect_right(starts, start)
        # pulldown-cmark may start a list nested in a tight item on the line ending of the
        # item's first line (a tab-indented sub-list does): the list begins on the next line.
        if first < len(starts) and starts[first] < end and not data[start : starts[first]].strip():
            first += 1
        # pulldown-cmark may end a nested block's range just past the `> ` or indentation of the
        # next line; that line belongs to what follows. A range that reaches the end of the
        # data ends with a whole line of its own (a last line without a line ending: `    >>>`
        # closing an indented code block), never with a part of a next line.
        tail = starts[bisect_right(starts, end - 1) - 1]
        if tail > start and end < len(data) and not data[tail:end].strip(b" \t>"):
            end = tail
        content_end = self.content_end(start, end)
        final = max(first, bisect_right(starts, content_end))
        if quoted:
            while final > first and quote_blank(
                data[starts[final - 1] : starts[final]], quoted, indent
            ):
                final -= 1
        return first, final

    def quote_indent(self, marker: int) -> int:
        """How far in the first `>` of a quote's lines may sit for a line of its markers alone
        to be blank (see quote_blank): three columns, or as far in as its marker at offset
        `marker` when that is further (a quote inside a list item: `10. > a`, then `    >`);
        -1: no marker known. What comes before a marker on its line is container markup."""
        if marker < 0:
            return 3
        line_start = self.starts[self.line_of(marker) - 1]
        column = 0
        for byte in self.data[line_start:marker]:
            column = _next_column(column, byte)
        return max(3, column)

    def content_end(self, start: int, end: int) -> int:
        """Offset of the last byte in [start, end) that makes its line non-blank, or -1.

        Blank means spaces and tabs only (CommonMark): a vertical tab or form feed separates
        words yet is content, so the word mask alone would call its line blank.
        """
        mask = self.mask
        last = mask.rfind(b"x", start, end)
        for other in (b"\x0b", b"\x0c"):
            last = max(last, self.data.rfind(other, max(start, last + 1), end))
        return last


def quote_blank(line: bytes, depth: int, indent: int = 3) -> bool:
    """Whether `line` holds nothing but the markers of `depth` blockquotes (-1: of any number):
    each `>` after at most three spaces, and the one space or tab that may follow it; the first
    after at most `indent` columns of spaces and tabs (a list item's indentation before it)."""
    pos, size, seen = 0, len(line), 0
    marker = column = 0
    while marker < size and line[marker] in (0x20, 0x09):
        column = _next_column(column, line[marker])
        if column > indent:
            break
        marker += 1
    if column > indent or marker >= size or line[marker] != 0x3E:
        return not line.strip(b" \t\r\n")
    pos, seen = marker + 1, 1
    if pos < size and line[pos] in (0x20, 0x09):
        pos += 1
    while seen != depth:
        marker = pos
        while marker < size and marker - pos < 3 and line[marker] == 0x20:
            marker += 1
        if marker >= size or line[marker] != 0x3E:
            break
        pos = marker + 1
        if pos < size and line[pos] in (0x20, 0x09):
            pos += 1
        seen += 1
    return not line[pos:].strip(b" \t\r\n")


def _next_column(column: int, byte: int) -> int:
    """The column after `byte` at `column`: a tab stops at the next multiple of four."""
    return column + 4 - column % 4 if byte == 0x09 else column + 1


def _lines(data: bytes, chunk: int = 1 << 20) -> Iterator[bytes]:
    """The lines of `data` with their endings, a chunk at a time: a list of every line of a
    large file would cost some 40 bytes per line at once.

    bytes.splitlines breaks on \\n, \\r\\n and \\r only: CommonMark's line endings. Chunks end
    just after a \\n, so no CRLF is split."""
    pos = 0
    size = len(data)
    while pos < size:
        cut = data.rfind(b"\n", pos, pos + chunk) + 1
        if cut <= pos:  # no LF in this chunk: up to the next one, or the end
            cut = data.find(b"\n", pos + chunk) + 1 or size
        yield from data[pos:cut].splitlines(keepends=True)
        pos = cut


def line_table(data: bytes, lf_endings: bool | None = None) -> LineTable:
    return LineTable(data, lf_endings)


def lf_endings_only(data: bytes) -> bool:
    """Every line break in `data` is LF or CRLF: no lone CR (a search only when a CR is there)."""
    return b"\r" not in data or re.search(_LONE_CR, data) is None


def word_count(raw: bytes) -> int:
    """Words of a file: `len(data.split())` of its bytes after a leading BOM (which is not a
    word: the document the engine parses starts after it), without building the list."""
    data, _skipped = strip_bom(raw)
    return LineTable(data).words_between(0, len(data))
