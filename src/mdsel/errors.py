"""The error values every edge reports, and the two exceptions the core raises.

The six types of the JSON envelope:

    FILE_NOT_FOUND       a path that does not exist, or a pattern that matched nothing
    PARSE_ERROR          not Markdown text: invalid UTF-8 or a NUL byte (with its byte offset),
                         or more blocks and headings than MDSEL_MAX_BLOCKS
    INVALID_SELECTOR     a selector that does not parse (with its 1-based column); fails it all
    SELECTOR_NOT_FOUND   a selector item that matched nothing in any document
    NAMESPACE_NOT_FOUND  a namespace that names none of the documents of the call
    PROCESSING_ERROR     anything else about a file: a directory, unreadable, too large, refused

Errors are values (`Problem`); only parsing raises, and `api` turns both exceptions into values.
"""

from __future__ import annotations

from mdsel._record import NamedTuple

FILE_NOT_FOUND = "FILE_NOT_FOUND"
PARSE_ERROR = "PARSE_ERROR"
INVALID_SELECTOR = "INVALID_SELECTOR"
SELECTOR_NOT_FOUND = "SELECTOR_NOT_FOUND"
NAMESPACE_NOT_FOUND = "NAMESPACE_NOT_FOUND"
PROCESSING_ERROR = "PROCESSING_ERROR"

ERROR_TYPES = (
    FILE_NOT_FOUND,
    PARSE_ERROR,
    INVALID_SELECTOR,
    SELECTOR_NOT_FOUND,
    NAMESPACE_NOT_FOUND,
    PROCESSING_ERROR,
)


class Suggestion(NamedTuple):
    """A selector worth trying instead, with the heading title it leads to (empty if none)."""

    selector: str
    """Short form, without namespace."""
    title: str = ""
    namespace: str = ""
    """The document it applies to (renderers qualify the selector when the call had several)."""


class Problem(NamedTuple):
    """One thing that went wrong, about one file or one selector."""

    type: str
    """One of ERROR_TYPES."""
    code: str
    """A finer, stable code (`ENOENT`, `INVALID_UTF8`, `OUT_OF_RANGE`, …)."""
    message: str
    """What went wrong and what to try; never mentions the subject twice."""
    file: str | None = None
    """The path as the user gave it (or as expansion found it)."""
    selector: str | None = None
    """The selector (or selector item) in short form."""
    suggestions: tuple[Suggestion, ...] = ()
    """Up to five, best first."""

    @property
    def subject(self) -> str:
        """What the `!<subject> TYPE: reason` line names: the selector, else the file."""
        return self.selector if self.selector is not None else (self.file or "")


class ParseError(Exception):
    """The bytes of a document are not UTF-8 text (invalid sequence or NUL byte)."""

    def __init__(self, offset: int, reason: str) -> None:
        super().__init__(f"{reason} at byte offset {offset}")
        self.offset = offset
        """0-based byte offset in the file (a leading BOM counts)."""
        self.reason = reason


class NodeLimitError(Exception):
    """The document has more blocks and headings than the caller allows."""

    def __init__(self, limit: int, offset: int) -> None:
        super().__init__(f"more than {limit} blocks and headings (reached at byte offset {offset})")
        self.limit = limit
        self.offset = offset
        """0-based byte offset in the document (after a BOM) where the limit was passed."""


class SelectorSyntaxError(Exception):
    """A selector string that does not follow the grammar."""

    def __init__(self, message: str, column: int) -> None:
        super().__init__(f"{message} at column {column}")
        self.message = message
        self.column = column
        """1-based column in the request string."""


def missing_reason(path: str) -> str:
    """Why a path names no file, and what to try: `~` is the shell's, not a file name's."""
    if path.startswith("~"):
        return (
            "no such file; `~` is not expanded here (no shell reads the path): write the home "
            "directory out, e.g. /home/you/notes.md, or a path relative to the working directory"
        )
    return "no such file; check the path"
