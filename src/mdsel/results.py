"""The values a command produces: options in, matches and indexes out, and what a run printed.

Below every module that makes or renders them (`api`, `matches`, `render_text`, `render_json`),
so none of those imports another only to reach a type.
"""

from __future__ import annotations

from mdsel._record import NamedTuple
from mdsel.settings import DEFAULT_MAX_ANSWER_TOKENS, DEFAULT_MAX_HEADINGS, DEFAULT_PAGE_WORDS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from mdsel.errors import Problem
    from mdsel.selector_values import Params
    from mdsel.tree import Source


class Options(NamedTuple):
    json: bool = False
    """Render the CLIResponse JSON envelope instead of text."""
    full: bool = False
    """No pagination, no response budget, no outline budget (`--full`, `?full=true`)."""
    page_words: int = DEFAULT_PAGE_WORDS
    """Words per page and per response (MDSEL_PAGE_WORDS)."""
    max_headings: int = DEFAULT_MAX_HEADINGS
    """Outline size before deep levels collapse (MDSEL_INDEX_MAX_HEADINGS)."""
    answer_tokens: int = DEFAULT_MAX_ANSWER_TOKENS
    """Estimated tokens an answer may take unless `full` (MDSEL_MAX_ANSWER_TOKENS)."""


DEFAULT_OPTIONS = Options()


class Outcome(NamedTuple):
    """What one `mdsel index|select` run prints, and its exit status."""

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
    subsections: Sequence[str]
    """The selectors of its direct subsections (a lazy sequence: there may be a million)."""
    children: tuple[Child, ...]
    line: int = 0
    """The line an `L812` selector asked for (the page shown is the one holding it); 0 when
    the selector named no line."""
    path: str = ""
    """Its document's path, as the call named it."""
    titles: tuple[str, ...] = ()
    """The titles from the document's down to the innermost section holding it
    (mdsel.provenance.section_titles)."""
    params: Params | None = None
    """What shows this part of it again after `selector`: head, tail, toc, full as asked, and
    the page when it is not the first (`h2.1?page=3` for the page `L812` found); None for
    none. (Typed only: the server imports these records before any selector module.)"""
    span_start: int = 0
    span_end: int = 0
    """Its lines before head/tail cut them (line_start-line_end are those shown)."""


class Hit(NamedTuple):
    """One section a search found: where it is, why, and how to select it again."""

    namespace: str
    path: str
    selector: str
    """The canonical selector of the section's heading (`h2.3`), or `root`."""
    titles: tuple[str, ...]
    """The titles from the document's down to the section's own."""
    line_start: int
    line_end: int
    """The section's own lines: its heading up to the next heading of any level."""
    words: int
    score: float
    lines: tuple[tuple[int, str], ...]
    """Its best matching lines: (line number, the line, cut to a preview)."""


class Search(NamedTuple):
    """What a search (`?q=…`) answers: a page of ranked hits and the first one's text."""

    query: str
    """The words searched for, as written."""
    hits: tuple[Hit, ...]
    total: int
    """Sections that match in the scope."""
    first: int
    """The rank of hits[0] (1-based): page N starts at hit (N-1) × HITS_PER_PAGE + 1."""
    next: str | None
    """The selector of the next page of hits, when there is one."""
    narrow: str
    """How to narrow the search (a selector, or a hint), for the closing line."""
    text: str
    """The first hit's own lines, verbatim (a part of them when they do not fit)."""
    text_start: int
    text_end: int
    """The lines `text` holds."""
    documents: int
    """Documents searched."""
    text_cut: bool
    """Whether `text` ends inside line `text_end` (a line too long alone for the answer)."""
    left_out: tuple[str, ...]
    """Hits of the page not listed, to fit the answer budget: `namespace::selector` each (as
    many as fit)."""
    unlisted: int
    """How many hits of the page are not listed (named in `left_out` or not)."""


class SelectResult(NamedTuple):
    matches: tuple[Match, ...]
    omitted: Sequence[tuple[str, str]]
    """(namespace, selector) of matches left out by the response budget (or by full=true's
    limits), in order: counted without being listed (mdsel.omitted.Omitted), as a request
    may name a million."""
    problems: tuple[Problem, ...]
    """Invalid selector, unresolved items and namespaces, in request order."""
    documents: int
    search: Search | None = None
    """What a search answered (`matches` is then empty)."""
    capped: bool = False
    """Whether some of `omitted` are matches full=true asked for, past the most one answer
    shows (mdsel.matches.MAX_FULL_MATCHES, MAX_FULL_BYTES)."""
    full: bool = False
    """Whether a selector asked for full=true: its answer has no budget, in JSON either."""


class IndexResult(NamedTuple):
    sources: tuple[Source, ...]
    named: int
    """Documents the call named (selectors are qualified in text when more than one)."""
