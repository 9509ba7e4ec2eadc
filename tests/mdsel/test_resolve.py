"""Scopes, ordinals, ranges and what counts as resolved, on a fixture whose structure is known."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mdsel
from mdsel.errors import NAMESPACE_NOT_FOUND, SELECTOR_NOT_FOUND
from tests.conftest import FIXTURES
from tests.nested_markdown import documents, read

STRUCTURE = (FIXTURES / "structure.md").read_bytes()


def sources(*docs: tuple[str, bytes]) -> list[mdsel.Source]:
    return [mdsel.Source(ns, f"{ns}.md", mdsel.parse_document(data)) for ns, data in docs]


def select(request: str, *docs: tuple[str, bytes]) -> mdsel.SelectResult:
    return mdsel.select(
        request, sources(*docs or (("structure", STRUCTURE),)), mdsel.Options(full=True)
    )


def selected(request: str, *docs: tuple[str, bytes]) -> list[str]:
    result = select(request, *docs)
    return [m.selector for m in result.matches]


def first_line(request: str) -> str:
    (match,) = select(request).matches
    return match.content.splitlines()[0]


@pytest.mark.parametrize(
    ("request_", "expected"),
    [
        ("h1", ["h1.0", "h1.1"]),
        ("h2", ["h2.0", "h2.1", "h2.2", "h2.3"]),
        ("h2.1", ["h2.1"]),
        ("h3.0", ["h3.0"]),
        ("h1.0/h2", ["h2.0", "h2.1", "h2.2", "h2.3"]),
        ("h1.1/h2", []),
        ("h2.1/h4.0", ["h4.0"]),
        ("h2.1/section.0", ["section.3"]),
        ("h2.1/section", ["section.3", "section.4"]),
        ("section.0", ["section.0"]),
        ("section", [f"section.{i}" for i in range(8)]),
        ("root/h2.0", ["h2.0"]),
        ("root", ["root"]),
        ("h2.0-99", ["h2.0", "h2.1", "h2.2", "h2.3"]),
        ("h2.1-2", ["h2.1", "h2.2"]),
        ("h2.0,0,0", ["h2.0"]),
        ("h2.3,0", ["h2.0", "h2.3"]),
        ("para.0", ["para.0"]),
        ("h2.0/code", ["code.0"]),
        ("h2.0/list.0/code.0", ["list.0/code.0"]),
        ("list.0/code", ["list.0/code.0"]),
        ("list.0/quote.0/code.0", ["list.0/quote.0/code.0"]),
        ("h2.1/quote.0/list.0", ["quote.0/list.0"]),
        ("h2.1/table.0", ["table.0"]),
        ("h1.0/code", ["code.0"]),
        ("h2.3/list", ["list.1", "list.2"]),
        ("list.1/list", ["list.1/list.0"]),
    ],
)
def test_scopes_and_ordinals(request_: str, expected: list[str]) -> None:
    assert selected(request_) == expected


def test_heading_matches_are_their_sections() -> None:
    assert first_line("h2.3") == "## Install"
    assert first_line("h2.2") == "Setext title"
    (match,) = select("h2.1").matches
    assert match.content.rstrip("\n").splitlines()[-1] == "Deep text."
    (match,) = select("h1.1").matches
    assert match.content == "# Appendix\n\nLast words.\n"


def test_a_fence_inside_a_list_item_is_part_of_the_list() -> None:
    assert selected("code") == ["code.0"]
    assert first_line("code.0") == "```sh"
    assert first_line("list.0/code.0") == "  ```python"


def test_nested_headings_are_not_addressable_but_their_blocks_are() -> None:
    assert selected("h2") == ["h2.0", "h2.1", "h2.2", "h2.3"]
    assert first_line("list.2") == "- # heading inside a list"
    assert first_line("quote.1") == "> ## heading inside a quote"


def test_out_of_range_items_are_reported_and_the_rest_returned() -> None:
    result = select("h2.1,9")
    assert [m.selector for m in result.matches] == ["h2.1"]
    (miss,) = result.problems
    assert miss.type == SELECTOR_NOT_FOUND
    assert miss.selector == "h2.9"
    assert miss.message == "index 9 out of range: 'structure' (structure.md) has 4 h2 headings"
    assert miss.suggestions and miss.suggestions[0].selector == "h2.3"


def test_nested_misses_name_the_scope() -> None:
    result = select("h2.0/code.5")
    (miss,) = result.problems
    assert miss.selector == "h2.0/code.5"
    assert miss.message == "index 5 out of range: h2.0 has 1 code block"
    result = select("h1.1/table")
    (miss,) = result.problems
    assert miss.message == "h1.1 has no tables"


def test_resolved_in_one_document_is_resolved() -> None:
    small = ("small", b"# Only\n\n## One\n")
    result = select("h2.2", ("structure", STRUCTURE), small)
    assert [(m.namespace, m.selector) for m in result.matches] == [("structure", "h2.2")]
    assert result.problems == ()
    result = select("h2.0-5", ("structure", STRUCTURE), small)
    assert len(result.matches) == 5 and result.problems == ()


def test_namespaces_select_documents() -> None:
    docs = (("readme", b"# R\n\n## R2\n"), ("api", b"# A\n"))
    result = select("api::h1.0", *docs)
    assert [(m.namespace, m.selector) for m in result.matches] == [("api", "h1.0")]
    result = select("API::h1.0,h1.0", *docs)  # api's h1.0 named twice: shown once
    assert [(m.namespace, m.selector) for m in result.matches] == [
        ("api", "h1.0"),
        ("readme", "h1.0"),
    ]
    result = select("nope::h1.0", *docs)
    (miss,) = result.problems
    assert miss.type == NAMESPACE_NOT_FOUND
    assert "namespaces: readme, api" in miss.message


def test_single_document_accepts_a_numbered_namespace() -> None:
    docs = (("readme", b"# R\n"),)
    assert selected("readme-2::h1.0", *docs) == ["h1.0"]
    assert selected("README::h1.0", *docs) == ["h1.0"]
    result = select("other-2::h1.0", *docs)
    assert result.problems[0].type == NAMESPACE_NOT_FOUND


def test_a_selector_per_document_in_document_order() -> None:
    docs = (("a", b"# A0\n\n# A1\n"), ("b", b"# B0\n"))
    result = select("h1", *docs)
    assert [(m.namespace, m.selector) for m in result.matches] == [
        ("a", "h1.0"),
        ("a", "h1.1"),
        ("b", "h1.0"),
    ]


def test_huge_ranges_cost_nothing() -> None:
    result = select("h2.0-999999999999,5000000-6000000")
    assert len(result.matches) == 4
    (miss,) = result.problems
    assert miss.selector == "h2.5000000-6000000"
    assert miss.message.startswith("range 5000000-6000000 out of range")


def test_toc_needs_a_heading() -> None:
    result = select("para.0?toc=true")
    (problem,) = result.problems
    assert problem.type == "INVALID_SELECTOR"
    (match,) = select("h1.0?toc=true").matches
    assert match.content.splitlines()[0].startswith("h1.0 Guide")
    assert "  h2.0 Install" in match.content


def test_several_selectors_in_one_request_are_concatenated_in_order() -> None:
    assert selected("h2.1,code.0,h1.1") == ["h2.1", "code.0", "h1.1"]


def test_an_absent_type_is_one_miss_whatever_the_index_list() -> None:
    result = select("h5.0,1,2-9,40")
    (miss,) = result.problems
    assert miss.selector == "h5.0,1,2-9,40"
    assert miss.message == "'structure' (structure.md) has no h5 headings"


# -- lines and anchors ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("request_", "expected"),
    [
        ("L1", ["root"]),  # front matter: before the first heading
        ("L5", ["root"]),
        ("L8", ["h1.0"]),
        ("L10", ["h1.0"]),
        ("L16", ["h2.0"]),  # inside a fence of Install
        ("L33", ["h2.0"]),  # the blank line before Usage belongs to Install
        ("L52", ["h4.0"]),
        ("L56", ["h2.2"]),  # a setext underline
        ("L76", ["h1.1"]),
        ("L16/code", ["code.0"]),
        ("L40/quote.0/list.0", ["quote.0/list.0"]),
        ("L48/section.0", ["section.4"]),
        ("L5/h1", ["h1.0", "h1.1"]),  # root, scoped
        ("L10-12", ["L10-12"]),
        ("L70-1000", ["L70-76"]),  # clamped to the file
        ("L76-76", ["L76-76"]),
        ("#install", ["h2.0"]),
        ("#install-1", ["h2.3"]),
        ("#INSTALL-1", ["h2.3"]),
        ("#setext-title", ["h2.2"]),
        ("#usage/table.0", ["table.0"]),
        ("structure.md#deep", ["h4.0"]),
        ("structure::L52", ["h4.0"]),
        ("L8,L52,#deep", ["h1.0", "h4.0"]),  # L52 is in #deep, one page: shown once
    ],
)
def test_lines_and_anchors(request_: str, expected: list[str]) -> None:
    result = select(request_)
    assert not result.problems, result.problems
    assert [m.selector for m in result.matches] == expected


def test_a_line_range_is_those_lines_verbatim() -> None:
    (match,) = select("L10-12").matches
    assert match.content == "Intro paragraph of the guide.\n\n## Install\n"
    assert (match.type, match.line_start, match.line_end, match.truncated) == (
        "lines",
        10,
        12,
        False,
    )
    (clamped,) = select("L75-80").matches
    assert clamped.content == "\nLast words.\n" and clamped.line_end == 76


def test_a_line_selects_its_whole_section() -> None:
    (by_line,) = select("L52").matches
    (by_ordinal,) = select("h4.0").matches
    assert by_line.content == by_ordinal.content == "#### Deep\n\nDeep text.\n"
    assert by_line.line == 52 and by_ordinal.line == 0


@pytest.mark.parametrize(
    ("request_", "reason", "suggestions"),
    [
        ("L77", "line 77 is past the end: 'structure' (structure.md) has 76 lines", ["L76"]),
        (
            "L77-90",
            "lines 77-90 are past the end: 'structure' (structure.md) has 76 lines",
            ["L76"],
        ),
        (
            "#instal",
            "no heading in 'structure' (structure.md) has the anchor #instal",
            ["#install", "#install-1"],
        ),
        ("#zzz", "no heading in 'structure' (structure.md) has the anchor #zzz", []),
    ],
)
def test_line_and_anchor_misses_explain_themselves(
    request_: str, reason: str, suggestions: list[str]
) -> None:
    result = select(request_)
    (problem,) = result.problems
    assert problem.type == SELECTOR_NOT_FOUND and problem.message == reason
    assert problem.code == ("OUT_OF_RANGE" if request_.startswith("L") else "NO_MATCH")
    assert [s.selector for s in problem.suggestions] == suggestions
    assert result.matches == ()


def test_a_line_applies_to_every_document_that_has_it() -> None:
    short, long = ("a", b"# A\n\nx\n"), ("b", b"# B\n\ny\n\n## C\n\nz\n")
    assert selected("L5", short, long) == ["h2.0"]
    assert selected("L1", short, long) == ["h1.0", "h1.0"]
    (problem,) = select("L99", short, long).problems
    assert problem.message == (
        "line 99 is past the end of every document: the longest, 'b' (b.md), has 7 lines"
    )
    assert selected("#c", short, long) == ["h2.0"]  # found in one document: resolved
    (problem,) = select("#d", short, long).problems
    assert problem.message == "no heading in any of 2 documents has the anchor #d"


def test_toc_of_a_line_is_its_section_and_of_a_range_an_error() -> None:
    (match,) = select("L48?toc=true").matches
    assert match.content == "h3.0 Details 47 8\n  h4.0 Deep 51 4\n"
    (problem,) = select("L10-12?toc=true").problems
    assert problem.type == "INVALID_SELECTOR"
    assert problem.message.endswith("L10-12 is a line range")


def _tree(root: Path, files: dict[str, str]) -> list[str]:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return [str(root / name) for name in files]


def test_a_links_path_names_its_document_not_the_first_of_that_name(tmp_path: Path) -> None:
    paths = _tree(
        tmp_path,
        {
            "a/index.md": "# A\n\n## Usage\n\nA usage text\n",
            "b/index.md": "# B\n\n## Usage\n\nB usage text\n",
        },
    )
    sources, _ = mdsel.load(paths)
    for link in ("b/index.md#usage", "../b/index.md#usage", "/b/index.md#usage"):
        result = mdsel.select(link, sources)
        assert [m.content for m in result.matches] == ["## Usage\n\nB usage text\n"], link
    # Two documents answer to a bare name, none to another directory: misses, never a guess.
    for link, reason in (
        ("index.md#usage", "the link names 2 documents"),
        ("c/index.md#usage", "no document of this call is at c/index.md"),
    ):
        result = mdsel.select(link, sources)
        assert not result.matches
        assert [p.type for p in result.problems] == ["NAMESPACE_NOT_FOUND"]
        assert reason in result.problems[0].message


def test_a_heading_keeps_its_document_number_in_any_scope() -> None:
    # As the index prints it: h3.2 under h2.1, not the third h3 of h2.1.
    text = "# T\n\n## A\n\n### a0\n\n### a1\n\n## B\n\n### b0\n\n### b1\n\n### b2\n"
    sources = [mdsel.Source("doc", "doc.md", mdsel.parse_document(text.encode()))]
    assert "    h3.2 b0 " in "\n" + render_index(sources)
    picked = mdsel.select("h2.1/h3.2,h2.1/h3.3-4", sources)
    assert [m.content.split("\n")[0] for m in picked.matches] == ["### b0", "### b1", "### b2"]
    missed = mdsel.select("h2.1/h3.0", sources)
    assert not missed.matches
    problem = missed.problems[0]
    assert problem.message.startswith("h3.0 is not inside h2.1, which holds h3.2-4")
    assert problem.suggestions[0].selector == "h3.0"  # the heading that number names
    assert [m.selector for m in mdsel.select("h2.1/h3", sources).matches] == [
        "h3.2",
        "h3.3",
        "h3.4",
    ]
    assert [m.selector for m in mdsel.select("h2.1/section.0", sources).matches] == ["section.5"]


def render_index(sources: list[mdsel.Source]) -> str:
    from mdsel import render_text

    return render_text.index(mdsel.index(sources), [], [], mdsel.Options()).stdout


# -- scopes into a heading inside a list or quote ---------------------------------------------


def spans(request: str, markdown: str) -> list[tuple[int, int]]:
    """(first, last) line of each match of `request` in `markdown`."""
    result = select(request, ("doc", markdown.encode()))
    return [(m.line_start, m.line_end) for m in result.matches]


@pytest.mark.parametrize(
    ("markdown", "request_"),
    [
        ("> ## a\n> text\n> ## b\n> more\n", "#a/quote"),  # the quote holding a
        ("- ## a\n  text\n- ## b\n  more\n", "#a/list"),
        ("- > ## a\n  > text\n- ## b\n", "#a/list"),
        # The quote starts in a's lines but holds b, the end of them.
        ("- ### a\n  > text\n  > ### b\n\n  > more\n", "#a/quote"),
    ],
)
def test_a_scope_into_a_nested_heading_holds_only_its_own_lines(
    markdown: str, request_: str
) -> None:
    result = select(request_, ("doc", markdown.encode()))
    assert not result.matches
    assert [p.type for p in result.problems] == [SELECTOR_NOT_FOUND]


def test_a_scope_into_a_nested_heading_takes_the_outermost_blocks_in_its_lines() -> None:
    markdown = "> ## a\n> text\n>\n> > q\n> > > qq\n> ## b\n> more\n"
    assert spans("#a/para", markdown) == [(2, 2), (4, 4), (5, 5)]  # none holds another
    assert spans("#a/quote", markdown) == [(4, 5)]
    # The outer quote holds b, so the one inside it, in a's lines, is the outermost there.
    markdown = "- ### a\n  > > inner\n  > ### b\n"
    assert spans("#a/quote", markdown) == [(2, 2)]
    assert spans("#b/quote", markdown) == []


@pytest.mark.parametrize("kind", ["para", "list", "quote"])
def test_scopes_into_nested_headings_agree_with_markdown_it(kind: str) -> None:
    # Generated lists and quotes holding headings, against markdown-it-py's reading: the
    # outermost blocks of each kind after the heading and within its lines.
    checked = found = 0
    for text in documents(150):
        reading = read(text)
        for heading in reading.nested():
            expected = reading.inside(heading, kind)
            assert spans(f"#{heading.title}/{kind}", text) == expected, text
            checked += 1
            found += bool(expected)
    assert checked > 300 and found > 20


def test_all_the_nodes_of_a_scope_are_a_lazy_sequence() -> None:
    """`para` on a hundred thousand paragraphs is one range over their indices; `h1/para`
    over sections next to one another one range too, and over sections apart a chain of
    ranges, never a list of nodes."""
    from mdsel.nodes import NodeChain, NodeRange
    from mdsel.resolve import resolve
    from mdsel.selector import parse_request

    flat = sources(("doc", b"para\n\n" * 100_000))
    (selector,) = parse_request("para")
    nodes = resolve(selector, flat).nodes
    assert isinstance(nodes, NodeRange) and len(nodes) == 100_000
    (selector,) = parse_request("para.5-999999")
    assert isinstance(resolve(selector, flat).nodes, NodeRange)
    sections = sources(("doc", b"# T\n\npara\n\npara\n\n" * 1000))
    (selector,) = parse_request("h1/para")
    nodes = resolve(selector, sections).nodes
    assert isinstance(nodes, NodeRange) and nodes.siblings and len(nodes) == 2000
    apart = sources(("doc", b"# T\n\n## A\n\npara\n\n" * 1000))
    (selector,) = parse_request("h2/para")
    nodes = resolve(selector, apart).nodes
    assert isinstance(nodes, NodeChain) and len(nodes) == 1000


def reference(request: str, docs: list[mdsel.Source]) -> list[tuple[int, str, int]]:
    """What a selector names, worked out node by node: every scope's candidates, each once, in
    document order."""
    from mdsel.nodes import ROOT, Node, first_number
    from mdsel.resolve import candidates
    from mdsel.selector import parse_request

    (selector,) = parse_request(request)
    scopes = [Node(doc, ROOT, -1) for doc in range(len(docs))]
    for segment in selector.segments:
        if segment.type == ROOT:
            continue
        found: dict[Node, None] = {}
        for scope in scopes:
            nodes = list(candidates(docs, scope, segment.type))
            start = first_number(candidates(docs, scope, segment.type))
            for item in segment.items or ():
                first, last = item.first - start, item.last - start
                if last >= 0:
                    found.update(dict.fromkeys(nodes[max(first, 0) : last + 1]))
            if segment.items is None:
                found.update(dict.fromkeys(nodes))
        scopes = sorted(found, key=lambda node: node.position(docs))
    return [(node.doc, node.kind, node.ref) for node in scopes]


BLOCKS = st.sampled_from(
    ["# A\n", "## B\n", "### C\n", "para\n", "- item\n\n  inner\n", "- a\n  - b\n", "```\nx\n```\n"]
)


@settings(max_examples=200, deadline=None)
@given(
    docs=st.lists(st.lists(BLOCKS, max_size=12), min_size=1, max_size=3),
    request_=st.sampled_from(
        [
            "para", "h2", "section", "h1/para", "section/para", "section/section", "h1/h2/para",
            "section/para.0", "section/h3", "h2/para.0,1", "list/para", "list.1/list",
            "section.0-3/para", "h1.1-2,0/section", "h3.0-9/para", "section/list/para",
        ]
    ),
)  # fmt: skip
def test_nodes_are_those_of_every_scope_once_in_document_order(
    docs: list[list[str]], request_: str
) -> None:
    from mdsel.resolve import resolve
    from mdsel.selector import parse_request

    picked = sources(*((f"d{n}", "\n".join(doc).encode()) for n, doc in enumerate(docs)))
    (selector,) = parse_request(request_)
    nodes = resolve(selector, picked).nodes
    assert [(node.doc, node.kind, node.ref) for node in nodes] == reference(request_, picked)


def test_many_scopes_are_read_from_columns(monkeypatch: pytest.MonkeyPatch) -> None:
    """`h1/para` over 100,000 sections: the blocks of sections next to one another are one span
    (no look-up per scope), and no Heading value is made for any scope."""
    from mdsel import resolve as module
    from mdsel.sections import Headings

    made: list[int] = []
    real = Headings.__getitem__

    def counted(self: Headings, index: int) -> object:
        made.append(index)
        return real(self, index)

    looked_up: list[object] = []
    real_candidates = module.candidates

    def counted_candidates(*args: object) -> object:
        looked_up.append(args)
        return real_candidates(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(Headings, "__getitem__", counted)
    monkeypatch.setattr(module, "candidates", counted_candidates)
    from mdsel.selector import parse_request

    docs = sources(("doc", b"# T\n\npara\n\n" * 100_000))

    for request_ in ("h1/para", "h1/section", "h1/h2", "section/code"):
        (selector,) = parse_request(request_)
        module.resolve(selector, docs)
    assert not made and len(looked_up) <= 4
