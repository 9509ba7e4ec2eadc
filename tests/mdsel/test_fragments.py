"""Fragments: decoded as a page's source has them, written so that a selector reads them back."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

import mdsel
from mdsel.anchors import anchors
from mdsel.fragments import decoded_fragment, written_fragment
from mdsel.selector import parse_request


def test_an_id_a_selector_would_cut_is_written_percent_encoded() -> None:
    assert written_fragment("q?head=1") == "q%3Fhead=1"
    assert written_fragment("a/b,c#d&e%f") == "a%2Fb%2Cc%23d%26e%25f"
    assert written_fragment("installé-1") == "installé-1"  # letters stay as they are


@given(st.text(min_size=1, max_size=20))
def test_a_written_fragment_reads_back_as_the_id(name: str) -> None:
    written = written_fragment(name)
    assert decoded_fragment(written) == name
    if name.isprintable():  # a control character is refused in any anchor
        (selector,) = parse_request(f"#{written}")
        assert [segment.name for segment in selector.segments] == [name]


def test_the_index_lists_an_anchor_that_selects_its_heading() -> None:
    text = "# Doc\n\n## Q\n\nq\n\n## Other {#q?head=1}\n\nother\n"
    doc = mdsel.parse_document(text.encode())
    listed = written_fragment(anchors(doc)[2])
    result = mdsel.select(f"#{listed}", [mdsel.Source("d", "d.md", doc)])
    assert [match.content for match in result.matches] == ["## Other {#q?head=1}\n\nother\n"]
