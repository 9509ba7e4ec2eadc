"""Bytes to text: BOM, strict UTF-8 (errors carry the byte offset), front matter, the line table.

The line table is the only place line numbers and word counts come from: `starts[i]` is the byte
offset where line i+1 begins (plus a final sentinel), `words[i]` the words in lines 1..i. Words are
ASCII-whitespace tokens of the raw bytes (`bytes.split()`), the rule the hook uses too; because a
line break is whitespace, per-line counts add up to the whole-file count.
"""

from __future__ import annotations

from itertools import accumulate
from typing import NamedTuple

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


class LineTable(NamedTuple):
    """Where each line starts and how many words precede it."""

    starts: tuple[int, ...]
    """starts[i] = byte offset of line i+1 (0-based i); starts[-1] = len(data)."""
    words: tuple[int, ...]
    """words[i] = words in lines 1..i; words[0] = 0."""

    @property
    def count(self) -> int:
        return len(self.starts) - 1

    def words_in(self, first: int, last: int) -> int:
        """Words in lines first..last (1-based, inclusive)."""
        return self.words[last] - self.words[first - 1] if last >= first else 0

    def is_blank(self, line: int) -> bool:
        return self.words[line] == self.words[line - 1]


def line_table(data: bytes) -> LineTable:
    # bytes.splitlines breaks on \n, \r\n and \r only: exactly CommonMark's line endings.
    lines = data.splitlines(keepends=True)
    starts = tuple(accumulate(map(len, lines), initial=0))
    words = tuple(accumulate((len(line.split()) for line in lines), initial=0))
    return LineTable(starts, words)


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
