"""Resolved nodes → the matches a select shows: spans, head/tail, pages, toc, children, budget."""

from __future__ import annotations

from collections.abc import Sequence

from mdsel import paginate
from mdsel.address import LINES
from mdsel.api import Child, Match, Options, SelectResult
from mdsel.errors import INVALID_SELECTOR, Problem, SelectorSyntaxError, Suggestion
from mdsel.locate import page_holding
from mdsel.outline import outline
from mdsel.resolve import HEADING, ROOT, SECTION, Node, node_selector, resolve
from mdsel.selector import Params, Selector, format_params, parse_request
from mdsel.suggest import suggest
from mdsel.tree import Document, Source

PREVIEW_CHARS = 80
MAX_SUGGESTED_MISSES = 5
"""Misses per request that get suggestions: each search is bounded, but a request can name
thousands of missing items (`h3.0,1,2,…`)."""
MAX_CHILDREN = 100
"""children_available entries per match: a list of 20,000 items is not a menu."""


def select_matches(
    request: str, sources: Sequence[Source], options: Options, named: int
) -> SelectResult:
    try:
        selectors = parse_request(request)
    except SelectorSyntaxError as exc:
        # The selector is shown trimmed, so the column counts from its first visible character.
        leading = len(request) - len(request.lstrip())
        column = max(1, exc.column - leading) if request.strip() else exc.column
        problem = Problem(
            INVALID_SELECTOR,
            "SYNTAX",
            f"{exc.message} at column {column}",
            selector=request.strip()[:200] or request[:200],
            suggestions=suggest(request[:200], sources, range(len(sources))),
        )
        return SelectResult((), (), (problem,), named)

    if not sources:
        return SelectResult((), (), (), named)  # every file failed; their problems say why
    problems: list[Problem] = []
    found: list[tuple[Node, Selector]] = []
    suggested = 0
    for selector in selectors:
        resolution = resolve(selector, sources)
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
            first = node_selector(sources[not_headings[0].doc].document, not_headings[0])
            problems.append(
                Problem(
                    INVALID_SELECTOR,
                    "TOC_NOT_HEADING",
                    f"toc=true needs a heading, section or root; {first} is a "
                    + _kind_phrase(not_headings[0].kind)
                    + (
                        f" (and {len(not_headings) - 1} more matches)"
                        if len(not_headings) > 1
                        else ""
                    ),
                    selector=selector.source,
                )
            )
        for node in resolution.nodes:
            if not (selector.params.toc and node.kind not in (HEADING, SECTION, ROOT)):
                found.append((node, selector))

    matches: list[Match] = []
    omitted: list[tuple[str, str]] = []
    budget = options.page_words
    used = 0
    for node, selector in found:
        full = options.full or selector.params.full
        if matches and not full and used >= budget:
            # No room left: name it without cutting pages or listing children for it.
            omitted.append(_listed(node, selector.params, sources))
            continue
        shown = _match(node, selector.params, sources, options, full, named > 1)
        if isinstance(shown, Problem):
            problems.append(shown)
            continue
        if matches and not full and used + shown.words > budget:
            omitted.append(_listed(node, selector.params, sources))
            continue
        used += shown.words
        if options.json:  # the text format never shows children; do not pay for them there
            shown = shown._replace(children=_children(sources[node.doc].document, node))
        matches.append(shown)
    return SelectResult(tuple(matches), tuple(omitted), tuple(problems), named)


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
    """The params an omitted match is listed with, so selecting it shows what was asked for."""
    return format_params(params._replace(page=None))


def _match(
    node: Node,
    params: Params,
    sources: Sequence[Source],
    options: Options,
    full: bool,
    qualify: bool,
) -> Match | Problem:
    source = sources[node.doc]
    document = source.document
    selector = node_selector(document, node)
    node_type, first, last = _span(document, node)
    subsections = _subsections(document, node)
    children: tuple[Child, ...] = ()  # filled in by the caller for the matches it shows
    if params.toc:
        if node.kind == ROOT:
            lo, hi = 0, len(document.headings) - 1
        else:
            lo, hi = node.ref, document.headings[node.ref].last
        # Qualified as everywhere else: in JSON always, in text when the call has several documents.
        prefix = f"{source.namespace}::" if options.json or qualify else ""
        hint = f"{prefix}{selector}?toc=true&full=true"
        budget = None if full else options.max_headings
        lines = outline(document, lo, hi, prefix, budget, f"use {hint}")
        text = "\n".join(lines) if hi >= lo else ""
        content = text + "\n" if text else ""
        words = len(content.split())
        return Match(
            source.namespace, selector, node_type, content, False, first, last, 1, 1,
            words, words, None, subsections, children,
        )  # fmt: skip
    first, last = paginate.clip_lines(first, last, params.head, params.tail)
    spans = paginate.pages(document, first, last, None if full else options.page_words)
    asked = node.line if node.kind != LINES else 0
    number = params.page or (page_holding(spans, asked) if asked else 1)
    if number > len(spans):
        return Problem(
            "SELECTOR_NOT_FOUND",
            "PAGE_OUT_OF_RANGE",
            f"page {number} out of range: {selector} has {len(spans)} "
            f"page{'s' if len(spans) != 1 else ''}",
            selector=selector + format_params(params),
            suggestions=(),
        )
    span = spans[number - 1]
    total_words = sum(s.words for s in spans)
    next_selector = None
    if number < len(spans):
        next_selector = selector + format_params(params._replace(page=number + 1))
    content = document.data[span.start : span.end].decode("utf-8", errors="replace")
    return Match(
        namespace=source.namespace,
        selector=selector,
        type=node_type,
        content=content,
        truncated=len(spans) > 1 or (first, last) != _span(document, node)[1:],
        line_start=span.line_start,
        line_end=span.line_end,
        page=number,
        total_pages=len(spans),
        words=span.words,
        total_words=total_words,
        next=next_selector,
        subsections=subsections,
        children=children,
        line=asked,
    )


