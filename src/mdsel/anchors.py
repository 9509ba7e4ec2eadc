"""Link targets: what `#fragment` (and `page.md#fragment`) names in a document, wherever GitHub
or the site generator would take a reader.

A fragment is looked for, in this order:

1. an explicit id, `## Intro {#intro}` (MkDocs attr_list, VitePress, Docusaurus, Pandoc,
   kramdown, Hugo), on any heading; an id given twice names the first (as a browser does);
2. GitHub's anchor of a heading — the slug of its text as GitHub renders it, where an attribute
   block is text (`#intro--intro-`), the spaces beside inline HTML stay (`#setup-` for
   `## Setup <!-- x -->`) and an image's alt text is left out — counted over every heading,
   those inside lists and block quotes too, as GitHub numbers repeats;
3. an HTML anchor, `<a id="x">`, `<a name="x">` or any element with `id="x"`, or an id given
   to text (`**term**{ #term }`), which names the innermost section holding it; an empty one
   on a line of its own right above a heading names that heading (mdsel.address); then the
   id Hugo gives a definition-list term (or a heading numbered past one), which names the
   term and its definitions (mdsel.definition_terms);
4. the slug another generator would give a heading (Python-Markdown's toc as MkDocs uses it,
   kramdown, Hugo's Blackfriday style, VitePress), taken only when exactly one heading answers;
   a heading with an explicit id is slugged only when no heading without one answers.

GitHub's slug (the rule of its github-slugger package): lower-case the text, drop every
character that is not a letter, a combining mark, a digit, a connector punctuation (`_`), `-` or
a space, and turn each space into `-` (runs are kept: `A – B` is `a--b`). A slug already taken
gets `-1`, `-2`… — the first free one, counting per original slug.

Hand-written rather than dependencies: each rule is a few lines over `unicodedata` and `re`, the
PyPI ports of github-slugger are unmaintained, and the generators' own packages are whole site
builders.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import repeat

from mdsel._record import NamedTuple
from mdsel.anchor_generators import GENERATORS, hugo_slug, kramdown_slug
from mdsel.tree import Document

MAX_CLOSEST = 5
MAX_CANDIDATES = 2000
"""Anchors compared with a missed one: bounded like every suggestion search."""

HEADING = "heading"
NESTED = "nested"
HTML = "html"
TERM = "term"


class Target(NamedTuple):
    """What a fragment names: a section heading (`ref` into document.headings), a heading
    inside a list or quote (`ref` into document.nested), an HTML anchor (`ref`: -1, `line`: its
    line), or a definition term (`ref`: -1, `line` to `last`: the term and its definitions)."""

    kind: str
    ref: int
    line: int = 0
    last: int = 0


def slug(title: str) -> str:
    """The anchor GitHub gives a heading with this text, before de-duplication."""
    kept = []
    # Not stripped: the text GitHub slugs keeps the spaces beside inline HTML (`-usage`).
    for char in title.lower():
        if char == " ":
            kept.append("-")
        elif char == "-" or char == "_":
            kept.append(char)
        else:
            category = unicodedata.category(char)
            if category[0] in "LMN" or category == "Pc":
                kept.append(char)
    return "".join(kept)


def _numbered(
    slugs: list[str], separator: str = "-", reserved: frozenset[str] | set[str] = frozenset()
) -> list[str]:
    """Repeats numbered as the generators do: the first free `slug-1`, `slug-2`… (`reserved`:
    ids already on the page, which a slug is numbered past too)."""
    return list(_numbering(slugs, separator, reserved))


def _numbering(
    slugs: Iterable[str], separator: str = "-", reserved: frozenset[str] | set[str] = frozenset()
) -> Iterator[str]:
    """_numbered, one anchor at a time."""
    taken: dict[str, int] = dict.fromkeys(reserved, 0)
    for base in slugs:
        anchor = base
        while anchor in taken:
            taken[base] += 1
            anchor = f"{base}{separator}{taken[base]}"
        taken[anchor] = 0
        yield anchor


def _all_headings(document: Document, most: int | None = None) -> list[tuple[str, int]]:
    """Every heading in document order (the first `most`): (kind, index) with kind HEADING or
    NESTED."""
    headings, nested = document.headings, document.nested
    if not nested:
        count = len(headings) if most is None else min(most, len(headings))
        return list(zip(repeat(HEADING), range(count), strict=False))
    order = [(headings.starts[i], HEADING, i) for i in range(len(headings))]
    order += [(heading.start, NESTED, i) for i, heading in enumerate(nested)]
    order.sort()
    return [(kind, index) for _start, kind, index in order[:most]]


def _texts(document: Document, order: list[tuple[str, int]], shown: bool = False) -> list[str]:
    """The texts of the headings in `order` (see _text)."""
    if not document.nested and len(order) == len(document.headings):
        return document.headings.all_texts(shown)  # every one, in order: from the column
    return [_text(document, kind, index, shown) for kind, index in order]


def _text(document: Document, kind: str, index: int, shown: bool = False) -> str:
    """A heading's text: as GitHub shows it, or (`shown`) without its attribute block."""
    if kind == NESTED:
        heading = document.nested[index]
        return heading.title if shown else heading.text
    headings = document.headings
    return headings.title(index) if shown else headings.github_text(index)


