"""The document model against real documents: coverage, sections as an independent parser sees
them, block reachability, and inputs that must never crash."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

import mdsel
from mdsel.nodes import Node, node_selector
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
    lines = text.split("\n")
    front = 0
    if lines[0].rstrip(" \t") in ("---", "+++") and len(lines) > 1 and lines[1].strip(" \t"):
        closers = ("---", "...") if lines[0].startswith("-") else ("+++",)
        for number, line in enumerate(lines[1:], start=1):
            if line.rstrip(" \t") in closers:
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
        while end > first and not all_lines[end - 1].strip(b" \t\r\n"):
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
    assert len(document.headings) == 0 and len(document.blocks) == 0
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


def _shape(document: Document) -> tuple[object, ...]:
    headings = [
        (h.level, h.title, h.line_start, h.line_end, h.section_line_end) for h in document.headings
    ]
    blocks = [(b.kind, b.start, b.end, b.parent) for b in document.blocks]
    spans = [document.block_lines(i) for i in range(len(document.blocks))]
    return headings, blocks, spans


LONE_CR_CASES = {
    "indented code": b"# A\n\n    code\n    # not a heading\n\n# B\n",
    "fenced code": b"# A\n\n```\n# not a heading\n```\n\n# B\n\ntext\n",
    "tilde fence": b"# A\n\n~~~ py\nx\n~~~\n\n## B\n",
    "HTML block": b"# A\ntext\n\n<div>\n</div>\n\n# B\n",
    "HTML comment": b"# A\n\n<!--\n# hidden\n-->\n\n# B\n",
    "paragraphs": b"one\ntwo\n\nthree\n\n# H\n",
    "ATX and setext headings": b"# A\n\nSetext\n======\n\nTwo\n---\n\n### C ###\n",
    "list": b"- a\n- b\n\n  more\n\n1. x\n\n# H\n",
    "blockquote": b"> # q\n> text\n>\n> more\n\n# H\n",
    "table": b"| a | b |\n|---|---|\n| 1 | 2 |\n\n# H\n",
    "front matter": b"---\ntitle: x\n...\n\n# A\n\n---\n\n# B\n",
}


@pytest.mark.parametrize("markdown", LONE_CR_CASES.values(), ids=LONE_CR_CASES.keys())
def test_lone_cr_documents_read_as_their_lf_twins(markdown: bytes) -> None:
    """Reference: the same document with LF endings (same length, so the same byte ranges)."""
    lf = parse_document(markdown)
    cr = parse_document(markdown.replace(b"\n", b"\r"))
    assert _shape(cr) == _shape(lf)
    assert lf.headings or lf.blocks


def test_lone_cr_after_an_html_block_keeps_the_next_heading() -> None:
    document = parse_document(b"# A\rtext\r\r<div>\r</div>\r\r# B\r")
    assert [(h.title, h.line_start) for h in document.headings] == [("A", 1), ("B", 7)]


ATX_TITLES = [
    b"## Tab (right)\t##\n",
    b"## Tab (right)\t##\t\n",
    b"## a \t## \n",
    b"# a\t#\n",
    b"## a\t\t#  \n",
    b"## `x`\t##\n",
    b"## a\t\\##\n",
    b"## a ##b\n",
    b"# a\t##x\n",
    b"#\ta\t#\n",
    b"## Closed ##\n",
    b"### a#\n",
    b"# a\t#\t#\n",
    b"## foo ##\t\n",
    b"## foo ## \t\n",
    b"## foo ##\t \r\n",
    b"### foo ###\t\t",
    b"## ##\t\n",
    b"# #\t\n",
    b"## a \\# ##\t\n",
    b"## a \\##\t\n",
    b"## a \\# ##\n",
]


@pytest.mark.parametrize("markdown", ATX_TITLES)
def test_atx_titles_as_commonmark_reads_them(markdown: bytes) -> None:
    """Reference: markdown-it-py (CommonMark 0.31): the closing `#`s may follow a tab."""
    tokens = MarkdownIt("commonmark").parse(markdown.decode())
    inline = tokens[1]
    assert inline.type == "inline" and inline.children is not None
    expected = "".join(t.content for t in inline.children if t.type in ("text", "code_inline"))
    (heading,) = parse_document(markdown).headings
    assert heading.title == expected


@pytest.mark.parametrize(
    ("markdown", "last_line"),
    [
        (b"# A\n\ntext\n\x0c\n\n# B\n", 4),
        (b"# A\n\ntext\n\x0b\n\n# B\n", 4),
        (b"# A\n\ntext\n \t\n\n# B\n", 3),
        (b"# A\n\x0c\n", 2),
    ],
)
def test_sections_trim_only_space_and_tab_lines(markdown: bytes, last_line: int) -> None:
    """Reference: CommonMark §4.9 — a blank line holds only spaces and tabs."""
    heading = parse_document(markdown).headings[0]
    assert heading.section_line_end == last_line
    (match,) = _select(parse_document(markdown), "h1.0")
    assert match.line_end == last_line


def test_front_matter_closed_by_yaml_document_end() -> None:
    """The CommonMark spec file opens this way; pulldown-cmark, pandoc and Jekyll end the
    front matter at `...`."""
    document = parse_document(b"---\ntitle: x\n...\n\n# One\n\n## Two\n\n---\n\n# Three\n")
    assert document.front_matter_lines == 3
    assert [h.title for h in document.headings] == ["One", "Two", "Three"]


def test_opening_thematic_break_is_not_front_matter() -> None:
    document = parse_document(b"---\n\n# Intro\n\n## Part\n\n---\n\n# After\n")
    assert document.front_matter_lines == 0
    assert [h.title for h in document.headings] == ["Intro", "Part", "After"]


def test_blocks_and_headings_are_sequences_of_values() -> None:
    raw = b"# A\n\npara\n\n## B\n\n- x\n\n  y\n\n> q\n\n# C\n\n```\nc\n```\n"
    document = parse_document(raw)
    blocks, headings = document.blocks, document.headings
    assert list(blocks) == [blocks[i] for i in range(len(blocks))] == blocks[:]
    assert list(headings) == [headings[i] for i in range(len(headings))] == headings[:]
    assert blocks[-1] == blocks[len(blocks) - 1] and headings[-1] == headings[2]
    assert [h.title for h in headings[1:]] == ["B", "C"]
    assert [(b.kind, b.parent) for b in blocks] == [
        ("para", -1), ("list", -1), ("para", 1), ("para", 1), ("quote", -1), ("para", 4),
        ("code", -1),
    ]  # fmt: skip
    with pytest.raises(IndexError):
        headings[3]
    with pytest.raises(IndexError):
        blocks[7]
    # Same bytes, equal columns; other bytes, not.
    again = parse_document(raw)
    assert again.blocks == blocks and again.headings == headings
    other = parse_document(raw.replace(b"# C", b"# D"))
    assert other.blocks == blocks and other.headings != headings


@pytest.mark.parametrize("path", DOCS[:6], ids=lambda p: p.name)
def test_resident_bytes_counts_the_tree(path: Path) -> None:
    """A few dozen bytes per block and heading on top of the bytes and their word mask."""
    document = parse_document(path.read_bytes())
    nodes = len(document.blocks) + len(document.headings)
    size = document.resident_bytes()
    assert 2 * len(document.data) < size < 2 * len(document.data) + 120 * nodes + 8192


def test_block_and_heading_limit() -> None:
    from mdsel.errors import NodeLimitError

    raw = b"".join(b"# H%d\n\ntext\n\n" % i for i in range(50))  # 50 headings, 50 blocks
    assert len(parse_document(raw, max_nodes=100).headings) == 50
    with pytest.raises(NodeLimitError) as info:
        parse_document(raw, max_nodes=99)
    assert info.value.limit == 99
    with pytest.raises(NodeLimitError):
        parse_document(b"para\n\n" * 10, max_nodes=9)


def test_resident_bytes_is_what_the_tree_allocates() -> None:
    """Reference: tracemalloc's count of what parsing allocated and the Document still holds,
    plus what selecting builds later (line table, block ordinals)."""
    import tracemalloc

    raw = b"".join(b"## H%d\n\ntext\n\n- a\n- b\n\n" % i for i in range(3000))
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        document = parse_document(raw)
        source = mdsel.Source("doc", "doc.md", document)
        mdsel.select("list.2999", [source])  # builds the line table
        document.blocks.ordinal(0)  # and the ordinals
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    # The bytes themselves were allocated before parsing (no BOM: the Document keeps them).
    estimate = document.resident_bytes() - sys.getsizeof(raw)
    assert 0.8 * held < estimate < 1.25 * held + 4096


@pytest.mark.parametrize("form_feed", [b"\x0c", b""])
@pytest.mark.parametrize("ending", [b"\n", b"\r\n", b"\r"])
def test_heading_lines_counted_one_at_a_time_or_all_at_once_agree(
    ending: bytes, form_feed: bytes
) -> None:
    """Past a thousand Heading values the line columns are counted for every heading at once;
    both ways give the same lines."""
    parts = [
        b"# T%d\n\ntext\n\n \t\n\n" % i if i % 3 else b"Set %d\n===\n\n\x0c\n\n" % i
        for i in range(1500)
    ]
    document = parse_document(b"".join(parts).replace(b"\x0c", form_feed).replace(b"\n", ending))
    headings = document.headings
    one_at_a_time = [
        (headings.lines.line_end(i), headings.lines.section_line_end(i, headings.lines.line_end(i)))
        for i in range(len(headings))
    ]
    values = list(headings)  # the first thousand one at a time, then all at once
    assert [(h.line_end, h.section_line_end) for h in values] == one_at_a_time
    assert values[3].line_end == values[3].line_start + 1  # a setext heading


@pytest.mark.parametrize(
    "markdown",
    [b"## a\n\nx\n\n## b\n\n## c\ny\n", b"# a\n# b\n\n# c\n\ntext\n", b"### only\n\nz\n"],
)
def test_headings_of_one_level_are_flat_sections(markdown: bytes) -> None:
    # One level only skips the section stack; the same headings with a deeper one after them
    # go through it, and both must agree on what they share.
    document = parse_document(markdown)
    nested = parse_document(markdown + b"\n####### not a heading\n\n###### deep\n")
    for heading, same in zip(document.headings, nested.headings, strict=False):
        assert heading.parent == -1 and heading.depth == 0
        assert heading.last == document.headings.index(heading)
        assert (heading.start, heading.line_start, heading.ordinal) == (
            same.start, same.line_start, same.ordinal,
        )  # fmt: skip
    ends = [h.section_end for h in document.headings]
    assert ends == [*(h.start for h in document.headings[1:]), len(markdown)]


@pytest.mark.parametrize(
    ("markdown", "selector", "expected"),
    [
        # Keep a Changelog: link reference definitions after a list are not the list's.
        (
            "# Changelog\n\n## [1.0.0]\n- Added x\n- Fixed y\n\n[1.0.0]: https://e.com/1\n"
            "[0.9.0]: https://e.com/0.9\n[0.8.0]: https://e.com/0.8\n",
            "list.0",
            "- Added x\n- Fixed y",
        ),
        ("## A\n- x\n\n[a]: /a\n[b]: /b\n", "h2.0/list.0", "- x"),
        ("> - a\n>\n> [x]: http://x\n> [y]: http://y\n", "quote.0/list.0", "> - a"),
        # A loose list keeps every item, and a definition inside an item stays in it.
        ("- a\n\n- b\n\n  [x]: /x\n\n[y]: /y\n", "list.0", "- a\n\n- b\n\n  [x]: /x"),
        # A tab-indented sub-list starts on its own line, not on its parent item's.
        ("- a\n\t- b\n- c\n", "list.0/list.0", "\t- b"),
        ("- a\r\n\t- b\r\n- c\r\n", "list.0/list.0", "\t- b"),
        ("- a\n\t- b\n\t- c\n- d\n", "list.0", "- a\n\t- b\n\t- c\n- d"),
    ],
)
def test_lists_are_exactly_their_items(markdown: str, selector: str, expected: str) -> None:
    (match,) = _select(parse_document(markdown.encode()), selector)
    assert match.content.rstrip("\r\n").replace("\r\n", "\n") == expected


@pytest.mark.parametrize(
    ("markdown", "selector", "expected"),
    [
        # A last line without a line ending that holds only `>` and spaces is the block's own
        # line (a REPL prompt, a quoted `>`), not the `> ` of a next line the range ran into.
        ("# T\n\n    >>> 1+1\n    2\n    >>>", "code.0", "    >>> 1+1\n    2\n    >>>"),
        ("# T\n\n~~~\na\n>", "h1.0/code.0", "~~~\na\n>"),
        ("- item\n\n      code\n      >", "list.0", "- item\n\n      code\n      >"),
        ("- item\n\n      code\n      >", "list.0/code.0", "      code\n      >"),
        # With a line ending, as before.
        ("# T\n\n    >>> 1+1\n    2\n    >>>\n", "code.0", "    >>> 1+1\n    2\n    >>>"),
        ("> ~~~\n> a\n> ", "quote.0/code.0", "> ~~~\n> a"),
    ],
)
def test_a_last_line_of_markers_at_the_end_of_the_file_is_kept(
    markdown: str, selector: str, expected: str
) -> None:
    (match,) = _select(parse_document(markdown.encode()), selector)
    assert match.content.rstrip("\r\n") == expected


@pytest.mark.parametrize(
    ("markdown", "selector", "expected"),
    [
        # A `>` past the quote's own markers is text: a prompt in indented code in a quote,
        # a `>` line of a fenced block in a quote.
        ("# T\n\n>     >>> 1 + 1\n>     2\n>     >>>\n\nafter\n", "quote.0",
         ">     >>> 1 + 1\n>     2\n>     >>>"),
        ("# T\n\n>     >>> 1 + 1\n>     2\n>     >>>\n\nafter\n", "quote.0/code.0",
         ">     >>> 1 + 1\n>     2\n>     >>>"),
        ("> ```text\n> a\n> >>\n", "quote.0/code.0", "> ```text\n> a\n> >>"),
        # The quote's own markers alone are still a blank line.
        ("> a\n>\n> \n", "quote.0", "> a"),
        ("> > a\n> >\n>\n", "quote.0/quote.0", "> > a"),
        ("- x\n\n  > a\n  >\n", "list.0/quote.0", "  > a"),
        # In a list item whose text starts four columns in or more, its markers stand there.
        ("10. > a\n    >\n    > b\n    >\n\nnext\n", "list.0/quote.0",
         "10. > a\n    >\n    > b"),
        ("- x\n  - > a\n    > - b\n    >\n\n  y\n", "list.0/list.0/quote.0/list.0",
         "    > - b"),
        ("-\t> a\n\t>\n\nnext\n", "list.0/quote.0", "-\t> a"),
        # Further in than the quote's first marker, a `>` is text (a lazy paragraph line).
        ("> a\n    >\n\nnext\n", "quote.0", "> a\n    >"),
        ("- x\n  - > a\n        >\n\n  y\n", "list.0/list.0/quote.0", "  - > a\n        >"),
    ],
)  # fmt: skip
def test_a_quote_line_is_blank_only_with_the_quotes_own_markers(
    markdown: str, selector: str, expected: str
) -> None:
    (match,) = _select(parse_document(markdown.encode()), selector)
    assert match.content.rstrip("\r\n") == expected


def test_a_closing_sequence_before_a_tab_is_dropped_in_lists_and_quotes_too() -> None:
    """Reference: CommonMark §4.2, spaces or tabs may follow the closing `#`s."""
    document = parse_document(b"> ## foo ##\t\n\n- ### bar ###\t\n")
    assert [(h.title, h.text) for h in document.nested] == [("foo", "foo"), ("bar", "bar")]
