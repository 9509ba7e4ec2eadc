"""Attribute blocks ending a heading: `## Intro {#intro}`, `{ #id .class key=value }`, `{: #id}`.

Python-Markdown's attr_list (MkDocs), markdown-it-attrs (VitePress), Docusaurus, Pandoc, kramdown
and Hugo give the heading that id and leave the block out of its text; GitHub shows it as text.
Read from the title the parser gave and checked against the heading's source, so neither an
escaped brace nor a code span makes one.
"""

from __future__ import annotations

import re
from functools import cache

_ATTRIBUTE = r"""(?:[#.][^\s{}]+|[A-Za-z_:][\w.:-]*=(?:"[^"]*"|'[^']*'|[^\s"'{}=]+))"""
_BARE = r"[A-Za-z_][\w:-]*"
"""A bare word: after `{:`, Python-Markdown's attr_list takes it as a key set to itself and
kramdown as a reference to an attribute list (`### archs {: #archs cmd-line toml }`)."""


# Compiled on first use: the block's pattern costs more to compile than indexing a small file,
# and only a heading ending in `}` needs it.
@cache
def _patterns() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """(an attribute block ending a title, one attribute)."""
    word = rf"(?:{_ATTRIBUTE}|{_BARE})"
    words = rf"(?::[ \t]*{word}(?:[ \t]+{word})*|{_ATTRIBUTE}(?:[ \t]+{_ATTRIBUTE})*)"
    # The block's own `{` starts the pattern: spaces before it are stripped after, since a
    # leading `[ \t]*` would be tried from every space of a long run (quadratic).
    block = rf"(\{{[ \t]*{words}[ \t]*\}})\Z"
    return re.compile(block), re.compile(_ATTRIBUTE)


def attribute_block(title: str, raw: bytes) -> tuple[str, str | None] | None:
    """(title without it, its id) when `title` ends with an attribute block, else None.

    `{#id}`, `{ #id .class key=value }`, `{: #id}` (Python-Markdown attr_list, Pandoc, kramdown,
    markdown-it-attrs as VitePress uses it, Docusaurus, Hugo): every word of the block must be
    an id, a class or a key=value pair, or, after `{:`, a bare word too, so `## Using {braces}`
    and `## Set {x, y}` keep their titles (pulldown-cmark's own option would take both as
    attributes). The block must be in
    the heading's source as written: one made by an escape or an entity is text.
    """
    block, attribute = _patterns()
    found = block.search(title)
    if found is None:
        return None
    # Written at the end of a line of the heading (before an ATX closing sequence), and not
    # after a backslash or inside a code span, whose backticks would follow it.
    if not _written_at_line_end(found.group(1).encode("utf-8"), raw):
        return None
    ids = [_id_of(word) for word in attribute.findall(found.group(1))]
    ids = [ident for ident in ids if ident]
    return title[: found.start()].rstrip(" \t"), (ids[-1] if ids else None)


def _id_of(attribute: str) -> str | None:
    """The id an attribute gives: `#intro`, or `id=intro` (quoted or not), as markdown-it-attrs
    and attr_list read it; None for a class or another key."""
    if attribute[0] == "#":
        return attribute[1:]
    if attribute.startswith("id="):
        value = attribute[3:]
        quoted = len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'"
        return (value[1:-1] if quoted else value) or None
    return None


def _written_at_line_end(block: bytes, raw: bytes) -> bool:
    """Whether `block` occurs in `raw` unescaped with only spaces, tabs or `#`s after it on its
    line. Plain searches: a pattern made per heading would be compiled per heading."""
    start = raw.find(block)
    while start >= 0:
        after = start + len(block)
        end = len(raw)
        for stop in (b"\n", b"\r"):
            found = raw.find(stop, after)
            if 0 <= found < end:
                end = found
        if (start == 0 or raw[start - 1] != 0x5C) and not raw[after:end].strip(b" \t#"):
            return True
        start = raw.find(block, start + 1)
    return False
