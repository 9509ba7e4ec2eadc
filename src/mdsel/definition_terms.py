"""Definition-list terms, the ids Hugo gives them, and the lines a link to one shows.

A definition list (PHP Markdown Extra, as Goldmark reads it) is a paragraph followed by a line
starting with `:` and a space, in the paragraph or after a blank line: each line of the
paragraph above is a term, and `: …` lines give its definitions.

    publishDir
    : (`string`) The designated directory for publishing the site.

CommonMark, and so the parser here, reads these lines as one paragraph (or two), and the block
model stays CommonMark's: the terms are found on the top-level paragraphs' lines, never by
another parse. With `markup.goldmark.parser.autoDefinitionTermID` (as Hugo's own docs set it),
each term gets the id its plain text gives under Hugo's rule (anchor_generators.hugo_slug),
numbered in one sequence with the headings' ids in document order: `cascade` for a term, then
`cascade-1` for a `## Cascade` below it; explicit heading ids are kept and numbered around.
"""

from __future__ import annotations

import re

from mdsel._record import NamedTuple
from mdsel.columns import KINDS, PARA
from mdsel.tree import Document

_DEFINITION = re.compile(rb"(?m)^:[ \t]")
"""A definition's first line: `:` at the line's start, then a space or tab (Goldmark's rule)."""

_CONTINUES = (ord(" "), ord("\t"), ord(":"))
"""A block whose first line starts with one of these goes on with the definitions above it."""


class Term(NamedTuple):
    """A definition-list term: where it starts, its plain text, and the lines from it to the
    end of its definitions."""

    start: int
    """Byte offset of the term's line in Document.data."""
    text: str
    first: int
    last: int
    """1-based, inclusive: the term's line and the last line of its definitions."""


def has_terms(document: Document) -> bool:
    """Whether any line opens a definition (cheap: no term is read when none does)."""
    return _DEFINITION.search(document.data) is not None


def terms(document: Document) -> list[Term]:
    """Every definition-list term among the top-level paragraphs, in document order."""
    if not has_terms(document):
        return []
    blocks = document.blocks
    top = sorted(index for indices in blocks.top.values() for index in indices)
    groups: list[tuple[range, int]] = []  # the lines of terms given the same definitions, and
    # the last line of those definitions
    plain: tuple[int, int] | None = None  # the paragraph just above, when it has no definition
    for position, index in enumerate(top):
        first, last = document.block_lines(index)
        if KINDS[blocks.kinds[index]] != PARA:
            plain = None
            continue
        opening = _first_definition(document, first, last)
        if opening is None:
            plain = (first, last)
            continue
        end = _definitions_end(document, top, position, last)
        if opening > first:
            groups.append((range(first, opening), end))
        elif plain is not None:  # `Term`, a blank line, `: definition`
            groups.append((range(plain[0], plain[1] + 1), end))
        elif groups:  # `: another definition` after a blank line: of the terms above
            groups[-1] = (groups[-1][0], max(groups[-1][1], end))
        plain = None
    from mdsel.parse import inline_texts  # only for a document that has definitions

    numbers = [line for lines, _end in groups for line in lines]
    texts = inline_texts([_line_text(document, line) for line in numbers])
    if len(texts) != len(numbers):  # one paragraph a line, always; a wrong id never
        return []
    ends = [end for lines, end in groups for _line in lines]
    starts = document.lines.starts
    return [
        Term(starts[line - 1], text, line, end)
        for line, text, end in zip(numbers, texts, ends, strict=True)
    ]


def _first_definition(document: Document, first: int, last: int) -> int | None:
    """The first line of lines first..last that opens a definition, or None."""
    starts, data = document.lines.starts, document.lines.data
    for line in range(first, last + 1):
        if _DEFINITION.match(data, starts[line - 1]) is not None:
            return line
    return None


def _definitions_end(document: Document, top: list[int], position: int, last: int) -> int:
    """The last line of the definitions opened in the paragraph at top[position] (ending on
    `last`): on through the blocks after it that are indented or open with `:` (a definition's
    own paragraphs and lists)."""
    starts, data = document.lines.starts, document.lines.data
    for index in top[position + 1 :]:
        first, end = document.block_lines(index)
        if data[starts[first - 1]] not in _CONTINUES:
            break
        last = end
    return last


def _line_text(document: Document, line: int) -> str:
    """Line `line` (1-based) of the document, without its line ending."""
    starts, data = document.lines.starts, document.lines.data
    end = starts[line] if line < len(starts) else len(data)
    return data[starts[line - 1] : end].decode("utf-8", "replace").rstrip("\r\n")
