"""Resolved nodes → the matches a select shows, within the response budget: each node once,
what repeats a shown match dropped, what does not fit named (see shown for one match)."""

from __future__ import annotations

import functools
import re
from bisect import bisect_left, bisect_right
from collections import deque
from collections.abc import Callable, Sequence
from itertools import repeat

from mdsel import paginate
from mdsel.address import LINES
from mdsel.budget import RESERVE, UNITS_PER_TOKEN, answer_room, text_cost, utf8_size
from mdsel.children import children
from mdsel.errors import (
    INVALID_SELECTOR,
    Problem,
    SelectorSyntaxError,
    Suggestion,
)
from mdsel.locate import section_at
from mdsel.nodes import (
    HEADING,
    ROOT,
    SECTION,
    Node,
    NodeRange,
    joined,
    node_pieces,
    node_selector,
)
from mdsel.omitted import MAX_FULL_BYTES, MAX_FULL_MATCHES, Omitted
from mdsel.provenance import match_header
from mdsel.resolve import resolve
from mdsel.results import Match, Options, SelectResult
from mdsel.selector import Params, Selector, parse_request
from mdsel.shown import Paged, shown_match, span_of
from mdsel.suggest import MAX_SUGGESTIONS, suggest
from mdsel.tree import Source

TYPE_CHECKING = False
if TYPE_CHECKING:
    from mdsel.search_index import SearchCache

OMITTED_LINE_COST = 500 * UNITS_PER_TOKEN
"""Room for the line naming matches left out: at most 20 runs of selectors (mdsel.omitted)."""

MIN_MATCH_COST = 16 * UNITS_PER_TOKEN
"""The least room a match takes (its `==>` line, a selector, nothing shown): with less left,
nothing more is cut into pages to see whether it fits."""

HEADER_COST = 4 * UNITS_PER_TOKEN
"""A match's `==> … <==` line beyond the estimate of its own text (the line break, the marks)."""
TRAILER_COST = 80 * UNITS_PER_TOKEN
"""The line after a page or a head/tail part (a page's, its next selector and its subsections'
at most MAX_LISTED; render_text)."""
TRAILER_BYTES = 200
"""The same line in bytes, for full=true's byte bound."""
PROBLEM_COST = 24 * UNITS_PER_TOKEN
"""A problem's line beyond its message and selector (its mark, type and code)."""

MAX_MISFITS = 256
"""Matches cut into pages that did not fit, after which the rest are left out untried: a
request of a million paragraphs is not cut into a million pages to fill the last bytes."""

SMALL = 64
"""Nodes left out that are looked at one by one for repeats (more: looked up from each match
shown)."""

MAX_SUGGESTED_MISSES = 5
"""Misses per request that get suggestions: each search is bounded, but a request can name
thousands of missing items (`h3.0,1,2,…`)."""


def select_matches(
    request: str,
    sources: Sequence[Source],
    options: Options,
    named: int,
    alone: bool,
    left_out: Sequence[str] = (),
    search_cache: SearchCache | None = None,
) -> SelectResult:
    """`named`: the documents the call named, for qualifying selectors; `alone`: whether it
    named its one document and nothing else (see resolve); `search_cache`: where a search
    finds the index of these documents when it was built before (default: built for it)."""
    try:
        selectors = parse_request(request)
    except SelectorSyntaxError as exc:
        return SelectResult((), (), (_syntax_problem(request, exc, sources),), named)
    if not sources:
        return SelectResult((), (), (), named)  # every file failed; their problems say why
    if any(selector.params.q is not None for selector in selectors):
        return _searched(selectors, sources, options, named, alone, left_out, search_cache)
    found, problems = _resolve_all(selectors, sources, alone, left_out)
    picker = _Picker(sources, options, named > 1, several=len(selectors) > 1)
    for selector, nodes in found:
        picker.take(nodes, selector.params)
    return SelectResult(
        tuple(picker.matches),
        picker.omitted,
        (*problems, *picker.problems),
        named,
        capped=picker.capped,
        full=any(selector.params.full for selector, _nodes in found),
    )


