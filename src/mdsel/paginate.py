"""head/tail, then pages of whole lines: a match longer than a page is cut at line boundaries.

A page holds at most `page_words` words and `page_words * BYTES_PER_WORD` bytes, and never more
than its share of the answer budget in estimated tokens (mdsel.budget), never less than
MIN_PAGE_COST. A single line longer than a page is cut at the last whitespace before the limit,
or at the limit (HARD_CUT bytes at most) when there is none (a 5 MB line of base64 still comes
back in pieces), never inside a UTF-8 character.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator

from mdsel._record import NamedTuple
from mdsel.budget import UNITS_PER_TOKEN, data_cost, json_data_cost
from mdsel.tree import Document

BYTES_PER_WORD = 64
"""Byte bound per page word: only pathological lines (huge tokens) ever reach it."""
HARD_CUT = 32 * 1024
MIN_PAGE_COST = 400 * UNITS_PER_TOKEN
"""The least a page may take, whatever the budget: a page of a line or two at least."""
MAX_UNITS_PER_BYTE = 3 * UNITS_PER_TOKEN
"""More than any ASCII byte costs in the estimate (`1\n1\n` is 2.7 tokens a byte): ASCII
bytes under room / this fit without counting them. Outside ASCII, NFKC can make a character
eighteen, so those are always counted."""
JSON_GROWTH = 6
"""At most how many bytes a JSON string takes for one ASCII byte (a control is `\\u0001`)."""

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
    document: Document,
    first: int,
    last: int,
    page_words: int,
    max_page_cost: int | None = None,
    escaped: bool = False,
) -> bool:
    """Whether lines first..last fit one page: what `pages` would not cut (the index says of
    each section whether a select of it comes in pages); `escaped` as `pages` takes it."""
    lines = document.lines
    total = lines.words_in(first, last)
    start, end = _bounds(document, first, last)
    if total > page_words or end - start > page_words * BYTES_PER_WORD:
        return False
    room = _page_room(max_page_cost)
    return room is None or _fits(document.data, start, end, room, escaped)


def _bounds(document: Document, first: int, last: int) -> tuple[int, int]:
    starts = document.lines.starts
    return starts[first - 1], starts[last] if last >= first else starts[first - 1]


def _page_room(max_page_cost: int | None) -> int | None:
    return None if max_page_cost is None else max(MIN_PAGE_COST, max_page_cost)


def _fits(data: bytes, start: int, end: int, room: int, escaped: bool = False) -> bool:
    """Whether bytes start..end are within `room` (`escaped`: as a JSON string holds them):
    sure without counting when even their densest ASCII would be (MAX_UNITS_PER_BYTE, times
    JSON_GROWTH escaped), counted otherwise."""
    chunk = data[start:end]
    per_byte = MAX_UNITS_PER_BYTE * (JSON_GROWTH if escaped else 1)
    if (end - start) * per_byte <= room and chunk.isascii():
        return True
    return (json_data_cost if escaped else data_cost)(chunk) <= room


def pages(
    document: Document,
    first: int,
    last: int,
    page_words: int | None,
    max_page_cost: int | None = None,
    escaped: bool = False,
) -> list[Span]:
    """Lines first..last (1-based, inclusive) as pages; one page when `page_words` is None.
    `max_page_cost` is the estimated cost a page may take (the answer budget's share), priced
    as a JSON string holds the page when `escaped` (a JSON answer's escapes cost tokens)."""
    lines = document.lines
    data = document.data
    start, end = _bounds(document, first, last)
    total = lines.words_in(first, last)
    page_bytes = 0 if page_words is None else page_words * BYTES_PER_WORD
    room = _page_room(max_page_cost)
    if page_words is None or (
        total <= page_words
        and end - start <= page_bytes
        and (room is None or _fits(data, start, end, room, escaped))
    ):
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
        if (
            lo >= line
            and room is not None
            and not _fits(data, cur_start, starts[lo], room, escaped)
        ):
            # Within the words but past the tokens (a table of hashes): the lines that fit
            # both, by bisection again, each step one estimate of the page so far.
            hi, lo = lo - 1, line - 1
            while lo < hi:
                mid = (lo + hi + 1) // 2
                if _fits(data, cur_start, starts[mid], room, escaped):
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
        if (
            count <= page_words
            and unit_end - unit_start <= page_bytes
            and (room is None or _fits(data, unit_start, unit_end, room, escaped))
        ):
            result.append(_span(document, cur_start, cur_end, cur_words))
            cur_start, cur_words = cur_end, 0
            continue
        for piece_start, piece_end, piece_words in _cut(
            data, unit_start, unit_end, page_words, page_bytes, room, escaped
        ):
            if cur_end > cur_start and (
                cur_words + piece_words > page_words
                or piece_end - cur_start > page_bytes
                or (room is not None and not _fits(data, cur_start, piece_end, room, escaped))
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
    data: bytes,
    start: int,
    end: int,
    page_words: int,
    page_bytes: int,
    room: int | None,
    escaped: bool = False,
) -> Iterator[tuple[int, int, int]]:
    pos = start
    last = 0  # the last piece's bytes: the pieces of one line are alike
    while pos < end:
        limit = min(end, pos + page_bytes, pos + 2 * last if room is not None and last else end)
        while True:
            limit = _piece_end(data, pos, limit, end, page_words)
            if room is None or limit <= pos + 1 or _fits(data, pos, limit, room, escaped):
                break
            # Over its tokens (dense text): shrunk in proportion to what is over, then cut
            # again at a word, until it fits (each step at least a byte shorter).
            cost = (json_data_cost if escaped else data_cost)(data[pos:limit])
            limit = min(limit - 1, pos + max(1, (limit - pos) * room // cost))
        words = len(data[pos:limit].split())
        if pos > start and data[pos - 1] not in _BLANK and data[pos] not in _BLANK:
            words -= 1  # a word cut hard is counted in the piece where it starts
        yield pos, limit, words
        last = limit - pos
        pos = limit


_BLANK = frozenset(b" \t\n\r\x0b\x0c")
"""The bytes `bytes.split()` splits words at."""


def _piece_end(data: bytes, pos: int, limit: int, end: int, page_words: int) -> int:
    """Where a piece of a line from `pos` ends at `limit` at most: after its `page_words`-th
    word, at its last whitespace, or hard (HARD_CUT at most), never inside a UTF-8 character
    or a CRLF."""
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
    return limit