def github_anchors(document: Document) -> dict[tuple[str, int], str]:
    """(kind, index) → GitHub's anchor, numbered over every heading in document order."""
    order = _all_headings(document)
    slugs = _numbered([slug(_text(document, kind, index)) for kind, index in order])
    return dict(zip(order, slugs, strict=True))


def anchors(document: Document, found: dict[tuple[str, int], str] | None = None) -> list[str]:
    """anchors[k] = the anchor that selects document.headings[k]: its explicit id, or GitHub's
    anchor, numbered on (`intro-1`) when that already answers for another heading (an explicit
    id an earlier heading has too, in a list or quote or not, or a GitHub anchor that another
    heading's id takes)."""
    ids, nested = document.headings.ids, document.nested
    found = github_anchors(document) if found is None else found
    github = set(found.values())
    explicit = set(ids.values()) | {h.id for h in nested if h.id}
    claimed: set[str] = set()  # explicit ids of the headings so far: a browser takes the first
    assigned: set[str] = set()
    result = []
    for kind, index in found:  # every heading, in document order
        if kind == NESTED:
            nested_id = nested[index].id
            if nested_id:
                claimed.add(nested_id)
            continue
        ident = ids.get(index)
        anchor = found[(HEADING, index)] if ident is None else ident
        taken = anchor in claimed if ident is not None else anchor in explicit
        if taken or anchor in assigned:
            number = 1
            while any(f"{anchor}-{number}" in names for names in (assigned, explicit, github)):
                number += 1
            anchor = f"{anchor}-{number}"
        if ident is not None:
            claimed.add(ident)
        assigned.add(anchor)
        result.append(anchor)
    return result


def find(document: Document, fragment: str) -> Target | None:
    """What `#fragment` (already decoded) names in the document, or None.

    Exact matches first, as a browser matches ids: explicit ids, GitHub's anchors, the anchors
    the index lists, HTML ids; then GitHub's anchors in any letter case, then other generators.
    """
    headings, nested = document.headings, document.nested
    # An id given twice names the first heading that has it, as a browser takes the first.
    named = [
        (headings.starts[i], i, HEADING) for i, ident in headings.ids.items() if ident == fragment
    ]
    named += [
        (heading.start, i, NESTED) for i, heading in enumerate(nested) if heading.id == fragment
    ]
    if named:
        _start, index, kind = min(named)
        return Target(kind, index)
    order = _all_headings(document)
    texts = _texts(document, order)
    for position in _Slugged(texts, {fragment}, "-").matching(slug, "-"):
        return Target(*order[position])
    if headings.ids or any(heading.id for heading in nested):
        # A heading whose GitHub anchor or id another heading's id took: as the index lists it.
        for index, anchor in enumerate(anchors(document)):
            if anchor == fragment:
                return Target(HEADING, index)
    from mdsel.html_anchors import html_anchor_line  # misses only: it parses the HTML again

    line = html_anchor_line(document, fragment)
    if line:
        return Target(HTML, -1, line)
    term = _hugo_id(document, fragment, order)
    if term is not None:
        return term
    lowered = fragment.lower()
    if lowered != fragment:
        for position in _Slugged(texts, {lowered}, "-").matching(slug, "-"):
            return Target(*order[position])
    return _by_generators(document, fragment, order, texts)


def _hugo_id(document: Document, fragment: str, order: list[tuple[str, int]]) -> Target | None:
    """The definition term (or heading) whose id on a Hugo page is `fragment`: terms and
    headings without an explicit id numbered in one sequence, in document order, around the
    explicit ids (see definition_terms). None when the document has no definition list."""
    from mdsel import definition_terms  # only a miss so far: most documents have no terms

    if not definition_terms.has_terms(document):
        return None
    found = definition_terms.terms(document)
    if not found:
        return None
    shown = _texts(document, order, shown=True)
    ids = [_explicit_id(document, kind, index) for kind, index in order]
    entries = [
        (_start(document, kind, index), text, Target(kind, index))
        for (kind, index), text, ident in zip(order, shown, ids, strict=True)
        if not ident
    ]
    entries += [(term.start, term.text, Target(TERM, -1, term.first, term.last)) for term in found]
    entries.sort(key=lambda entry: entry[0])
    texts = [text for _start, text, _target in entries]
    taken = {ident for ident in ids if ident}
    for position in _Slugged(texts, {fragment}, "-").matching(hugo_slug, "-", taken):
        return entries[position][2]
    return None


