"""One node as shown: the page asked for or the one holding an asked line, the next page's
selector, head/tail, a page past the end as a problem, and toc's outline."""

from __future__ import annotations

import mdsel
from mdsel.errors import Problem
from mdsel.nodes import HEADING, Node
from mdsel.results import Match
from mdsel.selector import Params
from mdsel.shown import Paged, shown_match

BODY = "".join(f"line {n} " + "word " * 40 + "\n\n" for n in range(100))
SOURCE = mdsel.Source("doc", "doc.md", mdsel.parse_document(f"# Top\n\n## Long\n\n{BODY}".encode()))
OPTIONS = mdsel.Options(page_words=500)


NO_PARAMS = Params()


def show(node: Node, params: Params = NO_PARAMS, paged: Paged | None = None) -> Match | Problem:
    return shown_match(node, params, [SOURCE], OPTIONS, False, False, paged)


def test_the_page_holding_an_asked_line_and_the_next_pages_selector() -> None:
    first = show(Node(0, HEADING, 1))
    assert isinstance(first, Match)
    assert (first.page, first.next) == (1, "h2.0?page=2") and first.total_pages > 3
    held = show(Node(0, HEADING, 1, line=150))
    assert isinstance(held, Match)
    assert held.line_start <= 150 <= held.line_end and held.page > 1 and held.line == 150
    assert held.content.startswith(f"line {(held.line_start - 5) // 2} ")


def test_head_narrows_before_paging_and_a_page_past_the_end_is_a_problem() -> None:
    head = show(Node(0, HEADING, 1), Params(head=3))
    assert isinstance(head, Match)
    assert (head.line_start, head.line_end, head.total_pages, head.truncated) == (3, 5, 1, True)
    past = show(Node(0, HEADING, 1), Params(page=99))
    assert isinstance(past, Problem) and past.code == "PAGE_OUT_OF_RANGE"
    assert "h2.0 has" in past.message and past.subject == "h2.0?page=99"


def test_pages_cut_once_are_reused() -> None:
    paged: Paged = {}
    one = show(Node(0, HEADING, 1, line=40), paged=paged)
    assert len(paged) == 1
    (spans,) = paged.values()
    two = show(Node(0, HEADING, 1, line=180), paged=paged)
    assert len(paged) == 1 and next(iter(paged.values())) is spans
    assert isinstance(one, Match) and isinstance(two, Match) and one.page < two.page


def test_toc_shows_the_outline_of_the_section() -> None:
    toc = show(Node(0, HEADING, 0), Params(toc=True))
    assert isinstance(toc, Match)
    assert toc.content.startswith("h1.0 Top 1 ") and "  h2.0 Long 3 " in toc.content
