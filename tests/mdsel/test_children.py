"""What a node contains: the counts of the JSON index agree with the children a select lists."""

from __future__ import annotations

from pathlib import Path

import pytest

from mdsel.children import (
    MAX_CHILDREN,
    children,
    children_counts,
    preview_cut,
    subsection_selectors,
)
from mdsel.nodes import HEADING, ROOT, Node
from mdsel.tree import parse_document
from tests.conftest import real_documents


@pytest.mark.parametrize("path", real_documents(), ids=lambda p: p.name)
def test_counts_are_the_children_listed(path: Path) -> None:
    document = parse_document(path.read_bytes())
    counts, root = children_counts(document)
    assert len(children(document, Node(0, ROOT, -1))) == min(root, MAX_CHILDREN)
    for index, count in enumerate(counts):
        listed = children(document, Node(0, HEADING, index))
        assert len(listed) == min(count, MAX_CHILDREN), (path.name, index)


def test_children_stop_at_the_cap() -> None:
    document = parse_document(b"# T\n\n" + b"".join(b"- item %d\n\n" % i for i in range(500)))
    (listing,) = [i for i, b in enumerate(document.blocks) if b.kind == "list"]
    found = children(document, Node(0, "list", listing))
    assert len(found) == MAX_CHILDREN
    assert found[0].type == "block:paragraph" and found[0].preview == "- item 0"
    assert found[-1].preview == f"- item {MAX_CHILDREN - 1}"


def test_preview_cut_says_when_something_was_left_out() -> None:
    document = parse_document(b"short\n\n" + b"word " * 100 + b"\n")
    assert preview_cut(document, 1, 1) == ("short", False)
    text, cut = preview_cut(document, 3, 3)
    assert cut and len(text) == 80
    assert preview_cut(document, 2, 1) == ("", False)


@pytest.mark.parametrize("path", real_documents(), ids=lambda p: p.name)
def test_subsections_are_the_direct_subsections_counted_and_named(path: Path) -> None:
    """Counted in C, named when asked: what walking every heading would give."""
    document = parse_document(path.read_bytes())
    headings = document.headings
    for node in [Node(0, ROOT, -1), *(Node(0, HEADING, i) for i in range(len(headings)))]:
        last = len(headings) - 1 if node.kind == ROOT else headings[node.ref].last
        inside = range(node.ref + 1, last + 1)
        direct = [i for i in inside if headings[i].parent == node.ref]
        names = tuple(f"h{headings[i].level}.{headings[i].ordinal}" for i in direct)
        subsections = subsection_selectors(document, node)
        assert len(subsections) == len(names) and subsections == names
        assert tuple(subsections[:3]) == names[:3] and list(subsections) == list(names)


def test_a_million_subsections_are_counted_not_listed(monkeypatch: pytest.MonkeyPatch) -> None:
    from mdsel.sections import Headings

    document = parse_document(b"# T\n" + b"## h\n" * 300_000)
    made: list[int] = []
    real = Headings.__getitem__

    def counted(self: Headings, index: int) -> object:
        made.append(index)
        return real(self, index)

    monkeypatch.setattr(Headings, "__getitem__", counted)
    subsections = subsection_selectors(document, Node(0, HEADING, 0))
    assert len(subsections) == 300_000 and subsections[:2] == ("h2.0", "h2.1")
    assert subsections[-1] == "h2.299999" and not made
