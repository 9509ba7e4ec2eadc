"""index() and select(): documents → results as values; run_command(): paths → printed output.

`run_command` is what the `mdsel` CLI prints for an already-expanded list of files; the MCP
server's embedded backend calls it too (with a parse cache), which is why both give the same text.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

from mdsel import paginate
from mdsel.errors import (
    INVALID_SELECTOR,
    PARSE_ERROR,
    ParseError,
    Problem,
    SelectorSyntaxError,
)
from mdsel.files import FileReadError, namespaces, read_bytes
from mdsel.outline import outline
from mdsel.resolve import HEADING, ROOT, SECTION, Node, Source, node_selector, resolve
from mdsel.selector import Params, Selector, format_params, parse_request
from mdsel.suggest import suggest
from mdsel.tree import Document, parse_document

PREVIEW_CHARS = 80


class Options(NamedTuple):
    json: bool = False
    """Render the CLIResponse JSON envelope instead of text."""
    full: bool = False
    """No pagination, no response budget, no outline budget (`--full`, `?full=true`)."""
    page_words: int = 2000
    """Words per page and per response (MDSEL_PAGE_WORDS)."""
    max_headings: int = 250
    """Outline size before deep levels collapse (MDSEL_INDEX_MAX_HEADINGS)."""


DEFAULT_OPTIONS = Options()


class Outcome(NamedTuple):
    stdout: str
    stderr: str
    exit_code: int


class Child(NamedTuple):
    selector: str
    type: str
    preview: str


class Match(NamedTuple):
    """One selected node, as shown (after head/tail and paging)."""

    namespace: str
    selector: str
    """Canonical short selector of the node (`h2.1`, `list.0/code.1`)."""
    type: str
    """root, heading:hN, section or block:<kind>."""
    content: str
    """The shown text: verbatim lines (or a piece of a long line), or an outline for toc."""
    truncated: bool
    line_start: int
    line_end: int
    page: int
    total_pages: int
    words: int
    total_words: int
    next: str | None
    """Selector of the next page, when there is one."""
    subsections: tuple[str, ...]
    children: tuple[Child, ...]


class SelectResult(NamedTuple):
    matches: tuple[Match, ...]
    omitted: tuple[tuple[str, str], ...]
    """(namespace, selector) of matches left out by the response budget."""
    problems: tuple[Problem, ...]
    """Invalid selector, unresolved items and namespaces, in request order."""
    documents: int


class IndexResult(NamedTuple):
    sources: tuple[Source, ...]


def load(
    paths: Sequence[str],
    *,
    parse: Callable[[bytes], Document] | None = None,
    max_bytes: int = 52_428_800,
    cwd: str | None = None,
) -> tuple[list[Source], list[Problem]]:
    """Read and parse each path (relative ones against `cwd`); a file that fails becomes a
    Problem and the rest go on."""
    parse_bytes = parse if parse is not None else parse_document
    loaded: list[tuple[str, Document]] = []
    problems: list[Problem] = []
    for path in paths:
        try:
            document = parse_bytes(read_bytes(path, max_bytes, cwd))
        except FileReadError as exc:
            p = exc.problem
            problems.append(Problem(p.type, p.code, p.message, file=path))
            continue
        except ParseError as exc:
            code = "NUL_BYTE" if exc.reason.startswith("NUL") else "INVALID_UTF8"
            problems.append(
                Problem(
                    PARSE_ERROR,
                    code,
                    f"{exc.reason} at byte offset {exc.offset}; only UTF-8 text can be read",
                    file=path,
                )
            )
            continue
        loaded.append((path, document))
    names = namespaces([path for path, _ in loaded])
    return [Source(n, p, d) for n, (p, d) in zip(names, loaded, strict=True)], problems


def index(sources: Sequence[Source]) -> IndexResult:
    return IndexResult(tuple(sources))


def select(request: str, sources: Sequence[Source], options: Options | None = None) -> SelectResult:
    options = options or DEFAULT_OPTIONS
    try:
        selectors = parse_request(request)
    except SelectorSyntaxError as exc:
        problem = Problem(
            INVALID_SELECTOR,
            "SYNTAX",
            f"{exc.message} at column {exc.column}",
            selector=request.strip()[:200] or request[:200],
            suggestions=suggest(request[:200], sources, range(len(sources))),
        )
        return SelectResult((), (), (problem,), len(sources))

    if not sources:
        return SelectResult((), (), (), 0)  # every file failed; their problems say why
    problems: list[Problem] = []
    found: list[tuple[Node, Selector]] = []
    for selector in selectors:
        resolution = resolve(selector, sources)
        for miss in resolution.misses:
            problems.append(
                Problem(
                    miss.type,
                    "OUT_OF_RANGE" if "out of range" in miss.reason else "NO_MATCH",
                    miss.reason,
                    selector=miss.selector,
                    suggestions=suggest(selector.source, sources, miss.scope, miss.segment),
                )
            )
        for node in resolution.nodes:
            if selector.params.toc and node.kind not in (HEADING, SECTION, ROOT):
                selector_text = node_selector(sources[node.doc].document, node)
                problems.append(
                    Problem(
                        INVALID_SELECTOR,
                        "TOC_NOT_HEADING",
                        f"toc=true needs a heading, section or root; {selector_text} is a "
                        f"{node.kind} block",
                        selector=selector.source,
                    )
                )
                continue
            found.append((node, selector))

    matches: list[Match] = []
    omitted: list[tuple[str, str]] = []
    budget = options.page_words
    used = 0
    for node, selector in found:
        full = options.full or selector.params.full
        shown = _match(node, selector.params, sources, options, full)
        if isinstance(shown, Problem):
            problems.append(shown)
            continue
        if matches and not full and used + shown.words > budget:
            omitted.append((shown.namespace, shown.selector))
            continue
        used += shown.words
        matches.append(shown)
    return SelectResult(tuple(matches), tuple(omitted), tuple(problems), len(sources))


def _match(
    node: Node, params: Params, sources: Sequence[Source], options: Options, full: bool
) -> Match | Problem:
    source = sources[node.doc]
    document = source.document
    selector = node_selector(document, node)
    node_type, first, last = _span(document, node)
    subsections = _subsections(document, node)
    children = _children(document, node)
    if params.toc:
        if node.kind == ROOT:
            lo, hi = 0, len(document.headings) - 1
        else:
            lo, hi = node.ref, document.headings[node.ref].last
        hint = f"{selector}?toc=true&full=true"
        budget = None if full else options.max_headings
        text = "\n".join(outline(document, lo, hi, "", budget, f"use {hint}")) if hi >= lo else ""
        content = text + "\n" if text else ""
        words = len(content.split())
        return Match(
            source.namespace, selector, node_type, content, False, first, last, 1, 1,
            words, words, None, subsections, children,
        )  # fmt: skip
    first, last = paginate.clip_lines(first, last, params.head, params.tail)
    spans = paginate.pages(document, first, last, None if full else options.page_words)
    number = params.page or 1
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
    )


def _span(document: Document, node: Node) -> tuple[str, int, int]:
    if node.kind == ROOT:
        return "root", 1, document.lines.count
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
    if last < first:
        return ""
    start = document.lines.starts[first - 1]
    end = min(document.lines.starts[last], start + PREVIEW_CHARS * 8)
    text = " ".join(document.data[start:end].decode("utf-8", errors="ignore").split())
    return text[:PREVIEW_CHARS]


def run_command(
    command: str,
    selector: str | None,
    paths: Sequence[str],
    options: Options | None = None,
    *,
    parse: Callable[[bytes], Document] | None = None,
    max_bytes: int = 52_428_800,
    problems: Sequence[Problem] = (),
    warnings: Sequence[str] = (),
    cwd: str | None = None,
) -> Outcome:
    """Exactly what `mdsel index|select` prints for these (already expanded) paths.

    `problems` and `warnings` found before reading (path expansion, a caller's read policy) are
    reported in their usual places; relative paths are read against `cwd` (default: the
    process's) and shown as given.
    """
    from mdsel import render_text

    options = options or DEFAULT_OPTIONS
    sources, file_problems = load(paths, parse=parse, max_bytes=max_bytes, cwd=cwd)
    all_file_problems = [*problems, *file_problems]
    if options.json:
        from mdsel import render_json

        if command == "index":
            return render_json.index(index(sources), all_file_problems, warnings, options)
        return render_json.select(
            select(selector or "", sources, options), all_file_problems, warnings
        )
    if command == "index":
        return render_text.index(index(sources), all_file_problems, warnings, options)
    return render_text.select(select(selector or "", sources, options), all_file_problems, warnings)
