"""Other site generators' anchors for a heading's text: the rule each gives a slug by, and how
each numbers repeats (anchors.find tries them last, taking a fragment only when exactly one
heading answers). GitHub's own rule is anchors.slug.
"""

from __future__ import annotations

import re
import unicodedata

_NOT_WORD = re.compile(r"[^\w\s-]")
_DASHES_SPACES = re.compile(r"[-\s]+")


def python_markdown_slug(text: str) -> str:
    """Python-Markdown's toc (MkDocs' default): ASCII-folded, word characters, spaces and
    `-` kept, runs of them one `-`."""
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    return _DASHES_SPACES.sub("-", _NOT_WORD.sub("", folded).strip().lower())


def python_markdown_unicode_slug(text: str) -> str:
    """The same without ASCII folding (pymdownx.slugs and toc's slugify_unicode)."""
    return _DASHES_SPACES.sub("-", _NOT_WORD.sub("", text).strip().lower())


_KRAMDOWN_LEADING = re.compile(r"^[^a-zA-Z]+")
_KRAMDOWN_DROP = re.compile(r"[^a-zA-Z0-9 -]")


def kramdown_slug(text: str) -> str:
    """kramdown's auto ids (Jekyll): leading non-letters dropped, then anything but ASCII
    letters, digits, spaces and `-`; spaces as `-`; `section` when nothing is left."""
    kept = _KRAMDOWN_DROP.sub("", _KRAMDOWN_LEADING.sub("", text))
    return kept.replace(" ", "-").lower() or "section"


_NOT_LETTER_OR_DIGIT = re.compile(r"[^\w]|_", re.UNICODE)


def blackfriday_slug(text: str) -> str:
    """Hugo's Blackfriday style: runs of anything but letters and digits as one `-`, trimmed."""
    return re.sub(r"-+", "-", _NOT_LETTER_OR_DIGIT.sub("-", text)).strip("-").lower()


_VITEPRESS_SPECIAL = re.compile(r"[\s~`!@#$%^&*()\-_+=\[\]{}|\\;:\"'“”‘’<>,.?/]+")
_COMBINING = re.compile("[\u0300-\u036f]")
_CONTROL = re.compile("[\u0000-\u001f]")


def vitepress_slug(text: str) -> str:
    """VitePress: NFKD without combining marks, runs of punctuation and spaces as one `-`,
    trimmed, `_` before a leading digit, lower case."""
    value = _CONTROL.sub("", _COMBINING.sub("", unicodedata.normalize("NFKD", text)))
    value = _VITEPRESS_SPECIAL.sub("-", value)
    value = re.sub(r"-{2,}", "-", value).strip("-")
    if value[:1].isdigit():
        value = "_" + value
    return value.lower()


def hugo_slug(text: str) -> str:
    """Hugo's default ids (Goldmark, `autoIDType = "github"`), given to headings and, under
    `autoDefinitionTermID`, to definition terms: letters, decimal digits and `_` kept,
    lower-cased; each `-`, space and tab a `-` (runs kept); anything else dropped."""
    kept = []
    for char in text:
        if char in "- \t":
            kept.append("-")
        elif char == "_" or char.isdecimal() or unicodedata.category(char)[0] == "L":
            kept.append(char.lower())
    return "".join(kept)


GENERATORS = (
    (python_markdown_slug, "_"),
    (python_markdown_unicode_slug, "_"),
    (kramdown_slug, "-"),
    (blackfriday_slug, "-"),
    (vitepress_slug, "-"),
    (hugo_slug, "-"),
)
"""Each generator's slug rule and how it numbers repeats."""
