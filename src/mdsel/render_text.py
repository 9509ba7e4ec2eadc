"""Results → the text format (what the MCP tools return: token economy is the point).

Strings only; nothing here writes. Selectors are namespace-qualified only when the call named
more than one document.
"""

from __future__ import annotations

from collections.abc import Sequence

from mdsel.budget import answer_room, lines_cost
from mdsel.errors import Problem
from mdsel.outline import block_counts, fit_outline, outline
from mdsel.provenance import match_header
from mdsel.results import IndexResult, Match, Options, Outcome, SelectResult
from mdsel.titles import short_title, shown_title

MAX_LISTED = 12
"""Subsections named in a page trailer; the index lists them all."""


def format_problem(problem: Problem) -> str:
    """`!<selector or path> <TYPE>: <reason>`."""
    # Escaped: a selector or a path may hold a line break or ESC, and must not forge a line.
    return f"!{shown_title(problem.subject)} {problem.type}: {shown_title(problem.message)}"


def _suggestion_line(problem: Problem, qualify: bool) -> str | None:
    if not problem.suggestions:
        return None
    parts = []
    for s in problem.suggestions:
        selector = f"{s.namespace}::{s.selector}" if qualify and s.namespace else s.selector
        selector = shown_title(selector)  # an anchor comes from the document: it may hold anything
        parts.append(f"~{selector} ({short_title(s.title)})" if s.title else f"~{selector}")
    return " ".join(parts)


def _line_break(out: list[str]) -> None:
    """Before a line of ours: a line break after text whose last line ends in a lone CR (a file
    of CR line endings), which a reader splitting at LF would take for the same line."""
    if out and out[-1].endswith("\r"):
        out.append("\n")


def problems_text(problems: Sequence[Problem], qualify: bool) -> str:
    lines: list[str] = []
    for problem in problems:
        lines.append(format_problem(problem))
        suggestion = _suggestion_line(problem, qualify)
        if suggestion:
            lines.append(suggestion)
    return "".join(line + "\n" for line in lines)


def index(
    result: IndexResult,
    file_problems: Sequence[Problem],
    warnings: Sequence[str],
    options: Options,
) -> Outcome:
    out: list[str] = list(warnings)
    budget = None if options.full else answer_room(options.answer_tokens)
    taken = lines_cost(out)
    body = _outlines(result, options, None if budget is None else budget - taken)
    if body is None:
        assert budget is not None  # only a budget can refuse the whole outlines
        from mdsel.catalog import catalog  # a tree's map: most calls print outlines

        body = catalog(result.sources, budget, taken, options.max_headings) or [
            f"[{len(result.sources)} documents: MDSEL_MAX_ANSWER_TOKENS={options.answer_tokens} "
            "is too small to list them; raise it, name fewer files, or use --full on the "
            "command line]"
        ]
    out.extend(body)
    stdout = "\n".join(out) + "\n" if out else ""
    stderr = problems_text(file_problems, result.named > 1) if file_problems else ""
    return Outcome(stdout, stderr, 1 if file_problems else 0)


def _outlines(result: IndexResult, options: Options, room: int | None) -> list[str] | None:
    """Every document's first line and outline, as long as they fit in `room` (a cost,
    mdsel.budget; None: no limit). Several documents that do not fit give None (the caller
    prints a map of them instead); one document's outline is shown in as many headings as fit."""
    qualify = result.named > 1
    out: list[str] = []
    used = 0
    budget = None if options.full else options.max_headings
    for number, source in enumerate(result.sources):
        document = source.document
        if number:
            out.append("")
        # The namespace and path only tell documents apart: a call on one document already
        # knows which it asked for, and selectors are unqualified then.
        named = f"{source.namespace} {shown_title(source.path)} " if qualify else ""
        blocks = block_counts(document)
        out.append(
            f"{named}{document.line_count} lines {document.word_count} words"
            + (f"; {blocks}" if blocks else "")
        )
        prefix = f"{source.namespace}::" if qualify else ""
        lines = outline(document, 0, len(document.headings) - 1, prefix, budget, "use --full")
        if room is not None and len(result.sources) == 1:
            room_left = room - lines_cost(out[-1:])
            last = len(document.headings) - 1
            lines = fit_outline(document, 0, last, prefix, budget, lines, room_left, "use --full")
        out.extend(lines)
        if room is not None and len(result.sources) > 1:
            used += lines_cost(out[-len(lines) - 1 - bool(number) :])
            if used > room:
                return None
    return out