class _Picker:
    """The matches a select shows, in request order, within the answer's budget; the nodes
    past it are left out as they come (sequences, never one by one), and only those that may
    show what a match already shown does are cut into pages to tell."""

    def __init__(self, sources: Sequence[Source], options: Options, qualify: bool, several: bool):
        self.sources, self.options, self.qualify = sources, options, qualify
        self.matches: list[Match] = []
        self.problems: list[Problem] = []
        self.omitted = Omitted(sources)
        self.capped = False
        """Whether matches full=true asked for were left out (MAX_FULL_MATCHES, MAX_FULL_BYTES)."""
        self.budget = options.page_words
        self.used = 0
        # The room left for a last "not shown" line (MAX_RUNS runs of selectors) is kept free.
        self.room = answer_room(options.answer_tokens) - RESERVE - OMITTED_LINE_COST
        self.used_cost = 0  # against the room, in estimated tokens (mdsel.budget)
        self.used_bytes = 0  # against MAX_FULL_BYTES
        self.misfits = 0  # matches cut into pages that did not fit
        self.answers = 0  # matches and problems
        # What two selectors show alike (`h2.1,L812` when the section is one page, `L5-7` when
        # that is the section) is shown once: the same lines of the same document, the same
        # text. One selector's nodes are other lines each (two blocks, two headings): only
        # several can repeat one another.
        self.shown_before: set[tuple[str, int, int, str]] | None = set() if several else None
        self.paged: Paged = {}  # a section cut once
        self.shown_lines = _ShownLines()
        self.docs = {source.namespace: doc for doc, source in enumerate(sources)}

    def take(self, nodes: Sequence[Node], params: Params) -> None:
        """Show what fits of one selector's nodes; leave out the rest."""
        full = self.options.full or params.full
        for position, node in enumerate(nodes):
            if self._done(full):
                self._leave_out(nodes[position:], params, full)
                return
            self._take_one(node, params, full)

    def _done(self, full: bool) -> bool:
        """Whether no more of these nodes can be shown: the answer's words or tokens are used
        up (no match takes less than MIN_MATCH_COST), or MAX_MISFITS matches did not fit (or,
        before the first match, MAX_MISFITS problems came instead); with full=true,
        MAX_FULL_MATCHES matches and problems, or MAX_FULL_BYTES bytes, are shown."""
        if not self.matches:
            return self.answers >= MAX_MISFITS  # the first match is shown whatever its size
        if full:
            return self.answers >= MAX_FULL_MATCHES or self.used_bytes >= MAX_FULL_BYTES
        return (
            self.used >= self.budget
            or self.used_cost + MIN_MATCH_COST > self.room
            or self.misfits >= MAX_MISFITS
        )

    def _take_one(self, node: Node, params: Params, full: bool) -> None:
        options = self.options
        shown = shown_match(node, params, self.sources, options, full, self.qualify, self.paged)
        self.answers += 1
        if isinstance(shown, Problem):
            # Its line takes room in the answer as a match would.
            self.used_bytes += utf8_size(shown.message) + utf8_size(shown.selector or "") + 40
            self.used_cost += text_cost(f"{shown.message} {shown.selector or ''}") + PROBLEM_COST
            self.problems.append(shown)
            return
        if self.shown_before is not None:
            key = (shown.namespace, shown.line_start, shown.line_end, shown.content)
            if key in self.shown_before:
                return
            self.shown_before.add(key)
        # Its `==> path selector titles Lx-y <==` line, and a trailer when a part is shown.
        header = match_header(shown, self.qualify)
        size = utf8_size(shown.content) + utf8_size(header) + 2
        clipped = shown.params is not None and (shown.params.head or shown.params.tail)
        trailer = shown.total_pages > 1 or bool(clipped)
        size += TRAILER_BYTES * trailer
        # Estimated only when a budget holds: full=true's 50 MiB are counted in bytes.
        cost = 0
        if not full:
            cost = text_cost(shown.content) + text_cost(header) + HEADER_COST
            cost += TRAILER_COST * trailer
        if (
            self.matches
            and not full
            and (self.used + shown.words > self.budget or self.used_cost + cost > self.room)
        ):
            self.misfits += 1
            self.omitted.add((node,), params)
            return
        self.used += shown.words
        self.used_bytes += size
        self.used_cost += cost
        if options.json:  # the text format never shows children; do not pay for them there
            shown = shown._replace(children=children(self.sources[node.doc].document, node))
        self.matches.append(shown)

    def _leave_out(self, nodes: Sequence[Node], params: Params, full: bool) -> None:
        """Leave out `nodes` but those that show what a match already shown does (several
        selectors): those are dropped, the others named in the closing line."""
        if full and self.matches:  # past full=true's limits, not after problems alone
            self.capped = True
        start = 0
        for position in self._may_repeat_at(nodes, params):
            node = nodes[position]
            shown = shown_match(
                node, params, self.sources, self.options, full, self.qualify, self.paged
            )
            keep = False
            if isinstance(shown, Problem):
                self.problems.append(shown)
            else:
                assert self.shown_before is not None
                key = (shown.namespace, shown.line_start, shown.line_end, shown.content)
                keep = key not in self.shown_before
                self.shown_before.add(key)
            self.omitted.add(nodes[start : position + keep], params)
            start = position + 1
        self.omitted.add(nodes[start:], params)

    def _may_repeat_at(self, nodes: Sequence[Node], params: Params) -> list[int]:
        """The positions in `nodes` (in document order) of the nodes whose lines hold a match
        shown (see _may_repeat), found from each match shown: a node of blocks, or of headings
        of one level, apart from one another is the last starting at or before the match; a
        section is the innermost holding the match's first line or one holding that."""
        if self.shown_before is None or params.toc or not self.matches or not nodes:
            return []
        sources, matches, shown_lines = self.sources, self.matches, self.shown_lines
        if len(nodes) <= SMALL:
            return [
                position
                for position, node in enumerate(nodes)
                if _may_repeat(node, params, sources, matches, shown_lines)
            ]
        found: set[int] = set()
        sections = nodes[0].kind == SECTION
        key = functools.partial(_doc_and_first_line, sources=sources, params=params)
        for match in matches:
            doc = self.docs[match.namespace]
            if sections:
                document = sources[doc].document
                index = section_at(document, match.line_start)
                while index >= 0:
                    found.add(_position(nodes, (doc, index), _doc_and_ref))
                    index = document.headings.parents[index]
            else:
                found.add(_position(nodes, (doc, match.line_start), key))
        return sorted(
            position
            for position in found
            if position >= 0 and _may_repeat(nodes[position], params, sources, matches, shown_lines)
        )