def _term_ids(document: Document, order: list[tuple[str, int]]) -> list[tuple[str, str]]:
    """(id, text) of the first MAX_CANDIDATES definition terms, numbered as _hugo_id numbers
    them (with the headings of `order` before each), for the closest anchors to a miss."""
    from mdsel import definition_terms  # a miss only, and only where a definition list is

    if not definition_terms.has_terms(document):
        return []
    found = definition_terms.terms(document)[:MAX_CANDIDATES]
    if not found:
        return []
    ids = [_explicit_id(document, kind, index) for kind, index in order]
    entries = [
        (_start(document, kind, index), _text(document, kind, index, shown=True), False)
        for (kind, index), ident in zip(order, ids, strict=True)
        if not ident
    ]
    entries += [(term.start, term.text, True) for term in found]
    entries.sort(key=lambda entry: entry[0])
    taken = {ident for ident in ids if ident}
    numbered = _numbering((hugo_slug(text) for _start, text, _term in entries), "-", taken)
    return [
        (anchor, text)
        for (_start, text, term), anchor in zip(entries, numbered, strict=True)
        if term and anchor
    ]


def _start(document: Document, kind: str, index: int) -> int:
    """Where a heading starts in Document.data."""
    if kind == NESTED:
        return document.nested[index].start
    return document.headings.starts[index]


_SHORTCODE = re.compile(r":[a-z0-9_+-]+:")
"""An emoji shortcode as GitHub writes them (`:rocket:`, `:+1:`, `:t-rex:`)."""


def emoji_shown_slug(text: str) -> str:
    """GitHub's rule on the text with its `:rocket:` shortcodes shown as emoji, which the rule
    drops: `## :rocket: Launch` is `#-launch` to a renderer that slugs the text it shows. Any
    `:name:` is taken for one (the list of GitHub's names is not kept), so this only answers a
    fragment nothing else does."""
    return slug(_SHORTCODE.sub("", text))


def _by_generators(
    document: Document,
    fragment: str,
    order: list[tuple[str, int]],
    github_texts: list[str],
) -> Target | None:
    """The one heading whose anchor under another generator's rule is `fragment`.

    A generator that reads an explicit id gives that heading its id, not a slug, and numbers
    the other headings' slugs without it (the id taken, as Python-Markdown and markdown-it
    take it): so `## Über {#ueber}` then `## Über` is `#ueber` then `#uber`. Only when no
    heading without an id answers is every heading's title slugged, as a generator that
    does not use the ids would."""
    texts = _texts(document, order, shown=True)
    answering: set[tuple[str, int]] = set()
    if document.headings.ids or any(heading.id for heading in document.nested):
        ids = [_explicit_id(document, kind, index) for kind, index in order]
        plain = [position for position, ident in enumerate(ids) if not ident]
        answering = _answering(
            [order[p] for p in plain],
            [texts[p] for p in plain],
            GENERATORS,
            fragment,
            {ident for ident in ids if ident},
        )
    if not answering:
        answering = _answering(order, texts, GENERATORS, fragment)
    if not answering and any(map(str.__contains__, github_texts, repeat(":"))):
        # Last: the shortcode slug, only where no generator's answers.
        answering = _answering(order, github_texts, [(emoji_shown_slug, "-")], fragment)
    if len(answering) != 1:
        return None
    kind, index = answering.pop()
    return Target(kind, index)


def _explicit_id(document: Document, kind: str, index: int) -> str | None:
    """A heading's explicit id (`{#id}`), or None."""
    if kind == NESTED:
        return document.nested[index].id or None
    return document.headings.ids.get(index)


def _answering(
    order: list[tuple[str, int]],
    texts: list[str],
    rules: Sequence[tuple[Callable[[str], str], str]],
    fragment: str,
    taken: frozenset[str] | set[str] = frozenset(),
) -> set[tuple[str, int]]:
    """The headings (of `order`, with `texts`) whose anchor under one of `rules` (slug rule,
    repeat separator) is `fragment`; `taken`: ids the slugs are numbered around."""
    answering: set[tuple[str, int]] = set()
    slugged = _Slugged(
        texts, {fragment, fragment.lower()}, [separator for _rule, separator in rules]
    )
    for rule, separator in rules:
        for position in slugged.matching(rule, separator, taken):
            answering.add(order[position])
            if len(answering) > 1:
                return answering  # two answer: none is taken
    return answering


