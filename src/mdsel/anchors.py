"""Heading anchors as GitHub makes them, so a link such as `README.md#installation` maps to
the section it points at.

GitHub's rule (the one its github-slugger package implements): lower-case the heading's text,
drop every character that is not a letter, a combining mark, a digit, a connector punctuation
(`_`), `-` or a space, and turn each space into `-` (runs are kept: `A – B` is `a--b`). A slug
already taken gets `-1`, `-2`… — the first free one, counting per original slug, so a heading
literally titled `Intro 1` and a second `Intro` do not collide.

Only the headings mdsel selects are counted (top level: not inside a list or blockquote).
GitHub also anchors headings inside lists and quotes; one of those sharing a slug with a later
top-level heading shifts GitHub's numbering of it, which is rare enough to leave.

Hand-written rather than a dependency: it is a dozen lines over `unicodedata`, and the PyPI
ports of github-slugger are unmaintained.
"""

from __future__ import annotations

import unicodedata

from mdsel.tree import Document

MAX_CLOSEST = 5
MAX_CANDIDATES = 2000
"""Anchors compared with a missed one: bounded like every suggestion search."""


def slug(title: str) -> str:
    """The anchor GitHub gives a heading with this text, before de-duplication."""
    kept = []
    for char in title.strip().lower():
        if char == " ":
            kept.append("-")
        elif char == "-" or char == "_":
            kept.append(char)
        else:
            category = unicodedata.category(char)
            if category[0] in "LMN" or category == "Pc":
                kept.append(char)
    return "".join(kept)


def anchors(document: Document) -> list[str]:
    """anchors[k] = the anchor of document.headings[k], numbered as GitHub numbers repeats."""
    taken: dict[str, int] = {}
    result = []
    headings = document.headings
    for index in range(len(headings)):
        base = slug(headings.title(index))  # the title alone: no Heading value per heading
        anchor = base
        while anchor in taken:
            taken[base] += 1
            anchor = f"{base}-{taken[base]}"
        taken[anchor] = 0
        result.append(anchor)
    return result


def find(document: Document, anchor: str) -> int:
    """Index in document.headings of the heading with that anchor, or -1."""
    for index, candidate in enumerate(anchors(document)):
        if candidate == anchor:
            return index
    return -1


def closest(document: Document, anchor: str) -> list[int]:
    """Headings whose anchors are nearest to a missed one, best first: anchors that start with
    it or that it starts with (`#install` → `installation`), then others containing it or
    contained in it, nearest in length first, then similar spellings."""
    from difflib import get_close_matches  # misses only: the JSON index needs anchors alone

    found = anchors(document)[:MAX_CANDIDATES]
    if not anchor:
        return []
    ranked = [i for i, a in enumerate(found) if a and (anchor in a or a in anchor)]
    ranked.sort(
        key=lambda i: (
            not (found[i].startswith(anchor) or anchor.startswith(found[i])),
            abs(len(found[i]) - len(anchor)),
        )
    )
    position = {a: i for i, a in enumerate(found)}  # anchors are unique once numbered
    ranked += [position[a] for a in get_close_matches(anchor, found, MAX_CLOSEST, 0.6)]
    result: list[int] = []
    for index in ranked:
        if index not in result:
            result.append(index)
    return result[:MAX_CLOSEST]
