"""What a mistyped request most likely meant: a bare line number (`913` → `L913`), an anchor
without its `#` (`cap-theorem` → `#cap-theorem`), a type name misspelt or in another word
(`sectoin.3`, `sections.3`, `heading.2` → `section.…`, `paragraphs` → `para`).

Candidates only: suggest.py keeps those that name something in the documents.
"""

from __future__ import annotations

import re
from difflib import get_close_matches

TYPES = (
    "root",
    "section",
    "para",
    "code",
    "list",
    "table",
    "quote",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
)
SYNONYMS = {
    "heading": "section", "headings": "section", "header": "section", "headers": "section",
    "title": "section", "titles": "section", "sect": "section", "sec": "section",
    "paragraph": "para", "paragraphs": "para", "paras": "para", "par": "para", "p": "para",
    "text": "para", "codes": "code", "codeblock": "code", "codeblocks": "code", "fence": "code",
    "fences": "code", "pre": "code", "snippet": "code", "example": "code", "lists": "list",
    "ul": "list", "ol": "list", "item": "list", "items": "list", "bullets": "list",
    "tables": "table", "tbl": "table", "grid": "table", "quotes": "quote",
    "blockquote": "quote", "blockquotes": "quote", "note": "quote", "doc": "root",
    "document": "root", "all": "root", "whole": "root",
}  # fmt: skip
"""Words people type for a type, each with the type it means."""

_LINES = re.compile(r"[Ll]?[ \t]*(\d+)(?:[ \t]*(?:-|\.\.|:|to)[ \t]*[Ll]?(\d+))?")
_SLUG_CHARS = re.compile(r"[^\s#/?,:]+")
_TYPED = re.compile(
    r"([Hh][1-6]|[A-Za-z][A-Za-z-]*?)"  # a type, or a word for one
    r"[ \t]*(?:[.\[( _-][ \t]*(\d+(?:[ \t]*[-,][ \t]*\d+)*)[ \t]*[\])]?)?"  # its numbers
    r"(/.*|\?.*)?"  # the rest of the selector, kept
)


def _is_slug(text: str) -> bool:
    """Whether `text` reads as an anchor: no space or selector punctuation, and a `-` or `_`
    with something on each side (`getting-started`, `api_keys`). A test, not a pattern of
    parts split at `-`: that pattern tried every way of splitting `a-a-…-a #` (seconds at 50
    characters, years at 200)."""
    inner = text[1:-1]
    return _SLUG_CHARS.fullmatch(text) is not None and ("-" in inner or "_" in inner)


def closest_type(word: str) -> str | None:
    """The selector type `word` most likely means, or None."""
    word = word.lower()
    if word in TYPES:
        return word
    if word in SYNONYMS:
        return SYNONYMS[word]
    if word.endswith("s") and word[:-1] in TYPES:
        return word[:-1]
    found = get_close_matches(word, [*TYPES, *SYNONYMS], n=1, cutoff=0.75)
    if not found:
        return None
    return SYNONYMS.get(found[0], found[0])


def repairs(request: str) -> list[str]:
    """Selectors the request most likely meant, best first (they may not exist)."""
    text = request.strip()
    if not text or len(text) > 200:
        return []
    found: list[str] = []
    lines = _LINES.fullmatch(text)
    if lines is not None:
        first, last = lines.group(1), lines.group(2)
        found.append(f"L{first}-{last}" if last else f"L{first}")
    if _is_slug(text) and not text[:1].isdigit():
        found.append("#" + text)
    typed = _TYPED.fullmatch(text)
    if typed is not None:
        kind = closest_type(typed.group(1))
        # A type word alone (`Headings`, `Lists`) would select all of them: a heading whose
        # title is that word is the likelier meaning, so only a type with numbers is repaired.
        if kind is not None and (typed.group(2) or typed.group(3)):
            items = re.sub(r"[ \t]+", "", typed.group(2) or "")
            rest = typed.group(3) or ""
            candidate = (f"{kind}.{items}" if items and kind != "root" else kind) + rest
            if candidate != text:
                found.insert(0, candidate)  # a type and a number beat an anchor of them
    words = text.lower().replace(" ", "-")
    if not found and text[:1].isalpha() and words != text and _is_slug(words):
        found.append("#" + words)  # a title typed as words
    return found
