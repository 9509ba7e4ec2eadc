"""Pages of whole lines; long lines cut at whitespace, or hard at 32 KiB, never mid-character."""

from __future__ import annotations

from pathlib import Path

import mdsel
from mdsel.paginate import BYTES_PER_WORD, clip_lines, pages


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
