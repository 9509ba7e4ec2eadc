"""HTML anchors: `<a id="x">`, `<a name="x">` and any element with `id="x"`, in HTML blocks and
inline HTML (never in code), as GitHub and every site generator keep them in the page; and ids
given to text by an attribute block (`**term**{ #term }`, Python-Markdown's attr_list as MkDocs
uses it, and markdown-it-attrs as VitePress does).

Looked for only when a fragment matched no heading: the document's HTML is read again from
the parser's events, and its start tags found with two regular expressions that never look
back (the standard library's HTMLParser takes quadratic time on a run of unclosed tags, and a
repository may hold one).
"""

from __future__ import annotations

import re
from html import unescape

from mdsel.parse import html_chunks, text_spans
from mdsel.tree import Document, source_text

_CANDIDATE = re.compile(rb"(?i)\b(?:id|name)[ \t\r\n]*=")


_START_TAG = re.compile(r"<([A-Za-z][A-Za-z0-9:-]*)([^<>]*)>")
"""A start tag: its name and everything up to `>` (no `<` or `>` inside), found in one pass."""
_ID_ATTRIBUTE = re.compile(
    r"""(?:^|[\s"'])(id|name)[ \t\r\n]*=[ \t\r\n]*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+))""",
    re.IGNORECASE,
)


def _without_comments(html: str) -> str:
    """`html` with each comment blanked out, its line breaks kept (so lines still count)."""
    pieces = []
    pos = 0
    while (start := html.find("<!--", pos)) >= 0:
        end = html.find("-->", start + 4)
        end = len(html) if end < 0 else end + 3
        pieces += [html[pos:start], "\n" * html.count("\n", start, end)]
        pos = end
    pieces.append(html[pos:])
    return "".join(pieces)


def _anchors(html: str) -> list[tuple[str, int]]:
    """(id, line within `html`) of every element's id and every `<a>`'s name."""
    html = _without_comments(html)
    found = []
    for tag in _START_TAG.finditer(html):
        is_link = tag.group(1).lower() == "a"
        for attribute in _ID_ATTRIBUTE.finditer(tag.group(2)):
            if attribute.group(1).lower() == "name" and not is_link:
                continue
            value = next(v for v in attribute.groups()[1:] if v is not None)
            if value:
                found.append((unescape(value), html.count("\n", 0, tag.start()) + 1))
    return found


def html_anchor_line(document: Document, fragment: str) -> int:
    """The 1-based line of the HTML element whose id (or `<a>` name) is `fragment`, or of the
    text an attribute block gives that id; 0 if none."""
    if not fragment:
        return 0
    return _element_line(document, fragment) or _attribute_line(document, fragment)


def _attribute_line(document: Document, fragment: str) -> int:
    # In the source, `_` and other punctuation of the id may be backslash-escaped.
    written = "".join(f"\\\\?{re.escape(c)}" if not c.isalnum() else c for c in fragment)
    # No brace inside the block: each `{` is tried up to the next one, so a line of ten
    # thousand braces costs one pass, not a pass per brace.
    pattern = re.compile(
        rf"(?<!\\)\{{[ \t]*:?[^{{}}\n]*?#{written}(?:[ \t][^{{}}\n]*)?\}}".encode()
    )
    found = [match.start() for match in pattern.finditer(document.data)]
    if not found:
        return 0
    text, shift = source_text(document)
    for start, end in text_spans(text, shift):  # only what the parser read as text, not code
        for offset in found:
            if start <= offset < end:
                return document.lines.line_of(offset)
    return 0


def _element_line(document: Document, fragment: str) -> int:
    if _CANDIDATE.search(document.data) is None:
        return 0
    text, shift = source_text(document)
    for start, html in html_chunks(text, shift):
        if _CANDIDATE.search(html.encode("utf-8")) is None:
            continue
        for name, line in _anchors(html):
            if name == fragment:
                return document.lines.line_of(start) + line - 1
    return 0
