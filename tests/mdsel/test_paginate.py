"""Pages of whole lines; long lines cut at whitespace, or hard at 32 KiB, never mid-character."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mdsel
from mdsel.budget import answer_room, data_cost
from mdsel.paginate import BYTES_PER_WORD, MIN_PAGE_COST, clip_lines, pages


def _doc(data: bytes) -> mdsel.Document:
    return mdsel.parse_document(data)


def test_pages_are_whole_lines_and_cover_everything() -> None:
    data = b"".join(b"w%d " % i * 10 + b"\n" for i in range(50))
    document = _doc(data)
    spans = pages(document, 1, document.line_count, 35)
    assert [s.words for s in spans] == [30] * 16 + [20]
    assert b"".join(data[s.start : s.end] for s in spans) == data
    assert all(data[s.end - 1 : s.end] == b"\n" for s in spans)


def test_a_long_line_is_cut_at_whitespace() -> None:
    data = b"word " * 100 + b"\n"
    document = _doc(data)
    spans = pages(document, 1, 1, 30)
    assert all(s.words <= 30 for s in spans)
    assert b"".join(data[s.start : s.end] for s in spans) == data
    assert all(data[s.end - 1 : s.end] in (b" ", b"\n") for s in spans)


def test_a_line_without_whitespace_is_cut_on_a_character_boundary() -> None:
    data = "é".encode() * 100_000  # 200,000 bytes, one word
    document = _doc(data)
    spans = pages(document, 1, 1, 2000)
    assert len(spans) > 1
    assert all(s.end - s.start <= 2000 * BYTES_PER_WORD for s in spans)
    for span in spans:
        data[span.start : span.end].decode("utf-8")  # never splits a character
    assert b"".join(data[s.start : s.end] for s in spans) == data


def test_no_paging_when_full() -> None:
    document = _doc(b"word " * 5000)
    assert len(pages(document, 1, 1, None)) == 1


def test_clip_lines() -> None:
    assert clip_lines(10, 20, 3, None) == (10, 12)
    assert clip_lines(10, 20, None, 3) == (18, 20)
    assert clip_lines(10, 12, 100, None) == (10, 12)


def test_a_crlf_is_never_split_across_pages() -> None:
    for length in range(1000, 1040):
        data = b"# T\r\n\r\n" + b"z" * length + b"\r\n\r\nafter\r\n"
        document = mdsel.parse_document(data)
        spans = pages(document, 1, document.line_count, 16, 1024)
        assert b"".join(data[s.start : s.end] for s in spans) == data
        for span in spans[:-1]:
            assert data[span.end - 1 : span.end + 1] != b"\r\n", (length, span)


def test_a_token_cut_across_pages_counts_once_in_the_total(tmp_path: Path) -> None:
    path = tmp_path / "big.md"
    path.write_bytes(b"# T\n\nshort words\n\n" + b"z" * 5000 + b"\n")
    source = mdsel.Source("big", str(path), mdsel.parse_document(path.read_bytes()))
    (match,) = mdsel.select("h1.0", [source], mdsel.Options(page_words=16)).matches
    assert match.total_pages > 1
    assert match.total_words == len(path.read_bytes().split()) == 5


@settings(max_examples=200, deadline=None)
@given(
    head=st.sampled_from([b"", b"zebra ", b"a b c "]),
    word=st.sampled_from([b"x" * 60_000, "é".encode() * 30_000, b"a1" * 30_000]),
    tail=st.sampled_from([b"", b" y z", b" one two three"]),
    page_words=st.integers(1, 400),
)
def test_the_pages_words_add_up_to_the_lines_when_a_word_is_cut_hard(
    head: bytes, word: bytes, tail: bytes, page_words: int
) -> None:
    """A word longer than a page is cut in pieces and counted once, on the page where it
    starts: the pages' words add up to the text's (no `14 of 5 words` in a page's note)."""
    data = b"# T\n\n" + head + word + tail + b"\nlast line\n"
    document = _doc(data)
    spans = pages(document, 1, document.line_count, page_words)
    assert len(spans) > 1
    assert sum(span.words for span in spans) == len(data.split())
    assert all(span.words <= max(page_words, 1) for span in spans)


def pages_line_by_line(
    document: mdsel.Document, first: int, last: int, page_words: int, room: int
) -> list[tuple[int, int, int]]:
    """Pages made as a reader would: line after line (a line longer than a page in pieces),
    a new page whenever the next one would not fit its words, bytes or estimated tokens."""
    from mdsel.paginate import _cut

    data = document.data
    lines = document.lines
    starts = lines.starts
    page_bytes = page_words * BYTES_PER_WORD
    spans: list[tuple[int, int, int]] = []
    cur_start = cur_end = starts[first - 1]
    cur_words = 0
    for line in range(first, last + 1):
        start, end = starts[line - 1], starts[line]
        count = lines.words_between(start, end)
        units = [(start, end, count)]
        if count > page_words or end - start > page_bytes or data_cost(data[start:end]) > room:
            units = list(_cut(data, start, end, page_words, page_bytes, room))
        for unit_start, unit_end, unit_words in units:
            if cur_end > cur_start and (
                cur_words + unit_words > page_words
                or unit_end - cur_start > page_bytes
                or data_cost(data[cur_start:unit_end]) > room
            ):
                spans.append((cur_start, cur_end, cur_words))
                cur_start, cur_words = unit_start, 0
            cur_words += unit_words
            cur_end = unit_end
    if cur_end > cur_start:
        spans.append((cur_start, cur_end, cur_words))
    return spans


LINES = st.sampled_from(
    [
        *(b"\n", b"one\n", b"two words\n", b"a b c d e f g\n", b"  \n", b"x" * 300 + b"\n"),
        *(b"w " * 40 + b"\n", "é".encode() * 700 + b"\n", b"tail", b"a1B2" * 90 + b"\n"),
        b"| 3f9a2c | 0b7e41 | 9d0c55 |\n",
    ]
)


@settings(max_examples=400, deadline=None)
@given(
    parts=st.lists(LINES, min_size=1, max_size=60),
    page_words=st.integers(1, 300),
    page_cost=st.integers(MIN_PAGE_COST - 5_000, MIN_PAGE_COST + 20_000),
    data=st.data(),
)
def test_pages_are_those_made_line_by_line(
    parts: list[bytes], page_words: int, page_cost: int, data: st.DataObject
) -> None:
    """The bisection over lines cuts the pages a line-by-line walk does."""
    document = _doc(b"".join(parts))
    if not document.line_count:
        return
    first = data.draw(st.integers(1, document.line_count))
    last = data.draw(st.integers(first, document.line_count))
    got = pages(document, first, last, page_words, page_cost)
    room = max(MIN_PAGE_COST, page_cost)
    words = document.lines.words_in(first, last)
    start, end = document.lines.starts[first - 1], document.lines.starts[last]
    if (
        words <= page_words
        and end - start <= page_words * BYTES_PER_WORD
        and data_cost(document.data[start:end]) <= room
    ):
        assert len(got) == 1
        return
    expected = pages_line_by_line(document, first, last, page_words, room)
    assert [(s.start, s.end, s.words) for s in got] == expected
    for span in got:
        # Every page within its tokens, but a piece of one line that cannot be smaller.
        assert data_cost(document.data[span.start : span.end]) <= room or span.end - span.start <= 4


def test_a_long_section_is_cut_without_a_loop_over_its_lines(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A million lines: a few counts a page (a page fits in one look at its bytes)."""
    from mdsel.source import LineTable

    document = _doc(b"para\n\n" * 500_000)
    calls = 0
    real = LineTable.words_between

    def counted(self: LineTable, start: int, end: int) -> int:
        nonlocal calls
        calls += 1
        return real(self, start, end)

    monkeypatch.setattr(LineTable, "words_between", counted)
    spans = pages(document, 1, document.line_count, 2000, answer_room(10_000))
    assert len(spans) == 250 and spans[-1].end == len(document.data)
    assert calls < 40 * len(spans)
