"""Lazy sequences of nodes: a range over indices and a chain of them behave as the list of
their nodes would."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from mdsel.nodes import HEADING, Node, NodeChain, NodeRange, joined, node_pieces


def test_a_range_slices_into_a_range_numbered_on() -> None:
    headings = NodeRange(0, HEADING, range(10, 20), 5, siblings=True)
    part = headings[2:4]
    assert isinstance(part, NodeRange) and part.siblings and part.offset == 7
    assert list(part) == [Node(0, HEADING, 12), Node(0, HEADING, 13)]
    blocks = NodeRange(1, "para", [3, 5, 8])[1:]
    assert blocks.offset == 0 and list(blocks) == [Node(1, "para", 5), Node(1, "para", 8)]


@given(
    sizes=st.lists(st.integers(0, 6), max_size=6),
    start=st.integers(-20, 20) | st.none(),
    stop=st.integers(-20, 20) | st.none(),
)
def test_a_chain_is_the_list_of_its_parts_nodes(
    sizes: list[int], start: int | None, stop: int | None
) -> None:
    parts = []
    first = 0
    for doc, size in enumerate(sizes):
        parts.append(NodeRange(doc, "para", range(first, first + size)))
        first += size
    chain = NodeChain(parts)
    nodes = [node for part in parts for node in part]
    assert list(chain) == nodes and len(chain) == len(nodes)
    assert [chain[k] for k in range(-len(nodes), len(nodes))] == nodes + nodes
    assert list(chain[start:stop]) == nodes[start:stop]
    assert list(joined(parts)) == nodes
    assert [node for piece in node_pieces(chain) for node in piece] == nodes


def test_pieces_are_of_one_document_and_kind() -> None:
    nodes = (Node(0, "para", 1), Node(0, "para", 2), Node(0, "code", 3), Node(1, "code", 0))
    assert [len(piece) for piece in node_pieces(nodes)] == [2, 1, 1]
