"""A heading's text from the parser's inline text and the heading's source: an ATX closing
sequence the parser kept dropped, and an attribute block (`## Intro {#intro}`) taken off the
shown title with its id (see attributes), with a closing sequence written before the block
(`## Intro ## {#intro}`).
"""

from __future__ import annotations

import re

from mdsel.attributes import attribute_block


def heading_text(title: str, raw: bytes) -> tuple[str, tuple[str, str | None] | None]:
    """A heading's text as GitHub shows it, from its inline text `title` and its source `raw`
    (a closing sequence beside a tab dropped), and its attribute block's (shown title, id) when
    it ends with one (`## Intro {#intro}`), else None."""
    if title and title[-1] in "#\t ":
        title = without_closing_sequence(raw, title)
    if title and title[-1] == "}":
        found = attribute_block(title, raw)
        if found is not None:
            shown, ident = found
            found = _without_hidden_closing(shown, raw), ident
        return title, found
    return title, None


def _without_hidden_closing(shown: str, raw: bytes) -> str:
    """`shown` (a title, its attribute block taken off) without a closing sequence the block
    hid: `### Dependencies ### {: #x }` is `Dependencies`, as generators that read the block
    show it (Python-Markdown's attr_list drops the `#`s with it). Only `#`s written so in the
    source, after a space and before the block: not a code span's (`` `a ##` ``), escaped ones
    (a backslash before them) or an entity's."""
    body = shown.rstrip(" \t")
    run = len(body) - len(body.rstrip("#"))
    if not run or not body[:-run].endswith((" ", "\t")) or not body[:-run].strip():
        return shown
    line = raw.rstrip(b"\r\n")
    brace = line.rfind(b"{")
    before = line[:brace].rstrip(b" \t") if brace > 0 else b""
    written = len(before) - len(before.rstrip(b"#"))
    if written != run or before[-run - 1 : -run] not in (b" ", b"\t"):
        return shown
    return body[:-run].rstrip(" \t")


_ATX_OPENING = rb" {0,3}#{1,6}[ \t]"
"""Passed to `re` by its text: compiled (and cached by `re`) for the first such heading only."""


def without_closing_sequence(raw: bytes, title: str) -> str:
    """`title` without an ATX closing sequence that follows a tab or is followed by one.

    CommonMark lets spaces or tabs precede and follow the closing `#`s; pulldown-cmark strips
    them only after a space and before nothing but spaces, so `## Title<tab>##` would keep
    `<tab>##` and `## Title ##<tab>` ` ##<tab>`. `raw` is the heading's source.
    """
    content = raw.rstrip(b"\r\n")
    line = content.rstrip(b" \t")
    run = len(line) - len(line.rstrip(b"#"))
    before = line[-run - 1 : -run]
    # After a space and before spaces only, the parser took the `#`s off itself: what ends
    # the title then is text (`## a \# ##` is `a #`).
    kept = before == b"\t" or (before == b" " and b"\t" in content[len(line) :])
    if not run or not kept or not re.match(_ATX_OPENING, line):
        return title
    body = title.rstrip(" \t")
    if not body.endswith("#" * run):
        return title  # the `#`s came from somewhere else (an escape, an entity)
    return body[:-run].rstrip(" \t")