class _Slugged:
    """The headings whose anchor under a rule is one of `targets`, texts looked at once.

    Only the slugs in a target's family are numbered: its stem (the target with every `-N`
    end taken off: `intro` for `intro-1-2`) followed by any `-N` ends (`intro`, `intro-1`,
    `intro-1-1`…). Numbering a slug of the family only ever makes a name of it, and one
    outside only names outside it, so the numbering of the family alone is the numbering of
    all. Each text is slugged once however many headings have it, and a text of ASCII lacking
    a letter or digit of the stem is not slugged at all (each rule keeps an ASCII text's
    letters and digits as they are, lower-cased): a miss in a document of a hundred thousand
    headings slugs the few that could answer, for every rule.
    """

    def __init__(self, texts: Sequence[str], targets: set[str], separators: Iterable[str]):
        self.texts, self.targets = texts, targets
        self.distinct = list(dict.fromkeys(texts))
        needed: set[str] | None = None
        for separator in separators:
            for target in targets:
                held = {char for char in _stem(target, separator) if char.isalnum()}
                needed = held if needed is None else needed & held
        self.pool = list(_could_give(self.distinct, needed or set()))

    def matching(
        self,
        rule: Callable[[str], str],
        separator: str,
        taken: frozenset[str] | set[str] = frozenset(),
    ) -> Iterator[int]:
        """The positions of the texts whose anchor under `rule`, repeats numbered on with
        `separator` around the ids `taken`, is a target, in order (numbered as far as asked)."""
        stems = sorted({_stem(target, separator) for target in self.targets})
        family = re.compile(
            f"(?:{'|'.join(map(re.escape, stems))})(?:{re.escape(separator)}[0-9]+)*"
        ).fullmatch
        # kramdown names a heading with no letters `section`: any text may give it.
        pool = self.distinct if rule is kramdown_slug and "section" in stems else self.pool
        slugs: dict[str, str] = {}
        for text in pool:
            made = rule(text)
            if family(made):
                slugs[text] = made
        if not slugs:
            return
        found = [position for position, text in enumerate(self.texts) if text in slugs]
        numbered = _numbering((slugs[self.texts[position]] for position in found), separator, taken)
        for position, anchor in zip(found, numbered, strict=True):
            if anchor in self.targets:
                yield position


def _could_give(texts: Iterable[str], needed: set[str]) -> Iterable[str]:
    """The texts that may be slugged to a name holding every one of the `needed` letters and
    digits: any not of ASCII, and those of ASCII holding them all (in any case), picked in C."""
    if not needed:
        return texts
    ahead = "".join(f"(?=.*?{re.escape(char)})" for char in sorted(needed))
    pattern = re.compile(f"(?=.*?[^\\x00-\\x7f])|{ahead}", re.DOTALL | re.IGNORECASE)
    return filter(pattern.match, texts)


def _stem(target: str, separator: str) -> str:
    """The target with every numbered end (`-1`, `-2-1`) taken off."""
    while True:
        stem, mark, number = target.rpartition(separator)
        if not (mark and number.isascii() and number.isdigit()):
            return target
        target = stem


def closest(document: Document, anchor: str) -> list[tuple[str, str]]:
    """(anchor, title) of the headings whose anchors are nearest to a missed one, best first:
    anchors that start with it or that it starts with (`#install` → `installation`), then
    others containing it or contained in it, nearest in length first, then similar spellings.
    Explicit ids stand for their headings; headings in lists and quotes count too, and so do
    definition terms by the ids Hugo gives them."""
    from difflib import get_close_matches  # misses only: the JSON index needs anchors alone

    if not anchor:
        return []
    anchor = anchor.lower()
    # The first MAX_CANDIDATES headings' anchors, numbered as over all (by those before only).
    order = _all_headings(document, MAX_CANDIDATES)
    github = _numbered([slug(_text(document, kind, index)) for kind, index in order])
    if document.headings.ids or any(heading.id for heading in document.nested):
        listed = anchors(document)  # what selects each section heading
    else:
        listed = [
            found for (kind, _index), found in zip(order, github, strict=True) if kind == HEADING
        ]
    named: dict[str, str] = {}
    for (kind, index), found in zip(order, github, strict=True):
        found = listed[index] if kind == HEADING else document.nested[index].id or found
        named.setdefault(found, _text(document, kind, index, shown=True))
    for found, text in _term_ids(document, order):
        named.setdefault(found, text)
    names = list(named)
    lowered = [name.lower() for name in names]
    ranked = [i for i, a in enumerate(lowered) if a and (anchor in a or a in anchor)]
    ranked.sort(
        key=lambda i: (
            not (lowered[i].startswith(anchor) or anchor.startswith(lowered[i])),
            abs(len(lowered[i]) - len(anchor)),
        )
    )
    position = {a: i for i, a in enumerate(lowered)}
    ranked += [position[a] for a in get_close_matches(anchor, lowered, MAX_CLOSEST, 0.6)]
    result: list[int] = []
    for index in ranked:
        if index not in result:
            result.append(index)
    return [(names[i], named[names[i]]) for i in result[:MAX_CLOSEST]]
