"""Selected matches as shown: the response budget holds every line that comes with them."""

from __future__ import annotations

import pytest

import mdsel
from mdsel import render_text


@pytest.mark.parametrize(
    ("markdown", "request_"),
    [
        ("".join(f"w{n}\n\n" for n in range(5000)), "para"),
        ("".join(f"## H{n}\n\n" for n in range(5000)), "h2"),
        ("".join(f"## H{n}\n\n" for n in range(5000)), "section"),
    ],
)
def test_many_small_matches_fit_the_answer_budget_with_their_headers(
    markdown: str, request_: str
) -> None:
    source = mdsel.Source("doc", "doc.md", mdsel.parse_document(markdown.encode()))
    result = mdsel.select(request_, [source])
    out = render_text.select(result, [], [])
    assert len(out.stdout.encode()) <= 25_000
    assert result.omitted and out.stdout.splitlines()[-1].startswith("[+")


@pytest.mark.parametrize(
    ("request_", "shown"),
    [
        ("h2.1,h2.1", ["h2.1"]),
        ("h2.1,#two", ["h2.1"]),
        ("h2.0,h2.1,h2.0", ["h2.0", "h2.1"]),
        ("h2.1,h2.1?head=1", ["h2.1", "h2.1"]),  # other params: another view of it
    ],
)
def test_a_node_two_selectors_name_is_shown_once(request_: str, shown: list[str]) -> None:
    document = mdsel.parse_document(b"# T\n\n## One\n\na\n\n## Two\n\nb\n")
    result = mdsel.select(request_, [mdsel.Source("doc", "doc.md", document)])
    assert [match.selector for match in result.matches] == shown
