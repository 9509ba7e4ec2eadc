"""Where a shown text is from: its document's title and the titles down to it, and the one line
that heads it in an answer, `==> docs/notes.md h3.12 Release Notes › 0.95.0 › Docs L2908-2920 <==`.

A select's matches and a search's text share this line: the document's path, the selector that
selects the text again, the titles from the document's down to the innermost section holding
it (as a search hit lists them) and its lines. The selector comes second and the lines last, so
a reader splitting the line finds both even when a path or a title holds spaces.
"""

from __future__ import annotations

from collections.abc import Sequence

from mdsel.front_matter import front_matter_title
from mdsel.results import Match
from mdsel.selector_values import format_params
from mdsel.titles import printable_path, short_title, shown_title
from mdsel.tree import Document

UNTITLED = "(untitled)"
"""The titles shown for text no title names: a document without one, before its first heading."""


def document_title(document: Document) -> str:
    """The page's title: its front matter's `title:`, else its first heading when that is an
    h1 (a page that opens on an h2 has no title of its own), else empty."""
    if document.front_matter_lines:
        end = document.lines.starts[document.front_matter_lines]
        title = front_matter_title(document.data[:end])
        if title:
            return title
    headings = document.headings
    return headings.title(0) if len(headings) and headings.levels[0] == 1 else ""


def section_titles(document: Document, heading: int) -> tuple[str, ...]:
    """The titles from the document's down to heading `heading` (an index into
    document.headings; -1 for the text before the first heading): the document's title is
    left out where its first heading gives it, as a search hit lists them."""
    chain: list[str] = []
    headings = document.headings
    # Parents are at most six levels up for a heading outside lists and quotes.
    while heading >= 0:
        chain.append(headings.title(heading))
        heading = headings.parents[heading]
    chain.reverse()
    title = document_title(document)
    if title and (not chain or chain[0] != title):
        chain.insert(0, title)
    return tuple(chain)


def shown_titles(titles: Sequence[str]) -> str:
    """`A › B › C` on one line (each cut and escaped as an index line shows a title), or
    UNTITLED."""
    return " › ".join(short_title(title) for title in titles) or UNTITLED


def header(path: str, selector: str, titles: Sequence[str], first: int, last: int) -> str:
    """The line heading a shown text, without its line break."""
    where = shown_title(printable_path(path))
    return f"==> {where} {shown_title(selector)} {shown_titles(titles)} L{first}-{last} <=="


def match_header(match: Match, qualify: bool) -> str:
    """The line heading a select's match: the selector shows this part of it again (its page,
    its head or tail; with its namespace when `qualify`), the lines are those shown."""
    selector = match.selector + (format_params(match.params) if match.params else "")
    if qualify:
        selector = f"{match.namespace}::{selector}"
    return header(match.path, selector, match.titles, match.line_start, match.line_end)