def _position(
    nodes: Sequence[Node], target: tuple[int, int], key: Callable[[Node], tuple[int, int]]
) -> int:
    """The position of the last node whose key is at most `target` (nodes sorted by key), or
    -1."""
    return bisect_right(nodes, target, key=key) - 1


def _doc_and_ref(node: Node) -> tuple[int, int]:
    return node.doc, node.ref


def _doc_and_first_line(node: Node, sources: Sequence[Source], params: Params) -> tuple[int, int]:
    document = sources[node.doc].document
    if node.kind in (HEADING, SECTION) and params.tail is None:
        # The line holding its first byte, from the columns (its lines would be counted).
        return node.doc, document.lines.line_of(document.headings.starts[node.ref])
    _kind, first, last = span_of(document, node)
    return node.doc, paginate.clip_lines(first, last, params.head, params.tail)[0]


def _searched(
    selectors: Sequence[Selector],
    sources: Sequence[Source],
    options: Options,
    named: int,
    alone: bool,
    left_out: Sequence[str],
    cache: SearchCache | None,
) -> SelectResult:
    """A search request: its scope resolved like any selector, then searched (mdsel.search)."""
    from mdsel.search import scope_selector, search

    if len(selectors) > 1:
        written = next(s.source for s in selectors if s.params.q is not None)
        problem = Problem(
            INVALID_SELECTOR,
            "SEARCH_NOT_ALONE",
            f"a search ({written}) is a request of its own: its words run to the end, so put "
            "it last and alone (h2.1?q=words searches inside h2.1)",
            selector=",".join(s.source for s in selectors),
        )
        return SelectResult((), (), (problem,), named)
    selector = selectors[0]
    scoped = scope_selector(selector)
    scope: dict[int, list[tuple[int, int]]] | None = None
    problems: list[Problem] = []
    if scoped is not None:
        found, problems = _resolve_all([scoped], sources, alone, left_out)
        ((_scoped, nodes),) = found
        if not nodes:
            return SelectResult((), (), tuple(problems), named)
        scope = {}
        for node in nodes:
            _kind, first, last = span_of(sources[node.doc].document, node)
            scope.setdefault(node.doc, []).append((first, last))
    answer = search(selector, sources, options, named, scope, cache)
    if isinstance(answer, Problem):
        return SelectResult((), (), (*problems, answer), named)
    return SelectResult((), (), tuple(problems), named, search=answer)


def _may_repeat(
    node: Node,
    params: Params,
    sources: Sequence[Source],
    matches: Sequence[Match],
    shown_lines: _ShownLines,
) -> bool:
    """Whether `node` may show what a match already shown does: the lines it spans hold that
    match's lines (a page of them, or all). Cheap: no page is cut to tell."""
    source = sources[node.doc]
    if params.toc:
        return False  # an outline: shown again only when it is the same outline, rarely
    _kind, first, last = span_of(source.document, node)
    first, last = paginate.clip_lines(first, last, params.head, params.tail)
    return shown_lines.holds(matches, source.namespace, first, last)


