"""The matches left out: counted without being listed, named in runs from their sequences."""

from __future__ import annotations

import pytest

import mdsel
from mdsel.nodes import HEADING, Node, NodeChain, NodeRange
from mdsel.omitted import Omitted, compact
from mdsel.selector import Params

DOC = b"".join(b"# T%d\n\n## S\n\npara\n\n" % n for n in range(30))


@pytest.fixture
def sources() -> list[mdsel.Source]:
    return [mdsel.Source("a", "a.md", mdsel.parse_document(DOC))]


def test_a_run_of_siblings_is_named_from_its_ends(
    sources: list[mdsel.Source], monkeypatch: pytest.MonkeyPatch
) -> None:
    from mdsel import nodes, omitted

    calls: list[Node] = []

    def counted(document: mdsel.Document, node: Node) -> str:
        calls.append(node)
        return nodes.node_selector(document, node)

    monkeypatch.setattr(omitted, "node_selector", counted)
    left = Omitted(sources)
    left.add(
        NodeRange(0, "para", sources[0].document.blocks.top["para"], siblings=True)[3:], Params()
    )
    assert compact(left, qualify=False) == "para.3-29" and len(calls) == 2
    assert len(left) == 27 and left[0] == ("a", "para.3") and left[-1] == ("a", "para.29")
    assert left == tuple(("a", f"para.{n}") for n in range(3, 30))


def test_runs_keep_their_params_and_count_what_they_do_not_name(
    sources: list[mdsel.Source],
) -> None:
    document = sources[0].document
    h1, h2 = document.headings.numbers.by_level[1:3]
    paras = document.blocks.top["para"]
    left = Omitted(sources)
    left.add(NodeRange(0, HEADING, h1, siblings=True)[:5], Params(head=2))
    # Every other paragraph, then every other h2: runs of one, looked at one by one.
    left.add(NodeChain([NodeRange(0, "para", paras[k : k + 1]) for k in range(0, 30, 2)]), Params())
    left.add(NodeChain([NodeRange(0, HEADING, h2[k : k + 1]) for k in range(0, 30, 2)]), Params())
    assert len(left) == 5 + 15 + 15
    named = ["a::h1.0-4?head=2", *(f"a::para.{k}" for k in range(0, 30, 2))]
    named += [f"a::h2.{k}" for k in range(0, 8, 2)]
    assert compact(left, qualify=True) == " ".join([*named, "… +11 more"])
    # The same listing from the pairs themselves.
    assert compact(tuple(left), qualify=True) == compact(left, qualify=True)
