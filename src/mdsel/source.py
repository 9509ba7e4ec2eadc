"""Bytes to text: BOM, strict UTF-8 (errors carry the byte offset), front matter, the line table.

The line table is the only place line numbers and word counts come from. Words are
ASCII-whitespace tokens of the raw bytes (`bytes.split()`), the rule the hook uses too; because a
line break is whitespace, counts over consecutive lines add up to the whole-file count.
"""

from __future__ import annotations

import re
from bisect import bisect_right
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


_LONE_CR = re.compile(rb"\r(?!\n)")


class LineTable:
    """Where each line starts, and a mask that counts words in any byte range in C.

    Immutable in use. The table of line starts is built on first use: indexing never needs it
    (heading lines come from counting newlines), only selecting does.
    """

    __slots__ = ("_lf_endings", "_starts", "data", "mask")

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.mask = data.translate(_WORD_MASK)
        """The data with whitespace as b" " and every other byte as b"x": a word starts at each
        b" x" pair (or at an b"x" at the range start), so counting never creates word objects."""
        self._starts: tuple[int, ...] | None = None
        self._lf_endings: bool | None = None

    @property
    def starts(self) -> tuple[int, ...]:
        """starts[i] = byte offset of line i+1 (0-based i); starts[-1] = len(data)."""
        if self._starts is None:
            # bytes.splitlines breaks on \n, \r\n and \r only: CommonMark's line endings.
            lengths = map(len, self.data.splitlines(keepends=True))
            self._starts = tuple(accumulate(lengths, initial=0))
        return self._starts

    @property
    def lf_endings(self) -> bool:
        """Every line break is LF or CRLF (no lone CR): counting b"\n" counts lines."""
        if self._lf_endings is None:
            data = self.data
            self._lf_endings = b"\r" not in data or _LONE_CR.search(data) is None
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

    def is_blank(self, line: int) -> bool:
        return self.mask.find(b"x", self.starts[line - 1], self.starts[line]) < 0


def line_table(data: bytes) -> LineTable:
    return LineTable(data)


def word_count(raw: bytes) -> int:
    """Words of a file: `len(data.split())` of its bytes after a leading BOM (which is not a
    word: the document the engine parses starts after it), without building the list."""
    data, _skipped = strip_bom(raw)
    return LineTable(data).words_between(0, len(data))


def front_matter_end(data: bytes) -> int:
    """Byte length of a YAML (`---`) or TOML (`+++`) front matter block at the very start, or 0.

    Found by hand because pulldown-cmark's metadata options also swallow a mid-document
    `---\\nTitle\\n---` (a setext heading).
    """
    for fence in (b"---", b"+++"):
        if not data.startswith(fence):
            continue
        first_end = _line_end(data, 0)
        if data[:first_end].rstrip(b"\r\n").rstrip(b" \t") != fence:
            return 0
        pos = first_end
        while pos < len(data):
            end = _line_end(data, pos)
            if data[pos:end].rstrip(b"\r\n").rstrip(b" \t") == fence:
                return end
            pos = end
        return 0
    return 0


def _line_end(data: bytes, pos: int) -> int:
    """Offset just past the line ending of the line starting at pos (or len(data))."""
    lf = data.find(b"\n", pos)
    cr = data.find(b"\r", pos, lf if lf >= 0 else len(data))
    if cr >= 0:
        return cr + 2 if data[cr + 1 : cr + 2] == b"\n" else cr + 1
    return lf + 1 if lf >= 0 else len(data)
