"""Resolved nodes → the matches a select shows, within the response budget: each node once,
what repeats a shown match dropped, what does not fit named (see shown for one match)."""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Sequence

from mdsel import paginate
from mdsel.address import LINES
from mdsel.budget import RESERVE_BYTES, answer_bytes, utf8_size
from mdsel.children import children
from mdsel.errors import (
    INVALID_SELECTOR,
    Problem,
    SelectorSyntaxError,
    Suggestion,
)
from mdsel.nodes import HEADING, ROOT, SECTION, Node, node_selector
from mdsel.resolve import resolve
from mdsel.results import Match, Options, SelectResult
from mdsel.selector import Params, Selector, format_params, parse_request
from mdsel.shown import Paged, shown_match, span_of
from mdsel.suggest import MAX_SUGGESTIONS, suggest
from mdsel.tree import Source

TYPE_CHECKING = False
if TYPE_CHECKING:
    from mdsel.search_index import SearchCache

OMITTED_LINE_BYTES = 1024
"""Room for the line naming matches left out: at most 20 runs of selectors (render_text)."""

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
    matches: list[Match] = []
    omitted: list[tuple[str, str]] = []
    budget = options.page_words
    used = 0
    # The room left for a last "not shown" line (MAX_RUNS runs of selectors) is kept free.
    room = answer_bytes(options.answer_tokens) - RESERVE_BYTES - OMITTED_LINE_BYTES
    used_bytes = 0
    # What two selectors show alike (`h2.1,L812` when the section is one page, `L5-7` when that
    # is the section) is shown once: the same lines of the same document, the same text.
    # One selector's nodes are other lines each (two blocks, two headings): only several can
    # repeat one another.
    several = len(selectors) > 1
    shown_before: set[tuple[str, int, int, str]] | None = set() if several else None
    paged: Paged = {}  # a section cut once
    shown_lines = _ShownLines()
    for node, selector in found:
        full = options.full or selector.params.full
        no_room = bool(matches) and not full and (used >= budget or used_bytes >= room)
        if no_room and not (
            several and _may_repeat(node, selector.params, sources, matches, shown_lines)
        ):
            # No room left: name it without cutting pages or listing children for it.
            omitted.append(_listed(node, selector.params, sources))
            continue
        shown = shown_match(node, selector.params, sources, options, full, named > 1, paged)
        if isinstance(shown, Problem):
            problems.append(shown)
            continue
        if shown_before is not None:
            key = (shown.namespace, shown.line_start, shown.line_end, shown.content)
            if key in shown_before:
                continue
            shown_before.add(key)
        if no_room:
            omitted.append(_listed(node, selector.params, sources))
            continue
        # The `==> h2.0 L45-74 <==` line and a page trailer come with it.
        size = (
            utf8_size(shown.content)
            + utf8_size(shown.selector)
            + 40
            + 160 * (shown.next is not None)
        )
        if matches and not full and (used + shown.words > budget or used_bytes + size > room):
            omitted.append(_listed(node, selector.params, sources))
            continue
        used += shown.words
        used_bytes += size
        if options.json:  # the text format never shows children; do not pay for them there
            shown = shown._replace(children=children(sources[node.doc].document, node))
        matches.append(shown)
    return SelectResult(tuple(matches), tuple(omitted), tuple(problems), named)


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
        if not found:
            return SelectResult((), (), tuple(problems), named)
        scope = {}
        for node, _selector in found:
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
) -> tuple[list[tuple[Node, Selector]], list[Problem]]:
    """Every node the selectors match, with the selector that matched it, and the problems:
    misses (the first MAX_SUGGESTED_MISSES with suggestions) and toc=true on blocks."""
    problems: list[Problem] = []
    found: list[tuple[Node, Selector]] = []
    suggested = 0
    # A node two selectors both name (`h2.2,#usage`) is shown once, as one selector's own
    # list is (`h2.2,3,2`); a selector alone needs no look-up per node.
    seen: set[tuple[Node, object]] | None = set() if len(selectors) > 1 else None
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
        not_headings = [n for n in resolution.nodes if n.kind not in (HEADING, SECTION, ROOT)]
        if selector.params.toc and not_headings:
            problems.append(_toc_problem(selector, sources, not_headings))
        for node in resolution.nodes:
            if selector.params.toc and node.kind not in (HEADING, SECTION, ROOT):
                continue
            if seen is not None:
                # `section.3` is the heading `h2.1` may name: one node under either name.
                key = (
                    node._replace(kind=HEADING) if node.kind == SECTION else node,
                    selector.params,
                )
                if key in seen:
                    continue
                seen.add(key)
            found.append((node, selector))
    return found, problems


def _toc_problem(selector: Selector, sources: Sequence[Source], blocks: list[Node]) -> Problem:
    first = node_selector(sources[blocks[0].doc].document, blocks[0])
    more = f" (and {len(blocks) - 1} more matches)" if len(blocks) > 1 else ""
    return Problem(
        INVALID_SELECTOR,
        "TOC_NOT_HEADING",
        f"toc=true needs a heading, section or root; {first} is a "
        f"{_kind_phrase(blocks[0].kind)}{more}",
        selector=selector.source,
    )


def _kind_phrase(kind: str) -> str:
    return "line range" if kind == LINES else f"{kind} block"


def _miss_code(reason: str) -> str:
    past = "out of range" in reason or "past the end" in reason
    return "OUT_OF_RANGE" if past else "NO_MATCH"


def _listed(node: Node, params: Params, sources: Sequence[Source]) -> tuple[str, str]:
    """(namespace, selector) a match left out by the response budget is listed with."""
    source = sources[node.doc]
    if node.line and node.kind != LINES:
        selected = f"L{node.line}"  # as written: the section's selector alone shows page 1
    else:
        selected = node_selector(source.document, node)
    return source.namespace, selected + _kept_params(params)


def _kept_params(params: Params) -> str:
    """The params an omitted match is listed with, so selecting it shows what was asked for
    (`h2.1?page=2` listed so: its first page is other text; `page=1` is what no page gives)."""
    return format_params(params._replace(page=None) if params.page == 1 else params)