class _ShownLines:
    """The lines of the matches shown, per document, so that whether a span of lines holds
    one is a binary search (a request past the budget may have a hundred thousand nodes)."""

    __slots__ = ("by_document", "shown")

    def __init__(self) -> None:
        self.shown = -1  # how many matches the table was made from
        self.by_document: dict[str, tuple[list[int], list[int]]] = {}

    def holds(self, matches: Sequence[Match], namespace: str, first: int, last: int) -> bool:
        """Whether some shown match of `namespace` lies within lines first..last."""
        if self.shown != len(matches):
            self._make(matches)
        starts, least_end = self.by_document.get(namespace, ([], []))
        # Of the matches starting at `first` or later, the one ending soonest: within the span
        # if any is (its start is then within it too).
        k = bisect_left(starts, first)
        return k < len(starts) and least_end[k] <= last

    def _make(self, matches: Sequence[Match]) -> None:
        spans: dict[str, list[tuple[int, int]]] = {}
        for match in matches:
            spans.setdefault(match.namespace, []).append((match.line_start, match.line_end))
        self.by_document = {}
        for namespace, pairs in spans.items():
            pairs.sort()
            least_end = [end for _start, end in pairs]
            for k in range(len(least_end) - 2, -1, -1):
                least_end[k] = min(least_end[k], least_end[k + 1])
            self.by_document[namespace] = ([start for start, _end in pairs], least_end)
        self.shown = len(matches)


def _syntax_problem(request: str, exc: SelectorSyntaxError, sources: Sequence[Source]) -> Problem:
    # The selector is shown trimmed, so the column counts from its first visible character.
    leading = len(request) - len(request.lstrip())
    column = max(1, exc.column - leading) if request.strip() else exc.column
    suggestions = suggest(request[:200], sources, range(len(sources)))
    if _WORDS.fullmatch(request) and not _TYPED.fullmatch(request.strip()) and sources:
        # Words where a selector goes may well be a question: the search is offered after
        # what the words most likely named.
        search = Suggestion("?q=" + " ".join(request.split()))
        suggestions = (*suggestions[: MAX_SUGGESTIONS - 1], search)
    return Problem(
        INVALID_SELECTOR,
        "SYNTAX",
        _with_column(exc.message, column),
        selector=request.strip()[:200] or request[:200],
        suggestions=suggestions,
    )


_WORDS = re.compile(r"[ \t]*[^\W\d][\w\-.' \t]{0,120}")
"""A request of words (no selector punctuation): `cors`, `server warmup`, `dependency_overrides`."""
_TYPED = re.compile(r"[A-Za-z]{1,10}[0-9][0-9.\-]*")
"""A mistyped numbered selector (`h9`, `code3`, `para.2-x`), not a question."""


def _with_column(message: str, column: int) -> str:
    """`unknown type 'x' at column 1; types are …`: the column right after what it locates."""
    depth = 0
    for position, char in enumerate(message):
        depth += (char == "(") - (char == ")")
        if depth == 0 and message.startswith("; ", position):
            return f"{message[:position]} at column {column}{message[position:]}"
    return f"{message} at column {column}"


def _resolve_all(
    selectors: Sequence[Selector],
    sources: Sequence[Source],
    alone: bool,
    left_out: Sequence[str] = (),
) -> tuple[list[tuple[Selector, Sequence[Node]]], list[Problem]]:
    """Every node each selector matches (lazy sequences, in document order), each once, and
    the problems: misses (the first MAX_SUGGESTED_MISSES with suggestions) and toc=true on
    blocks."""
    problems: list[Problem] = []
    found: list[tuple[Selector, Sequence[Node]]] = []
    suggested = 0
    # A node two selectors both name (`h2.2,#usage`) is shown once, as one selector's own
    # list is (`h2.2,3,2`); a selector alone needs no look-up per node.
    seen = _Seen(sources) if len(selectors) > 1 else None
    for selector in selectors:
        resolution = resolve(selector, sources, alone, left_out)
        for miss in resolution.misses:
            suggestions: tuple[Suggestion, ...] = ()
            if suggested < MAX_SUGGESTED_MISSES:
                suggestions = suggest(selector.source, sources, miss.scope, miss.segment)
                suggested += 1
            problems.append(
                Problem(
                    miss.type,
                    _miss_code(miss.reason),
                    miss.reason,
                    selector=miss.selector,
                    suggestions=suggestions,
                )
            )
        nodes = resolution.nodes
        if selector.params.toc:
            outlined: list[Sequence[Node]] = []
            blocks: list[Sequence[Node]] = []
            for piece in node_pieces(nodes):
                (outlined if piece[0].kind in (HEADING, SECTION, ROOT) else blocks).append(piece)
            if blocks:
                count = sum(len(piece) for piece in blocks)
                problems.append(_toc_problem(selector, sources, blocks[0][0], count))
            nodes = joined(outlined)
        if seen is not None:
            nodes = seen.first_time(nodes, selector.params)
        found.append((selector, nodes))
    return found, problems


