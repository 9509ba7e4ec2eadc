"""The values a command produces: options in, matches and indexes out, and what a run printed.

Below every module that makes or renders them (`api`, `matches`, `render_text`, `render_json`),
so none of those imports another only to reach a type.
"""

from __future__ import annotations

from mdsel._record import NamedTuple
from mdsel.settings import DEFAULT_MAX_ANSWER_TOKENS, DEFAULT_MAX_HEADINGS, DEFAULT_PAGE_WORDS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from mdsel.errors import Problem
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
    subsections: tuple[str, ...]
    children: tuple[Child, ...]
    line: int = 0
    """The line an `L812` selector asked for (the page shown is the one holding it); 0 when
    the selector named no line."""


class SelectResult(NamedTuple):
    matches: tuple[Match, ...]
    omitted: tuple[tuple[str, str], ...]
    """(namespace, selector) of matches left out by the response budget."""
    problems: tuple[Problem, ...]
    """Invalid selector, unresolved items and namespaces, in request order."""
    documents: int


class IndexResult(NamedTuple):
    sources: tuple[Source, ...]
    named: int
    """Documents the call named (selectors are qualified in text when more than one)."""
