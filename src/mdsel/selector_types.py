"""The type vocabulary of selectors: every name a type may be written as, and its short form.

Kept apart from the parser so that a new type or a new spelling lands in one place; suggestions
(mdsel.repair) read the same names.
"""

from __future__ import annotations

TYPES = {
    "root": "root",
    "section": "section",
    "para": "para",
    "paragraph": "para",
    "block:paragraph": "para",
    "code": "code",
    "block:code": "code",
    "list": "list",
    "block:list": "list",
    "table": "table",
    "block:table": "table",
    "quote": "quote",
    "blockquote": "quote",
    "block:blockquote": "quote",
}
for _n in range(1, 7):
    TYPES[f"h{_n}"] = TYPES[f"heading:h{_n}"] = f"h{_n}"

TYPE_NAMES = (
    "root, section, h1…h6, para, code, list, table, quote; a line is L812, lines L800-850, "
    "an anchor #anchor"
)
"""Every accepted spelling (lower case) → the canonical short type."""

CANONICAL = tuple(dict.fromkeys(TYPES.values()))
"""The short types: root, section, para, code, list, table, quote, h1…h6."""