def _span(document: Document, node: Node) -> tuple[str, int, int]:
    if node.kind == ROOT:
        return "root", 1, document.line_count
    if node.kind == LINES:
        return LINES, node.ref, node.line
    if node.kind in (HEADING, SECTION):
        heading = document.headings[node.ref]
        kind = "section" if node.kind == SECTION else f"heading:h{heading.level}"
        return kind, heading.line_start, heading.section_line_end
    block = document.blocks[node.ref]
    return (f"block:{_BLOCK_TYPE[block.kind]}", *document.block_lines(node.ref))


_BLOCK_TYPE = {
    "para": "paragraph",
    "code": "code",
    "list": "list",
    "table": "table",
    "quote": "blockquote",
}


def _subsections(document: Document, node: Node) -> tuple[str, ...]:
    if node.kind not in (HEADING, SECTION, ROOT):
        return ()
    return tuple(
        f"h{document.headings[i].level}.{document.headings[i].ordinal}"
        for i in direct_subsections(document, node)
    )


def direct_subsections(document: Document, node: Node) -> list[int]:
    headings = document.headings
    if node.kind == ROOT:
        return [i for i, h in enumerate(headings) if h.parent == -1]
    result = []
    i = node.ref + 1
    last = headings[node.ref].last
    while i <= last:
        result.append(i)
        i = headings[i].last + 1  # skip the subsection's own descendants
    return result


def _children(document: Document, node: Node) -> tuple[Child, ...]:
    return _all_children(document, node)[:MAX_CHILDREN]


def _all_children(document: Document, node: Node) -> tuple[Child, ...]:
    """Direct subsections plus the outermost blocks before the first of them (for a heading or
    the root), or the blocks directly in a list's or quote's items."""
    children: list[Child] = []
    if node.kind in (HEADING, SECTION, ROOT):
        subs = direct_subsections(document, node)
        begin = 0 if node.kind == ROOT else document.headings[node.ref].start
        end = (
            document.headings[subs[0]].start
            if subs
            else (
                document.headings[node.ref].section_end if node.kind != ROOT else len(document.data)
            )
        )
        blocks = [b for b in _top_blocks_between(document, begin, end)]
        for i in blocks:
            children.append(_block_child(document, i))
        for i in subs:
            heading = document.headings[i]
            children.append(
                Child(
                    f"h{heading.level}.{heading.ordinal}",
                    f"heading:h{heading.level}",
                    heading.title[:PREVIEW_CHARS],
                )
            )
        return tuple(children)
    if node.kind in ("list", "quote"):
        child = node.ref + 1
        while child <= document.block_last[node.ref]:
            children.append(_block_child(document, child))
            child = document.block_last[child] + 1  # skip the child's own descendants
    return tuple(children)


def _top_blocks_between(document: Document, start: int, end: int) -> list[int]:
    found: list[int] = []
    for kind in document.top_blocks:
        found.extend(document.top_blocks_between(kind, start, end))
    return sorted(found)


def _block_child(document: Document, index: int) -> Child:
    kind = document.blocks[index].kind
    selector = node_selector(document, Node(0, kind, index))
    return Child(
        selector,
        f"block:{_BLOCK_TYPE[kind]}",
        preview(document, *document.block_lines(index)),
    )


def preview(document: Document, first: int, last: int) -> str:
    """First PREVIEW_CHARS characters of lines first..last, whitespace collapsed."""
    return preview_cut(document, first, last)[0]


def preview_cut(document: Document, first: int, last: int) -> tuple[str, bool]:
    """The preview, and whether anything of lines first..last was left out of it."""
    if last < first:
        return "", False
    start = document.lines.starts[first - 1]
    stop = document.lines.starts[last]
    end = min(stop, start + PREVIEW_CHARS * 8)
    text = " ".join(document.data[start:end].decode("utf-8", errors="ignore").split())
    more = end < stop and document.lines.mask.find(b"x", end, stop) >= 0
    return text[:PREVIEW_CHARS], len(text) > PREVIEW_CHARS or more