def select(
    result: SelectResult, file_problems: Sequence[Problem], warnings: Sequence[str]
) -> Outcome:
    qualify = result.documents > 1
    out: list[str] = list(w + "\n" for w in warnings)
    if result.search is not None:
        from mdsel import render_search

        out.extend(render_search.text(result.search, qualify))
    for match in result.matches:
        # Every match says where it is from, one or several: the text alone does not say
        # which document, which section of it, or which lines.
        _line_break(out)
        out.append(match_header(match, qualify) + "\n")
        content = match.content
        # A line break ends what does not end in one (an empty file shows nothing).
        out.append(content if not content or content.endswith(("\n", "\r")) else content + "\n")
        trailer = match_trailer(match, qualify)
        if trailer:
            _line_break(out)
            out.append(trailer + "\n")
    if result.omitted:
        from mdsel.omitted import compact, how_to_reach

        _line_break(out)
        names = compact(result.omitted, qualify)
        out.append(
            f"[+{len(result.omitted)} more matches not shown: {names}; "
            f"{how_to_reach(result.capped)}]\n"
        )
    problems = [*file_problems, *result.problems]
    stderr = problems_text(problems, qualify)
    return Outcome("".join(out), stderr, 1 if problems else 0)


def _qualified(match: Match, selector: str, qualify: bool) -> str:
    return f"{match.namespace}::{selector}" if qualify else selector


def match_trailer(match: Match, qualify: bool) -> str | None:
    """The line after a match of which only a part is shown (a page, or head/tail lines),
    saying what was shown of what; None when the match is shown whole."""
    selector = _qualified(match, match.selector, qualify)
    clip = _clip(match, selector, qualify)
    if match.total_pages <= 1:
        return None if clip is None else f"[{clip}]"
    # Claimed only when the page shows the line (it may fall between sections' text).
    on_page = match.line_start <= match.line <= match.line_end
    holding = f", holding line {match.line}" if match.line and on_page else ""
    trailer = (
        f"[page {match.page}/{match.total_pages} of {selector}{holding}: {match.words} "
        f"of {match.total_words} words"
    )
    if match.next is not None:
        trailer += f"; next: {_qualified(match, match.next, qualify)}"
    else:
        trailer += "; the last page"
    if clip is not None:
        trailer += f"; {clip}"
    if match.subsections:
        shown = " ".join(match.subsections[:MAX_LISTED])
        more = len(match.subsections) - MAX_LISTED
        trailer += "; subsections: " + shown + (f" … +{more} more" if more > 0 else "")
    return trailer + "]"


def _clip(match: Match, selector: str, qualify: bool) -> str | None:
    """What head=N or tail=N kept of the match's lines, and the selector of the rest: `head=3:
    3 of h2.1's 40 lines; the rest: L48-84`."""
    params = match.params
    count = None if params is None else params.head if params.head is not None else params.tail
    if params is None or count is None:
        return None
    asked = f"{'head' if params.head is not None else 'tail'}={count}"
    total = match.span_end - match.span_start + 1
    kept = min(count, total)
    if kept >= total:
        return f"{asked}: all {total} line{'s' * (total != 1)} of {selector}"
    if params.head is not None:
        rest = f"L{match.span_start + kept}-{match.span_end}"
    else:
        rest = f"L{match.span_start}-{match.span_end - kept}"
    rest = _qualified(match, rest, qualify)
    return f"{asked}: {kept} of {selector}'s {total} lines; the rest: {rest}"
