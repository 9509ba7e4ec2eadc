"""Selectors worth trying after a miss: close existing selectors, and headings whose title
fuzzily matches a word of the request (`install` → `h2.3 Installation guide`).

Ranking is deterministic: title matches by score, then the nearest existing ordinals of the
requested type, then string-similar selectors; ties keep document order. The search is bounded
(MAX_CANDIDATES per document, MAX_WORDS request words) so a 100,000-heading document or a
4,096-character request costs the same few milliseconds.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from difflib import SequenceMatcher, get_close_matches

from mdsel.errors import Suggestion
from mdsel.names import heading_selector
from mdsel.selector import ANCHOR, LINE, LINES, Segment
from mdsel.tree import BLOCK_KINDS, Document, Source

MAX_SUGGESTIONS = 5
MAX_CANDIDATES = 2000
"""Headings (and blocks) looked at per document."""
MAX_WORDS = 8
"""Words of the request matched against heading titles."""
TITLE_CUTOFF = 0.75

_WORDS = re.compile(r"[^\W\d_]{3,}")
_NOT_ALNUM = re.compile(r"[\W_]+")
_TYPE_WORDS = frozenset(
    {"root", "section", "para", "paragraph", "code", "list", "table", "quote", "blockquote"}
    | {"block", "heading", "head", "tail", "page", "full", "toc", "true", "false"}
)


def suggest(
    request: str,
    sources: Sequence[Source],
    docs: Iterable[int],
    segment: Segment | None = None,
) -> tuple[Suggestion, ...]:
    """Up to MAX_SUGGESTIONS suggestions for `request` in the given documents.

    `segment` is the missing segment when the request parsed (its type and index steer the
    nearest-ordinal suggestions).
    """
    docs = list(docs)
    ranked: list[Suggestion] = []
    if segment is None:  # the request did not parse: what it most likely meant, if it exists
        ranked += _repaired(request, sources, docs)
    if segment is not None and segment.type in (LINE, LINES):
        ranked += _last_lines(sources, docs)
    if segment is not None and segment.type == ANCHOR:
        ranked += _closest_anchors(segment.name, sources, docs)
    if segment is not None and segment.type[:1] == "h" and segment.items:
        ranked += _numbered_heading(segment, sources, docs)
    if not ranked:  # the closest anchors name the same headings the title words would
        ranked += _title_matches(request, sources, docs)
    if segment is not None and segment.type not in (LINE, LINES, ANCHOR):
        ranked += _nearest_in_scope(request, segment, sources, docs)
        ranked += _nearest(segment, sources, docs)
    ranked += _similar(request, sources, docs)
    seen: set[tuple[str, str]] = set()
    result: list[Suggestion] = []
    for suggestion in ranked:
        key = (suggestion.namespace, suggestion.selector)
        if key not in seen:
            seen.add(key)
            result.append(suggestion)
        if len(result) == MAX_SUGGESTIONS:
            break
    return tuple(result)


def _repaired(request: str, sources: Sequence[Source], docs: list[int]) -> list[Suggestion]:
    """The repairs of a request that does not parse (mdsel.repair) that name something."""
    from mdsel.errors import SelectorSyntaxError
    from mdsel.nodes import HEADING, SECTION
    from mdsel.repair import repairs
    from mdsel.resolve import resolve
    from mdsel.selector import parse_request

    picked = [sources[doc] for doc in docs]
    result = []
    for candidate in repairs(request):
        try:
            selector = parse_request(candidate)[0]
        except SelectorSyntaxError:
            continue
        for node in resolve(selector, picked).nodes[:1]:
            source = picked[node.doc]
            title = ""
            if node.kind in (HEADING, SECTION):
                title = source.document.headings.title(node.ref)
            result.append(Suggestion(candidate, title, source.namespace))
    return result


def _numbered_heading(
    segment: Segment, sources: Sequence[Source], docs: list[int]
) -> list[Suggestion]:
    """The heading that number names in the document (`h3.4` of a missed `h2.5/h3.4`): the
    index prints it so, under whichever section holds it."""
    assert segment.items is not None
    ordinal = segment.items[0].first
    result = []
    for doc in docs:
        level_indices = sources[doc].document.headings.numbers.by_level[int(segment.type[1])]
        if ordinal < len(level_indices):
            result.append(_heading(sources[doc], level_indices[ordinal]))
    return result


def _last_lines(sources: Sequence[Source], docs: list[int]) -> list[Suggestion]:
    """A line past the end: the section holding each document's last line."""
    return [
        Suggestion(f"L{sources[doc].document.line_count}", "", sources[doc].namespace)
        for doc in docs
        if sources[doc].document.line_count
    ]


def _closest_anchors(anchor: str, sources: Sequence[Source], docs: list[int]) -> list[Suggestion]:
    from mdsel.anchors import closest
    from mdsel.fragments import written_fragment

    result: list[Suggestion] = []
    for doc in docs:
        source = sources[doc]
        for name, title in closest(source.document, anchor):
            result.append(Suggestion(f"#{written_fragment(name)}", title, source.namespace))
    return result


def _heading(source: Source, index: int) -> Suggestion:
    # From the columns: a Heading value would work out every heading's lines first.
    headings = source.document.headings
    selector = heading_selector(headings.levels[index], headings.numbers.ordinal(index))
    return Suggestion(selector, headings.title(index), source.namespace)


