"""`L812`, `L800-850` and `#anchor` located in the documents a selector applies to."""

from __future__ import annotations

import mdsel
from mdsel.address import HEADING, LINES, ROOT, locate, miss_reason
from mdsel.selector import Segment, parse_request


def sources() -> list[mdsel.Source]:
    texts = {"a": b"intro\n\n# A\n\ntext\n", "b": b"# B\n\n## A\n\nmore\n\nend\n"}
    return [mdsel.Source(ns, f"{ns}.md", mdsel.parse_document(t)) for ns, t in texts.items()]


def segment(text: str) -> Segment:
    return parse_request(text)[0].segments[0]


def test_each_document_answers_for_itself() -> None:
    docs = sources()
    assert locate(segment("L1"), docs, [0, 1]) == [(0, ROOT, -1, 1), (1, HEADING, 0, 1)]
    assert locate(segment("L6"), docs, [0, 1]) == [(1, HEADING, 1, 6)]  # a has 5 lines
    assert locate(segment("L4-99"), docs, [0, 1]) == [(0, LINES, 4, 5), (1, LINES, 4, 7)]
    assert locate(segment("#a"), docs, [0, 1]) == [(0, HEADING, 0, 0), (1, HEADING, 1, 0)]
    assert locate(segment("#b"), docs, [0]) == []


def test_reasons_name_the_document_or_the_longest() -> None:
    docs = sources()
    assert miss_reason(segment("L9"), docs, [0]) == "line 9 is past the end: 'a' (a.md) has 5 lines"
    assert miss_reason(segment("L9-10"), docs, [0, 1]) == (
        "lines 9-10 are past the end of every document: the longest, 'b' (b.md), has 7 lines"
    )
    assert miss_reason(segment("#z"), docs, [1]) == "no heading in 'b' (b.md) has the anchor #z"
