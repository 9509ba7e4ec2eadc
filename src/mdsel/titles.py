"""Heading titles as text output shows them: control characters escaped, the rest as written.

A title comes from the document, so it may hold anything an entity or escape can produce
(`&#10;`, `&#27;`). Printed raw, a line break would forge whole output lines (an index line, a
`~h1.0 (…)` suggestion) and ESC or BEL would reach the terminal; escaped, every title stays on
its one line and can still be read. Everything else (a no-break space, an emoji) is kept as
written. JSON output needs none of this: its encoder escapes what it must.
"""

from __future__ import annotations

import re
from functools import cache

# C0, DEL, C1, the Unicode line and paragraph separators (line breaks to many readers), the
# bidirectional embeddings, overrides, isolates and marks (they reorder what a terminal shows),
# and the invisible format characters (zero-width space, joiners, word joiner, soft hyphen,
# byte order mark): a name holding one looks like another name. Every one is a character
# str.isprintable() refuses, so a printable title needs no search at all.
_BEYOND_C0 = (
    "\x7f-\x9f\xad\u061c\u180e\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u2064"
    "\u2066-\u2069\ufeff"
)


# Compiled on first use, not at import: a class reaching beyond Latin-1 costs about a millisecond
# to compile, a start-up cost `mdsel index` would pay for titles that rarely need it.
@cache
def control() -> re.Pattern[str]:
    """The control characters escaped in text output."""
    return re.compile(f"[\x00-\x1f{_BEYOND_C0}]")


@cache
def typed_control() -> re.Pattern[str]:
    """The same but tab, line feed and carriage return, which are spaces in a typed selector."""
    return re.compile(f"[\x00-\x08\x0b\x0c\x0e-\x1f{_BEYOND_C0}]")


_NAMED = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}


def _escape(match: re.Match[str]) -> str:
    return escaped(match.group())


def escaped(char: str) -> str:
    """One control character as text output shows it: `\\n`, `\\x1b`, `\\u202e`."""
    named = _NAMED.get(char)
    if named is not None:
        return named
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


MAX_TITLE_CHARS = 200
"""Characters of a title an index or toc line shows: a heading may be a paragraph long, and a
map of a thousand documents is no place for it (the JSON index has every title whole)."""


def short_title(title: str) -> str:
    """`title` escaped as shown_title, cut after MAX_TITLE_CHARS characters with `…`."""
    if len(title) > MAX_TITLE_CHARS:
        title = title[:MAX_TITLE_CHARS].rstrip() + "…"
    return shown_title(title)


def shown_title(title: str) -> str:
    """`title` on one line for text output: `\\n`, `\\t`, `\\x1b`, `\\u2028` for control
    characters, every other character unchanged."""
    if title.isprintable():  # the usual title: nothing to escape
        return title
    return control().sub(_escape, title)


def printable_path(path: str) -> str:
    """A path as valid UTF-8 text: bytes that were not UTF-8 in the file name (kept by the OS
    layer as surrogates) are shown as backslash escapes rather than written raw into JSON."""
    return path.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
