"""The document model against real documents: coverage, sections as an independent parser sees
them, block reachability, and inputs that must never crash."""

from __future__ import annotations

from pathlib import Path

import pytest
from markdown_it import MarkdownIt

import mdsel
from mdsel.resolve import Node, node_selector
from mdsel.tree import BLOCK_KINDS, Document, parse_document
from tests.conftest import real_documents

DOCS = real_documents()


def _body(raw: bytes) -> bytes:
    return raw[3:] if raw.startswith(b"\xef\xbb\xbf") else raw


def _select(document: Document, selector: str) -> list[mdsel.Match]:
    source = mdsel.Source("doc", "doc.md", document)
    result = mdsel.select(selector, [source], mdsel.Options(full=True))
    assert not result.problems, result.problems
    return list(result.matches)


def _lines(data: bytes) -> list[bytes]:
    return data.splitlines(keepends=True)


def _oracle_sections(raw: bytes) -> list[tuple[int, int, int]]:
    """(level, first line, last line) of each top-level heading's section, 1-based, computed
    from markdown-it-py's token line maps: an independent CommonMark parser."""
    data = _body(raw)
    text = data.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")
    front = 0
    if text.startswith(("---\n", "+++\n")):
        fence = text[:3]
        lines = text.split("\n")
        for number, line in enumerate(lines[1:], start=1):
            if line.rstrip(" \t") == fence:
                front = number + 1
                break
        text = "\n".join(lines[front:])
    tokens = MarkdownIt("commonmark").enable("table").parse(text)
    heads = [
        (int(t.tag[1]), t.map[0] + 1 + front)
        for t in tokens
        if t.type == "heading_open" and t.level == 0 and t.map is not None
    ]
    all_lines = _lines(data)
    result = []
    for i, (level, first) in enumerate(heads):
        end = len(all_lines)
        for later_level, later_first in heads[i + 1 :]:
            if later_level <= level:
                end = later_first - 1
                break
        while end > first and not all_lines[end - 1].strip():
            end -= 1
        result.append((level, first, end))
    return result


@pytest.mark.parametrize("path", DOCS, ids=lambda p: p.name)
def test_every_heading_selects_exactly_its_section(path: Path) -> None:
    raw = path.read_bytes()
    document = parse_document(raw)
    expected = _oracle_sections(raw)
    assert [(h.level, h.line_start) for h in document.headings] == [
        (lv, a) for lv, a, _ in expected
    ]
    lines = _lines(_body(raw))
    for index, (_level, first, last) in enumerate(expected):
        heading = document.headings[index]
        (match,) = _select(document, f"h{heading.level}.{heading.ordinal}")
        assert (match.line_start, match.line_end) == (first, last)
        assert match.content.encode("utf-8") == b"".join(lines[first - 1 : last])


def test_spec_document_sections_byte_for_byte(cmark_spec_path: Path) -> None:
    test_every_heading_selects_exactly_its_section(cmark_spec_path)


def _check_coverage(raw: bytes) -> None:
    document = parse_document(raw)
    body = _body(raw)
    (root,) = _select(document, "root")
    assert root.content.encode("utf-8") == body
    lines = _lines(body)
    if document.headings:
        covered = bytearray(len(lines) + 2)
        for h in document.headings:
            for line in range(h.line_start, h.section_line_end + 1):
                covered[line] = 1
        first = document.headings[0].line_start
        for number in range(first, len(lines) + 1):
            if lines[number - 1].strip():
                assert covered[number], f"line {number} is in no section"
    for index, block in enumerate(document.blocks):
        selector = node_selector(document, Node(0, block.kind, index))
        (match,) = _select(document, selector)
        first, last = document.block_lines(index)
        assert (match.line_start, match.line_end) == (first, last)
        assert match.content.encode("utf-8") == b"".join(lines[first - 1 : last])


@pytest.mark.parametrize("path", DOCS, ids=lambda p: p.name)
def test_coverage_on_real_documents(path: Path) -> None:
    _check_coverage(path.read_bytes())


