"""HTML anchors: `<a id="x">`, `<a name="x">` and any element with `id="x"`, in HTML blocks and
inline HTML (never in code), as GitHub and every site generator keep them in the page; and ids
given to text by an attribute block (`**term**{ #term }`, Python-Markdown's attr_list as MkDocs
uses it, and markdown-it-attrs as VitePress does).

Looked for only when a fragment matched no heading: the document's HTML is read again from
the parser's events, and each piece through the standard library's HTML parser.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

from mdsel.parse import html_chunks, text_spans
from mdsel.tree import Document, source_text

_CANDIDATE = re.compile(rb"(?i)\b(?:id|name)[ \t\r\n]*=")


class _Anchors(HTMLParser):
    """Collects (name, line within the piece) of every id, and of every name on `<a>`."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[str, int]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for key, value in attrs:
            if value and (key == "id" or (key == "name" and tag == "a")):
                self.found.append((value, self.getpos()[0]))

    handle_startendtag = handle_starttag


def html_anchor_line(document: Document, fragment: str) -> int:
    """The 1-based line of the HTML element whose id (or `<a>` name) is `fragment`, or of the
    text an attribute block gives that id; 0 if none."""
    if not fragment:
        return 0
    return _element_line(document, fragment) or _attribute_line(document, fragment)


def _attribute_line(document: Document, fragment: str) -> int:
    # In the source, `_` and other punctuation of the id may be backslash-escaped.
    written = "".join(f"\\\\?{re.escape(c)}" if not c.isalnum() else c for c in fragment)
    pattern = re.compile(rf"(?<!\\)\{{[ \t]*:?[^}}\n]*?#{written}(?:[ \t][^}}\n]*)?\}}".encode())
    found = [match.start() for match in pattern.finditer(document.data)]
    if not found:
        return 0
    text, shift = source_text(document)
    for start, end in text_spans(text, shift):  # only what the parser read as text, not code
        for offset in found:
            if start <= offset < end:
                return document.line_of(offset)
    return 0


def _element_line(document: Document, fragment: str) -> int:
    if _CANDIDATE.search(document.data) is None:
        return 0
    text, shift = source_text(document)
    for start, html in html_chunks(text, shift):
        if _CANDIDATE.search(html.encode("utf-8")) is None:
            continue
        parser = _Anchors()
        parser.feed(html)
        parser.close()
        for name, line in parser.found:
            if name == fragment:
                return document.line_of(start) + line - 1
    return 0
