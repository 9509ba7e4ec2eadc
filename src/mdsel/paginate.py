"""head/tail, then pages of whole lines: a match longer than a page is cut at line boundaries.

A page holds at most `page_words` words and `page_words * BYTES_PER_WORD` bytes, and never more
than the answer budget's bytes (see mdsel.budget). A single line
longer than a page is cut at the last whitespace before the limit, or at the limit (HARD_CUT
bytes at most) when there is none (a 5 MB line of base64 still comes back in pieces), never
inside a UTF-8 character.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator

from mdsel._record import NamedTuple
from mdsel.tree import Document

BYTES_PER_WORD = 64
"""Byte bound per page word: only pathological lines (huge tokens) ever reach it."""
HARD_CUT = 32 * 1024

_WORD = re.compile(rb"\S+")


class Span(NamedTuple):
    """A run of bytes of the document: the shown part of a match, or one page of it."""

    start: int
    end: int
    words: int
    line_start: int
    line_end: int


def clip_lines(first: int, last: int, head: int | None, tail: int | None) -> tuple[int, int]:
    """Lines first..last narrowed by head=N / tail=N."""
    if head is not None:
        last = min(last, first + head - 1)
    if tail is not None:
        first = max(first, last - tail + 1)
    return first, last


def one_page(
    document: Document, first: int, last: int, page_words: int, max_page_bytes: int | None = None
) -> bool:
    """Whether lines first..last fit one page: what `pages` would not cut (the index says of
    each section whether a select of it comes in pages)."""
    lines = document.lines
    total = lines.words_in(first, last)
    size = lines.starts[last] - lines.starts[first - 1] if last >= first else 0
    return total <= page_words and size <= _page_bytes(page_words, max_page_bytes)


def _page_bytes(page_words: int, max_page_bytes: int | None) -> int:
    page_bytes = page_words * BYTES_PER_WORD
    if max_page_bytes is not None:
        page_bytes = max(1024, min(page_bytes, max_page_bytes))
    return page_bytes


def pages(
    document: Document,
    first: int,
    last: int,
    page_words: int | None,
    max_page_bytes: int | None = None,
) -> list[Span]:
    """Lines first..last (1-based, inclusive) as pages; one page when `page_words` is None.
    `max_page_bytes` lowers the bytes a page may hold (the answer budget's share)."""
    lines = document.lines
    start, end = (
        lines.starts[first - 1],
        lines.starts[last] if last >= first else lines.starts[first - 1],
    )
    total = lines.words_in(first, last)
    page_bytes = 0 if page_words is None else _page_bytes(page_words, max_page_bytes)
    if page_words is None or (total <= page_words and end - start <= page_bytes):
        return [Span(start, end, total, first, last)]  # last < first: nothing there (L1-0)
    result: list[Span] = []
    cur_start = cur_end = start
    cur_words = 0
    starts = lines.starts
    line = first
    while line <= last:
        # As many whole lines as fit the page, found by bisection over the lines a page's
        # bytes can reach (words counted in C): a page costs a few counts, not a loop over
        # its lines, and a section of a million lines a few thousand.
        reach = min(last, bisect_right(starts, cur_start + page_bytes) - 1)
        lo, hi = line - 1, reach  # lines line..hi fit when words allow
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if cur_words + lines.words_between(cur_end, starts[mid]) <= page_words:
                lo = mid
            else:
                hi = mid - 1
        if lo >= line:
            cur_words += lines.words_between(cur_end, starts[lo])
            cur_end = starts[lo]
            line = lo + 1
            continue
        # The next line does not fit: the page ends before it, or, when it is longer than a
        # page itself, it comes in pieces, each added as the lines were.
        unit_start, unit_end = starts[line - 1], starts[line]
        count = lines.words_between(unit_start, unit_end)
        if count <= page_words and unit_end - unit_start <= page_bytes:
            result.append(_span(document, cur_start, cur_end, cur_words))
            cur_start, cur_words = cur_end, 0
            continue
        for piece_start, piece_end, piece_words in _cut(
            document.data, unit_start, unit_end, page_words, page_bytes
        ):
            if cur_end > cur_start and (
                cur_words + piece_words > page_words or piece_end - cur_start > page_bytes
            ):
                result.append(_span(document, cur_start, cur_end, cur_words))
                cur_start, cur_words = piece_start, 0
            cur_words += piece_words
            cur_end = piece_end
        line += 1
    if cur_end > cur_start:
        result.append(_span(document, cur_start, cur_end, cur_words))
    return result


def _span(document: Document, start: int, end: int, words: int) -> Span:
    return Span(start, end, words, document.lines.line_of(start), document.lines.line_of(end - 1))


def _cut(
    data: bytes, start: int, end: int, page_words: int, page_bytes: int
) -> Iterator[tuple[int, int, int]]:
    pos = start
    while pos < end:
        limit = min(end, pos + page_bytes)
        if limit < end or len(data[pos:limit].split()) > page_words:
            nth = None
            for nth_index, match in enumerate(_WORD.finditer(data, pos, limit)):
                if nth_index == page_words:
                    nth = match.start()
                    break
            if nth is not None:
                limit = nth
            else:
                chunk = data[pos:limit]
                space = max(chunk.rfind(b" "), chunk.rfind(b"\t"))
                limit = pos + space + 1 if space > 0 else min(limit, pos + HARD_CUT)
            while limit < end and limit > pos + 1 and (data[limit] & 0xC0) == 0x80:
                limit -= 1  # never split a UTF-8 sequence
            if limit < end and data[limit - 1 : limit + 1] == b"\r\n":
                limit += 1  # nor a CRLF line ending
        yield pos, limit, len(data[pos:limit].split())
        pos = limit