def test_coverage_on_every_commonmark_example(cmark_examples: list[dict[str, object]]) -> None:
    assert len(cmark_examples) > 600
    for example in cmark_examples:
        markdown = str(example["markdown"])
        _check_coverage(markdown.encode("utf-8"))
        # Indexing never raises, in either format.
        source = mdsel.Source("doc", "doc.md", parse_document(markdown.encode("utf-8")))
        from mdsel import render_json, render_text

        render_text.index(mdsel.index([source]), [], [], mdsel.Options())
        render_json.index(mdsel.index([source]), [], [], mdsel.Options())


def test_headings_inside_lists_and_quotes_are_not_sections() -> None:
    document = parse_document(b"# A\n\n- # in list\n\n> # in quote\n\n## B\n")
    assert [h.title for h in document.headings] == ["A", "B"]


def test_setext_titles_are_joined_and_markup_removed() -> None:
    document = parse_document(b"Some *emphasised*\n`code` title\n===\n\ntext\n")
    (heading,) = document.headings
    assert heading.title == "Some emphasised code title"
    assert (heading.line_start, heading.line_end) == (1, 3)


def test_front_matter_is_not_parsed_and_mid_document_setext_is() -> None:
    raw = b"---\ntitle: x\n---\n\n# One\n\n---\nTitle\n---\n"
    document = parse_document(raw)
    assert document.front_matter_lines == 3
    assert [(h.title, h.level, h.line_start) for h in document.headings] == [
        ("One", 1, 5),
        ("Title", 2, 8),
    ]


def test_unclosed_front_matter_is_ordinary_markdown() -> None:
    document = parse_document(b"---\n# Heading\n")
    assert [h.title for h in document.headings] == ["Heading"]


def test_crlf_and_cr_line_endings_give_the_same_lines() -> None:
    lf = parse_document(b"# A\n\npara\n\n## B\n\ntext\n")
    for ending in (b"\r\n", b"\r"):
        other = parse_document(b"# A\n\npara\n\n## B\n\ntext\n".replace(b"\n", ending))
        assert [(h.line_start, h.section_line_end) for h in other.headings] == [
            (h.line_start, h.section_line_end) for h in lf.headings
        ]
        (match,) = _select(other, "h2.0")
        assert (
            match.content == "## B" + ending.decode() + ending.decode() + "text" + ending.decode()
        )


def test_tight_list_text_belongs_to_the_list() -> None:
    document = parse_document(b"- a\n- b\n")
    assert [b.kind for b in document.blocks] == ["list"]
    loose = parse_document(b"- a\n\n- b\n")
    assert [b.kind for b in loose.blocks] == ["list", "para", "para"]


@pytest.mark.parametrize(
    ("raw", "offset", "reason"),
    [
        (b"# ok\n\xff\n", 5, "invalid UTF-8"),
        (b"abc\x00def", 3, "NUL byte"),
        (b"\xef\xbb\xbfab\x00", 5, "NUL byte"),
        (b"---\nk: \xc3\n---\n", 7, "invalid UTF-8"),
    ],
)
def test_undecodable_bytes_are_parse_errors_with_offsets(
    raw: bytes, offset: int, reason: str
) -> None:
    with pytest.raises(mdsel.ParseError) as info:
        parse_document(raw)
    assert info.value.offset == offset
    assert reason in str(info.value)


def test_empty_document() -> None:
    document = parse_document(b"")
    assert document.headings == () and document.blocks == ()
    assert document.lines.count == 0
    (root,) = _select(document, "root")
    assert root.content == ""


def test_block_kinds_are_the_five_types() -> None:
    assert set(BLOCK_KINDS) == {"para", "code", "list", "table", "quote"}


def test_a_checkpoint_runs_through_long_parses_and_what_it_raises_stops_them() -> None:
    data = ("## Part\n\nsome words\n\n- a\n- b\n\n" * 5000).encode()
    calls: list[int] = []
    checked = parse_document(data, checkpoint=lambda: calls.append(1))
    plain = parse_document(data)
    assert (checked.blocks, checked.headings) == (plain.blocks, plain.headings)
    assert len(calls) >= 10  # tens of thousands of events, a call every few thousand

    class Stop(Exception):
        pass

    def stop() -> None:
        raise Stop

    with pytest.raises(Stop):
        parse_document(data, checkpoint=stop)