class _Seen:
    """The nodes earlier selectors of a request named, to name each once. Looked at only where
    two selectors may meet: in the same document, with nodes of the same kind (a section and
    a heading are one), with the same params; and then as marks in a byte per node, set and
    read in C (`para,para` on a million paragraphs is two passes over a bytearray)."""

    def __init__(self, sources: Sequence[Source]) -> None:
        self.sources = sources
        self.pending: dict[tuple[int, str, Params], list[Sequence[Node]]] = {}
        """Pieces of nodes no later selector has met yet, by where they are."""
        self.marks: dict[tuple[int, str, Params], _Marks] = {}

    def first_time(self, nodes: Sequence[Node], params: Params) -> Sequence[Node]:
        kept: list[Sequence[Node]] = []
        mine: dict[tuple[int, str, Params], list[Sequence[Node]]] = {}
        for piece in node_pieces(nodes):
            first = piece[0]
            kind = HEADING if first.kind == SECTION else first.kind
            where = (first.doc, kind, params)
            if where not in self.pending and where not in self.marks:
                mine.setdefault(where, []).append(piece)
                kept.append(piece)
                continue
            marks = self.marks.get(where)
            if marks is None:
                document = self.sources[first.doc].document
                size = len(document.headings) if kind == HEADING else len(document.blocks)
                marks = self.marks[where] = _Marks(size)
            for earlier in self.pending.pop(where, []):
                marks.add(earlier)
            kept.append(marks.new(piece))
        for where, pieces in mine.items():
            if where in self.marks:
                for piece in pieces:
                    self.marks[where].add(piece)
            else:
                self.pending.setdefault(where, []).extend(pieces)
        return joined(kept)


class _Marks:
    """The nodes of one document and kind met so far: a byte per index, and the few that
    `L812` names with its line (a heading at that line is another view of it)."""

    def __init__(self, size: int) -> None:
        self.marked = bytearray(size)
        self.lined: set[tuple[int, int]] = set()

    def add(self, piece: Sequence[Node]) -> None:
        if isinstance(piece, NodeRange):
            deque(map(self.marked.__setitem__, piece.indices, repeat(1)), maxlen=0)
            return
        for node in piece:
            if node.line:
                self.lined.add((node.ref, node.line))
            else:
                self.marked[node.ref] = 1

    def new(self, piece: Sequence[Node]) -> Sequence[Node]:
        """The nodes of `piece` not met yet, which are then met."""
        if isinstance(piece, NodeRange):
            met = bytes(map(self.marked.__getitem__, piece.indices))
            self.add(piece)
            # The runs between the nodes met: slices, which stay runs of siblings when listed.
            parts: list[Sequence[Node]] = []
            start = met.find(0)
            while start >= 0:
                end = met.find(1, start)
                end = len(met) if end < 0 else end
                parts.append(piece[start:end])
                start = met.find(0, end)
            return joined(parts)
        new = []
        for node in piece:
            if node.line:
                if (node.ref, node.line) in self.lined:
                    continue
                self.lined.add((node.ref, node.line))
            elif self.marked[node.ref]:
                continue
            else:
                self.marked[node.ref] = 1
            new.append(node)
        return tuple(new)


def _toc_problem(selector: Selector, sources: Sequence[Source], block: Node, count: int) -> Problem:
    first = node_selector(sources[block.doc].document, block)
    more = f" (and {count - 1} more matches)" if count > 1 else ""
    return Problem(
        INVALID_SELECTOR,
        "TOC_NOT_HEADING",
        f"toc=true needs a heading, section or root; {first} is a {_kind_phrase(block.kind)}{more}",
        selector=selector.source,
    )


def _kind_phrase(kind: str) -> str:
    return "line range" if kind == LINES else f"{kind} block"


def _miss_code(reason: str) -> str:
    past = "out of range" in reason or "past the end" in reason
    return "OUT_OF_RANGE" if past else "NO_MATCH"