def _title_matches(request: str, sources: Sequence[Source], docs: list[int]) -> list[Suggestion]:
    words = [w.lower() for w in _WORDS.findall(request) if w.lower() not in _TYPE_WORDS]
    words = words[:MAX_WORDS]
    if not words:
        return []
    scored: list[tuple[float, int, int, Suggestion]] = []
    for doc in docs:
        source = sources[doc]
        for index, heading in enumerate(source.document.headings[:MAX_CANDIDATES]):
            title_words = [w.lower() for w in _WORDS.findall(heading.title)]
            # The whole title run together (`docs_dir`, `Docs Dir` → `docsdir`) typed as one
            # word beats a title that only shares a part of it.
            joined = _NOT_ALNUM.sub("", heading.title.lower())
            best = 1.2 if joined in words else 0.0
            for word in words:
                for title_word in title_words:
                    if title_word.startswith(word) or word.startswith(title_word):
                        score = 1.0
                    elif _shared_stem(word, title_word):
                        score = 0.9  # configure ~ configuration, install ~ installing
                    else:
                        score = SequenceMatcher(None, word, title_word).ratio()
                    best = max(best, score)
            if best >= TITLE_CUTOFF:
                scored.append((-best, doc, index, _heading(source, index)))
    scored.sort(key=lambda entry: entry[:3])
    return [entry[3] for entry in scored]


def _shared_stem(a: str, b: str) -> bool:
    """Words sharing a long common beginning: at least 5 letters and 70% of the shorter."""
    common = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        common += 1
    return common >= max(5, 0.7 * min(len(a), len(b)))


def _nearest(segment: Segment, sources: Sequence[Source], docs: list[int]) -> list[Suggestion]:
    """The last existing ordinal of the requested type (what an out-of-range index was after),
    then the first; for a type absent everywhere, the first node of each type that exists."""
    result: list[Suggestion] = []
    for doc in docs:
        source = sources[doc]
        count = _count(source.document, segment.type)
        if count:
            for ordinal in (count - 1, 0):
                result.append(_by_type(source, segment.type, ordinal))
    if not result:
        for doc in docs:
            source = sources[doc]
            by_level = source.document.headings.numbers.by_level
            for level in range(1, 7):
                if by_level[level]:
                    result.append(_heading(source, by_level[level][0]))
            for kind in BLOCK_KINDS:
                if source.document.blocks.top[kind]:
                    result.append(Suggestion(f"{kind}.0", "", source.namespace))
    return result


def _nearest_in_scope(
    request: str, segment: Segment, sources: Sequence[Source], docs: list[int]
) -> list[Suggestion]:
    """For a miss after a `/` (`h2.7/para.99`): the last and first of that type inside the same
    scope (`h2.7/para.12`, `h2.7/para.0`), which the document-wide ones are not; a scope with
    none of that type (`h2.1/code.0` on a section without code), the first of each kind of
    block it has (`h2.1/para.0`, `h2.1/list.0`): what exists there comes before what exists
    elsewhere."""
    from mdsel.errors import SelectorSyntaxError
    from mdsel.resolve import candidates, resolve
    from mdsel.selector import format_segments, parse_request

    try:
        selector = parse_request(request)[0]
    except SelectorSyntaxError:
        return []
    kinds = [s.type for s in selector.segments]
    if segment.type not in kinds[1:] or segment.type.startswith("h"):
        return []  # headings keep their document-wide numbers in any scope
    prefix = selector.segments[: len(kinds) - 1 - kinds[::-1].index(segment.type)]
    if not prefix:
        return []
    picked = [sources[doc] for doc in docs]
    scopes = resolve(selector._replace(segments=prefix, params=selector.params), picked).nodes
    written = format_segments(prefix)
    result: list[Suggestion] = []
    for scope in scopes[:MAX_SUGGESTIONS]:
        count = len(candidates(picked, scope, segment.type))
        namespace = picked[scope.doc].namespace
        for ordinal in dict.fromkeys((count - 1, 0)) if count else ():
            result.append(Suggestion(f"{written}/{segment.type}.{ordinal}", "", namespace))
        if not count:
            for kind in BLOCK_KINDS:
                if kind != segment.type and len(candidates(picked, scope, kind)):
                    result.append(Suggestion(f"{written}/{kind}.0", "", namespace))
    return result


def _count(document: Document, kind: str) -> int:
    if kind == "section":
        return len(document.headings)
    if kind.startswith("h"):
        return len(document.headings.numbers.by_level[int(kind[1])])
    if kind in document.blocks.top:
        return len(document.blocks.top[kind])
    return 0


def _by_type(source: Source, kind: str, ordinal: int) -> Suggestion:
    document = source.document
    if kind == "section":
        return Suggestion(f"section.{ordinal}", document.headings[ordinal].title, source.namespace)
    if kind.startswith("h"):
        return _heading(source, document.headings.numbers.by_level[int(kind[1])][ordinal])
    return Suggestion(f"{kind}.{ordinal}", "", source.namespace)


def _similar(request: str, sources: Sequence[Source], docs: list[int]) -> list[Suggestion]:
    """Existing selectors whose text is close to the request's (typos like `h2,1` or `cod.0`)."""
    pool: dict[str, Suggestion] = {}
    for doc in docs:
        source = sources[doc]
        for index in range(min(len(source.document.headings), MAX_CANDIDATES)):
            suggestion = _heading(source, index)
            pool.setdefault(suggestion.selector, suggestion)
        for kind in BLOCK_KINDS:
            for ordinal in range(min(len(source.document.blocks.top[kind]), 50)):
                pool.setdefault(
                    f"{kind}.{ordinal}", Suggestion(f"{kind}.{ordinal}", "", source.namespace)
                )
    target = request.split("::")[-1].strip().lower()[:64]
    return [
        pool[key] for key in get_close_matches(target, list(pool), n=MAX_SUGGESTIONS, cutoff=0.6)
    ]
