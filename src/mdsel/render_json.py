"""Results → the CLIResponse JSON envelope. In JSON mode everything goes in the envelope."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from datetime import UTC, datetime

from mdsel import json_budget
from mdsel.anchors import anchors
from mdsel.budget import answer_room, page_room, text_cost
from mdsel.children import children_counts, preview_cut
from mdsel.errors import NAMESPACE_NOT_FOUND, SELECTOR_NOT_FOUND, Problem
from mdsel.fragments import written_fragment
from mdsel.json_budget import Entries, Measure
from mdsel.names import heading_selector
from mdsel.paginate import one_page
from mdsel.results import IndexResult, Options, Outcome, SelectResult
from mdsel.titles import printable_path
from mdsel.tree import Document

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def _timestamp() -> str:
    now = datetime.now(UTC)
    return now.strftime("%Y-%m-%dT%H:%M:%S.") + f"{now.microsecond // 1000:03d}Z"


def _error(problem: Problem) -> dict[str, Any]:
    entry: dict[str, Any] = {"type": problem.type, "code": problem.code, "message": problem.message}
    if problem.file is not None:
        entry["file"] = printable_path(problem.file)
    if problem.selector is not None:
        entry["selector"] = problem.selector
    if problem.suggestions:
        entry["suggestions"] = [_qualified(s.namespace, s.selector) for s in problem.suggestions]
    return entry


def _qualified(namespace: str, selector: str) -> str:
    return f"{namespace}::{selector}" if namespace else selector


def _body(
    command: str,
    data: dict[str, Any] | None,
    problems: Sequence[Problem],
    warnings: Sequence[str],
    unresolved: Sequence[str] = (),
) -> dict[str, Any]:
    body: dict[str, Any] = {
        "success": not problems,
        "command": command,
        "timestamp": _timestamp(),
        "data": data,
    }
    if unresolved:
        body["unresolved_selectors"] = list(unresolved)
    if warnings:
        body["warnings"] = list(warnings)
    if problems:
        body["errors"] = [_error(p) for p in problems]
    return body


def _dumped(body: dict[str, Any]) -> str:
    return json.dumps(body, ensure_ascii=False, indent=2) + "\n"


def _envelope(
    command: str,
    data: dict[str, Any] | None,
    problems: Sequence[Problem],
    warnings: Sequence[str],
    unresolved: Sequence[str] = (),
) -> Outcome:
    text = _dumped(_body(command, data, problems, warnings, unresolved))
    return Outcome(text, "", 1 if problems else 0)


def _fitted(
    fit: Callable[[Entries, Measure, int, int], tuple[Entries, str]],
    key: str,
    command: str,
    data: dict[str, Any],
    problems: Sequence[Problem],
    warnings: list[str],
    unresolved: Sequence[str],
    options: Options,
) -> None:
    """`data[key]` cut by `fit` (mdsel.json_budget) to the answer budget, unless --full; what
    was left out said in `warnings`."""
    if options.full:
        return

    def measure(entries: Entries, notes: list[str]) -> int:
        body = _body(command, {**data, key: entries}, problems, [*warnings, *notes], unresolved)
        return text_cost(_dumped(body))

    tokens = options.answer_tokens
    data[key], note = fit(data[key], measure, answer_room(tokens), tokens)
    if note:
        warnings.append(note)


def index(
    result: IndexResult,
    file_problems: Sequence[Problem],
    warnings: Sequence[str],
    options: Options,
) -> Outcome:
    documents = []
    total_nodes = 0
    for source in result.sources:
        entry = document_index(source.namespace, source.path, source.document, options)
        total_nodes += 1 + len(entry["headings"]) + sum(entry["blocks"].values())
        documents.append(entry)
    data: dict[str, Any] = {
        "documents": documents,
        "summary": {
            "total_documents": len(documents),
            "total_nodes": total_nodes,
            "total_selectors": total_nodes,
        },
    }
    notes = list(warnings)
    _fitted(json_budget.fit_index, "documents", "index", data, file_problems, notes, (), options)
    return _envelope("index", data, file_problems, notes)


def document_index(
    namespace: str, path: str, document: Document, options: Options
) -> dict[str, Any]:
    headings = document.headings
    counts, root_children = children_counts(document)

    heading_anchors = anchors(document)
    # As a select pages it: over the page's words, or over its share of the answer's budget.
    room = page_room(options.answer_tokens, json=True)
    page_words = options.page_words
    heading_entries = []
    for index, heading in enumerate(headings):
        section_words = document.headings.words.section(index)
        text, cut = preview_cut(document, heading.line_end + 1, heading.section_line_end)
        heading_entries.append(
            {
                "selector": _qualified(namespace, heading_selector(heading.level, heading.ordinal)),
                "type": f"heading:h{heading.level}",
                "depth": heading.level,
                "text": heading.title,
                "anchor": written_fragment(heading_anchors[index]),
                "content_preview": text,
                "truncated": cut,
                "children_count": counts[index],
                "word_count": len(heading.title.encode("utf-8").split()),
                "section_word_count": section_words,
                "section_truncated": not one_page(
                    document, heading.line_start, heading.section_line_end, page_words, room, True
                ),
                "line_start": heading.line_start,
                "line_end": heading.section_line_end,
            }
        )
    root_preview, root_cut = preview_cut(document, 1, document.line_count)
    return {
        "namespace": namespace,
        "file_path": printable_path(path),
        "root": {
            "selector": _qualified(namespace, "root"),
            "type": "root",
            "text": "",
            "content_preview": root_preview,
            "truncated": root_cut,
            "children_count": root_children,
            "word_count": document.word_count,
            "section_word_count": document.word_count,
            "section_truncated": not one_page(
                document, 1, document.line_count, page_words, room, True
            ),
            "line_start": 1,
            "line_end": document.line_count,
        },
        "headings": heading_entries,
        "blocks": {
            "paragraphs": len(document.blocks.top["para"]),
            "code_blocks": len(document.blocks.top["code"]),
            "lists": len(document.blocks.top["list"]),
            "tables": len(document.blocks.top["table"]),
            "blockquotes": len(document.blocks.top["quote"]),
        },
        "line_count": document.line_count,
        "word_count": document.word_count,
    }


def select(
    result: SelectResult,
    file_problems: Sequence[Problem],
    warnings: Sequence[str],
    options: Options | None = None,
) -> Outcome:
    """The envelope of a select, held to `options`' answer budget (the defaults' when None)."""
    matches = []
    for match in result.matches:
        entry: dict[str, Any] = {
            "selector": _qualified(match.namespace, match.selector),
            "type": match.type,
            "content": match.content,
            "truncated": match.truncated,
            "line_start": match.line_start,
            "line_end": match.line_end,
            "file_path": printable_path(match.path),
            "titles": list(match.titles),
        }
        if match.total_pages > 1:
            entry["pagination"] = {
                "page": match.page,
                "total_pages": match.total_pages,
                "words": match.words,
                "total_words": match.total_words,
                "next": _qualified(match.namespace, match.next) if match.next else None,
            }
        entry["children_available"] = [
            {
                "selector": _qualified(match.namespace, c.selector),
                "type": c.type,
                "preview": c.preview,
            }
            for c in match.children
        ]
        matches.append(entry)
    unresolved = [
        {
            "selector": p.selector or "",
            "reason": p.message,
            "suggestions": [_qualified(s.namespace, s.selector) for s in p.suggestions],
        }
        for p in result.problems
        if p.type in (SELECTOR_NOT_FOUND, NAMESPACE_NOT_FOUND)
    ]
    all_warnings = list(warnings)
    if result.omitted:
        from mdsel.omitted import compact, how_to_reach

        names = compact(result.omitted, qualify=True)
        why = how_to_reach(True).split(": ", 1)[1] if result.capped else "response budget"
        all_warnings.append(f"{len(result.omitted)} more matches not shown ({why}): {names}")
    data: dict[str, Any] = {"matches": matches, "unresolved": unresolved}
    if result.search is not None:
        from mdsel import render_search

        matches.extend(render_search.json_matches(result.search))
        data["search"] = render_search.json_summary(result.search)
        if result.search.unlisted:
            tokens = (options or Options()).answer_tokens
            all_warnings.append(
                f"{result.search.unlisted} more hits of this page not listed to fit "
                f"MDSEL_MAX_ANSWER_TOKENS={tokens}: {render_search.unlisted_names(result.search)}"
            )
    problems = [*file_problems, *result.problems]
    unresolved_selectors = [str(u["selector"]) for u in unresolved]
    options = options or Options()
    if result.full:
        options = options._replace(full=True)
    fit = json_budget.fit_select
    _fitted(fit, "matches", "select", data, problems, all_warnings, unresolved_selectors, options)
    return _envelope("select", data, problems, all_warnings, unresolved_selectors)
