"""A search's answer (results.Search) → text and the JSON envelope's matches.

Text: one line saying what matched, then each hit of the page (rank, path, the selector that
selects it, the titles down to it, its lines and words) with its best matching lines, then the
first hit's own lines verbatim under a `==> … <==` header, then a closing line: how many
sections matched, the next page of hits, how to narrow.
"""

from __future__ import annotations

from typing import Any

from mdsel.provenance import header
from mdsel.results import Hit, Search
from mdsel.titles import printable_path, short_title, shown_title


def _selector(hit: Hit, qualify: bool) -> str:
    return f"{hit.namespace}::{hit.selector}" if qualify else hit.selector


def _path(hit: Hit) -> str:
    return shown_title(printable_path(hit.path))


def text(search: Search, qualify: bool) -> list[str]:
    """The answer's lines, each ending in a line break."""
    last = search.first + len(search.hits) - 1
    plural = "s" * (search.total != 1)
    # The documents searched, not those holding a hit: only the listed hits' are known.
    where = f" ({search.documents} documents searched)" if search.documents > 1 else ""
    out = [
        f"search {search.query!r}: {search.total} section{plural} match{'es' * (not plural)}"
        f"{where}, best first; hits {search.first}-{last} below, the first one's text after "
        "them\n"
    ]
    for rank, hit in enumerate(search.hits, start=search.first):
        titles = " › ".join(short_title(title) for title in hit.titles) or "(untitled)"
        out.append(
            f"{rank}. {_path(hit)} {_selector(hit, qualify)} {titles} "
            f"L{hit.line_start}-{hit.line_end} {hit.words} words\n"
        )
        out.extend(f"   {number}: {line}\n" for number, line in hit.lines)
    best = search.hits[0]
    selector = _selector(best, qualify)
    # The same line as a select's match: its selector, titles and the lines shown.
    out.append("\n" + header(best.path, selector, best.titles, search.text_start, search.text_end))
    out.append("\n")
    body = search.text
    # After a lone CR too, as select does: a terminal would write the next line over the last.
    out.append(body if not body or body.endswith("\n") else body + "\n")
    if _truncated(search) or not search.text:
        # The rest from the first line not shown whole: the line cut short is asked again.
        start = search.text_end if search.text_cut or not search.text else search.text_end + 1
        lines = f"L{start}-{best.line_end}" if start < best.line_end else f"L{start}"
        rest = f"{best.namespace}::{lines}" if qualify else lines
        short = f", line {search.text_end} cut short" if search.text_cut else ""
        out.append(
            f"[lines {search.text_start}-{search.text_end} of the section's "
            f"{best.line_start}-{best.line_end}{short}; the rest: {rest}]\n"
        )
    closing = f"[{search.total} section{plural} match{'es' * (not plural)}"
    if search.unlisted:
        listed = search.first + len(search.hits)
        closing += (
            f"; hits {listed}-{listed + search.unlisted - 1} not listed, to fit the answer "
            f"budget: {unlisted_names(search)}"
        )
    if search.next is not None:
        closing += f"; next hits: {search.next}"
    out.append(f"{closing}; to narrow, search {search.narrow}]\n")
    return out


def unlisted_names(search: Search) -> str:
    """The hits of the page not listed: those named, and how many more (`+3 more`)."""
    unnamed = search.unlisted - len(search.left_out)
    return " ".join((*search.left_out, *([f"+{unnamed} more"] if unnamed else [])))


def _truncated(search: Search) -> bool:
    """Whether the first hit's text is less than its section's own lines."""
    return search.text_cut or search.text_end < search.hits[0].line_end


def json_matches(search: Search, qualify_all: bool = True) -> list[dict[str, Any]]:
    """Each hit of the page as a match of the JSON envelope, in rank order; the first one
    carries its text (`content`), the others none."""
    matches = []
    for rank, hit in enumerate(search.hits):
        first = rank == 0
        matches.append(
            {
                "selector": f"{hit.namespace}::{hit.selector}",
                "type": "root" if hit.selector == "root" else "section",
                "content": search.text if first else "",
                "truncated": first and _truncated(search),
                "line_start": hit.line_start,
                "line_end": hit.line_end,
                "file_path": printable_path(hit.path),
                "titles": list(hit.titles),
                "score": hit.score,
                "words": hit.words,
                "hit_lines": [{"line": number, "text": line} for number, line in hit.lines],
                "children_available": [],
            }
        )
    return matches


def json_summary(search: Search) -> dict[str, Any]:
    """The envelope's `search` object: what was searched, how many matched, what is next."""
    return {
        "query": search.query,
        "total": search.total,
        "first": search.first,
        "next": search.next,
        "documents": search.documents,
    }
