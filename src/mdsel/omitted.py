"""The matches a select left out, as the closing line names them: kept as the node sequences
they come from, so that a request naming a million nodes lists the first few runs of them
(`para.444-1747625`) and counts the rest without making a selector for each.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from mdsel.address import LINES
from mdsel.nodes import Node, NodeRange, node_pieces, node_selector
from mdsel.selector import Params, format_params
from mdsel.tree import Source

MAX_RUNS = 20
"""Runs of selectors named in a "not shown" line: `para.1-99999` names a hundred thousand."""

MAX_FULL_MATCHES = 10_000
"""Matches (and problems) one answer shows with full=true, which has no budget: past them,
the rest are named as matches past the budget are, and the closing line says so."""

MAX_FULL_BYTES = 50 * 1024 * 1024
"""Bytes of matches one answer shows with full=true (its first match is shown whole)."""

MAX_LOOKED_AT = 2000
"""Matches looked at one by one to name those runs (those of a run of siblings are not)."""


class Omitted(Sequence[tuple[str, str]]):
    """(namespace, selector) of each match left out, in order: `len` counts them without
    listing them, and an item is listed when asked for."""

    __slots__ = ("_parts", "_size", "_sources")

    def __init__(self, sources: Sequence[Source]) -> None:
        self._sources = sources
        self._parts: list[tuple[Sequence[Node], Params]] = []
        self._size = 0

    def add(self, nodes: Sequence[Node], params: Params) -> None:
        """Leave out `nodes`, as selected with `params`."""
        if len(nodes):
            self._parts.append((nodes, params))
            self._size += len(nodes)

    def __len__(self) -> int:
        return self._size

    def __getitem__(self, key):  # type: ignore[no-untyped-def]
        if isinstance(key, slice):
            return tuple(self)[key]
        if key < 0:
            key += self._size
        if not 0 <= key < self._size:
            raise IndexError("omitted index out of range")
        for nodes, params in self._parts:
            if key < len(nodes):
                return listed(nodes[key], params, self._sources)
            key -= len(nodes)
        raise IndexError("omitted index out of range")  # pragma: no cover

    def __iter__(self) -> Iterator[tuple[str, str]]:
        for nodes, params in self._parts:
            for node in nodes:
                yield listed(node, params, self._sources)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (Omitted, tuple, list)):
            return len(self) == len(other) and tuple(self) == tuple(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Omitted({len(self)})"

    def runs(self, qualify: bool) -> Iterator[Run]:
        """The runs of the listed selectors, in order, before they are merged (see compact):
        a run of siblings comes whole, from its first and last node, never node by node."""
        for nodes, params in self._parts:
            kept = kept_params(params)
            for piece in node_pieces(nodes):
                run = _siblings_run(piece, kept, self._sources, qualify)
                if run is not None:
                    yield run
                    continue
                for node in piece:
                    namespace, selector = listed(node, params, self._sources)
                    yield split_selector(_qualified(namespace, selector, qualify))


Run = tuple[str, str, int, int, int]
"""A run of selectors: stem, params, first and last number (-1: a selector kept whole), and
how many matches it names (`list.3/para`, `?head=2`, 0, 4, 5: `list.3/para.0-4?head=2`)."""


def _siblings_run(
    piece: Sequence[Node], params: str, sources: Sequence[Source], qualify: bool
) -> Run | None:
    """A run of siblings (`para.3` … `para.9`) as one run, from its first and last node."""
    if not isinstance(piece, NodeRange) or not piece.siblings or piece.kind == LINES:
        return None
    source = sources[piece.doc]
    first, last = (
        split_selector(
            _qualified(source.namespace, node_selector(source.document, node) + params, qualify)
        )
        for node in (piece[0], piece[-1])
    )
    if first[:2] != last[:2] or first[2] < 0 or last[2] - first[2] != len(piece) - 1:
        return None
    return first[0], first[1], first[2], last[2], len(piece)


def _qualified(namespace: str, selector: str, qualify: bool) -> str:
    return f"{namespace}::{selector}" if qualify else selector


def split_selector(selector: str) -> Run:
    """`h2.5?head=2` → (`h2`, `?head=2`, 5, 5, 1); a selector not ending in a number (before
    its params) → (itself, ``, -1, -1, 1)."""
    written, mark, params = selector.partition("?")
    stem, dot, tail = written.rpartition(".")
    if dot and tail.isdigit():
        number = int(tail)
        return stem, mark + params, number, number, 1
    return selector, "", -1, -1, 1


def compact(omitted: Sequence[tuple[str, str]], qualify: bool) -> str:
    """`h2.5 h2.6 h2.7 code.1` → `h2.5-7 code.1` (params kept after the range: `h2.5-7?head=2`):
    at most MAX_RUNS runs, then `… +N more` (the matches past them). Runs of siblings are
    taken whole, other matches looked at one by one up to MAX_LOOKED_AT, so a million left out
    cost what a few do."""
    if isinstance(omitted, Omitted):
        pieces: Iterator[Run] = omitted.runs(qualify)
    else:
        pieces = (
            split_selector(_qualified(namespace, selector, qualify))
            for namespace, selector in omitted
        )
    runs: list[Run] = []
    looked_at = 0
    for stem, params, first, last, count in pieces:
        looked_at += count == 1
        previous = runs[-1] if runs else None
        if previous and previous[:2] == (stem, params) and previous[3] == first - 1 >= 0:
            runs[-1] = (stem, params, previous[2], last, previous[4] + count)
        elif len(runs) == MAX_RUNS:
            break
        else:
            runs.append((stem, params, first, last, count))
        if looked_at >= MAX_LOOKED_AT:
            break
    parts = [
        stem
        if first < 0
        else f"{stem}.{first}{params}"
        if first == last
        else f"{stem}.{first}-{last}{params}"
        for stem, params, first, last, _count in runs
    ]
    named = sum(run[4] for run in runs)
    if named < len(omitted):
        parts.append(f"… +{len(omitted) - named} more")
    return " ".join(parts)


def how_to_reach(capped: bool) -> str:
    """What the closing line says to do about the matches it names."""
    if capped:
        return (
            "select them one at a time or in ranges: full=true shows at most "
            f"{MAX_FULL_MATCHES} matches and {MAX_FULL_BYTES // 2**20} MiB in one answer"
        )
    return "select them one at a time or add ?full=true"


def listed(node: Node, params: Params, sources: Sequence[Source]) -> tuple[str, str]:
    """(namespace, selector) a match left out by the response budget is listed with."""
    source = sources[node.doc]
    if node.line and node.kind != LINES:
        selected = f"L{node.line}"  # as written: the section's selector alone shows page 1
    else:
        selected = node_selector(source.document, node)
    return source.namespace, selected + kept_params(params)


def kept_params(params: Params) -> str:
    """The params an omitted match is listed with, so selecting it shows what was asked for
    (`h2.1?page=2` listed so: its first page is other text; `page=1` is what no page gives)."""
    return format_params(params._replace(page=None) if params.page == 1 else params)
