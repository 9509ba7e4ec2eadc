"""What keeping a parsed Document costs in memory: the figure the server's parse cache budgets.

Counted for a Document once selected from: the bytes, word mask and columns, plus what selecting
and showing build on first use (the line table, block ordinals, heading lines, words and
numbers), counted whether built yet or not, so the figure does not grow while it is kept.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from mdsel.blocks import Blocks
from mdsel.sections import Headings
from mdsel.source import LineTable

FIXED_BYTES = 2048
"""The Document, its line table, views and lazily built parts themselves, roughly."""


def resident_bytes(
    lines: LineTable,
    blocks: Blocks,
    headings: Headings,
    line_count: int,
    inline_starts: Sequence[int] = (),
) -> int:
    """Bytes a Document of these parts holds or will hold once selected from (see the module
    docstring); `lines.data` is the document's bytes."""
    parts: list[object] = [
        # The word mask is the data's size, made or not (LineTable.mask).
        lines.data, lines.data, inline_starts, *blocks.top.values(),
        *(getattr(blocks, name) for name in Blocks.COLUMNS),
        *(getattr(headings, name) for name in Headings.COLUMNS),
    ]  # fmt: skip
    line_table = 8 * (line_count + 2) + 64  # LineTable.starts: array("q")
    built_later = (
        line_table
        + blocks.resident_bytes()
        + headings.lines.resident_bytes()
        + headings.words.resident_bytes()
        + headings.numbers.resident_bytes()
    )
    return sum(map(sys.getsizeof, parts)) + built_later + FIXED_BYTES
