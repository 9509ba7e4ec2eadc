"""One resolved node as a select shows it: its lines, cut by head/tail, the page asked for (or
the one holding the line `L812` asked for), with the next page's selector; or, for `toc=true`,
the outline of its section.
"""

from __future__ import annotations

from collections.abc import Sequence

from mdsel import paginate
from mdsel.address import LINES
from mdsel.budget import page_room
from mdsel.children import BLOCK_TYPE, subsection_selectors
from mdsel.errors import SELECTOR_NOT_FOUND, Problem
from mdsel.locate import page_holding, section_at
from mdsel.nodes import HEADING, ROOT, SECTION, Node, node_selector
from mdsel.outline import fit_outline, outline
from mdsel.provenance import section_titles
from mdsel.results import Match, Options
from mdsel.selector import Params, format_params
from mdsel.tree import Document, Source

Paged = dict[tuple[int, int, int, bool], list[paginate.Span]]
"""Pages already cut in one call, by (document, first line, last line, full)."""


def shown_match(
    node: Node,
    params: Params,
    sources: Sequence[Source],
    options: Options,
    full: bool,
    qualify: bool,
    paged: Paged | None = None,
) -> Match | Problem:
    """The match `node` shows with `params`; `paged`: pages already cut in this call, by
    (document, first line, last line, full), reused (`L10,L20` in one long section)."""
    if params.toc:
        shown = toc_match(node, sources[node.doc], options, full, qualify)
        return shown._replace(params=params._replace(q=None))  # `?toc=true&full=true` as asked
    source = sources[node.doc]
    document = source.document
    selector = node_selector(document, node)
    node_type, whole_first, whole_last = span_of(document, node)
    first, last = paginate.clip_lines(whole_first, whole_last, params.head, params.tail)
    room = page_room(options.answer_tokens, options.json)
    cut = (node.doc, first, last, full)
    spans = paged.get(cut) if paged is not None else None
    if spans is None:
        page_words = None if full else options.page_words
        spans = paginate.pages(document, first, last, page_words, room, options.json)
        if paged is not None:
            paged[cut] = spans
    asked = node.line if node.kind != LINES else 0
    number = params.page or (page_holding(spans, asked) if asked else 1)
    if number > len(spans):
        return Problem(
            SELECTOR_NOT_FOUND,
            "PAGE_OUT_OF_RANGE",
            f"page {number} out of range: {selector} has {len(spans)} "
            f"page{'s' if len(spans) != 1 else ''}",
            selector=selector + format_params(params),
            suggestions=(),
        )
    span = spans[number - 1]
    # Counted over the whole shown part, as the index counts: a token cut across pages is one
    # word there (each page counts its own pieces).
    total_words = document.lines.words_between(spans[0].start, spans[-1].end) if spans else 0
    next_selector = None
    if number < len(spans):
        next_selector = selector + format_params(params._replace(page=number + 1))
    content = document.data[span.start : span.end].decode("utf-8", errors="replace")
    return Match(
        namespace=source.namespace,
        selector=selector,
        type=node_type,
        content=content,
        truncated=len(spans) > 1 or (first, last) != span_of(document, node)[1:],
        line_start=span.line_start,
        line_end=span.line_end,
        page=number,
        total_pages=len(spans),
        words=span.words,
        total_words=total_words,
        next=next_selector,
        subsections=subsection_selectors(document, node),
        children=(),  # filled in by the caller for the matches it shows
        line=asked,
        path=source.path,
        titles=section_titles(document, _section_of(document, node, whole_first)),
        params=params._replace(page=number if number > 1 else None, q=None),
        span_start=whole_first,
        span_end=whole_last,
    )


def toc_match(node: Node, source: Source, options: Options, full: bool, qualify: bool) -> Match:
    """The outline of a heading's section (or of the whole document) as the match's content."""
    document = source.document
    selector = node_selector(document, node)
    node_type, first, last = span_of(document, node)
    if node.kind == ROOT:
        lo, hi = 0, len(document.headings) - 1
    else:
        lo, hi = node.ref, document.headings[node.ref].last
    # Qualified as everywhere else: in JSON always, in text when the call has several documents.
    prefix = f"{source.namespace}::" if options.json or qualify else ""
    hint = f"{prefix}{selector}?toc=true&full=true"
    budget = None if full else options.max_headings
    lines = outline(document, lo, hi, prefix, budget, f"use {hint}")
    if not full:
        room = page_room(options.answer_tokens, options.json)
        lines = fit_outline(document, lo, hi, prefix, budget, lines, room, f"use {hint}")
    text = "\n".join(lines) if hi >= lo else ""
    content = text + "\n" if text else ""
    words = len(content.split())
    subsections = subsection_selectors(document, node)
    return Match(
        source.namespace, selector, node_type, content, False, first, last, 1, 1,
        words, words, None, subsections, (), 0, source.path,
        section_titles(document, _section_of(document, node, first)), TOC, first, last,
    )  # fmt: skip


TOC = Params(toc=True)


def _section_of(document: Document, node: Node, first: int) -> int:
    """The heading whose section holds `node` most closely (-1: the root), for its titles."""
    if node.kind in (HEADING, SECTION):
        return node.ref
    return -1 if node.kind == ROOT else section_at(document, first)


def span_of(document: Document, node: Node) -> tuple[str, int, int]:
    if node.kind == ROOT:
        return "root", 1, document.line_count
    if node.kind == LINES:
        return LINES, node.ref, node.line
    if node.kind in (HEADING, SECTION):
        heading = document.headings[node.ref]
        kind = "section" if node.kind == SECTION else f"heading:h{heading.level}"
        return kind, heading.line_start, heading.section_line_end
    block = document.blocks[node.ref]
    return (f"block:{BLOCK_TYPE[block.kind]}", *document.block_lines(node.ref))
