"""A search (`?q=WORDS`, `h2.1?q=WORDS`) → ranked sections, the best one's text inline.

FTS5 finds the sections holding any of the words and ranks them by BM25 over the fields
(search_index); the best few hundred are ranked again (search_rank), and a page of them is
listed with their best lines and the first one's text.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence

from mdsel.budget import UNITS_PER_TOKEN, answer_room, data_cost, text_cost
from mdsel.errors import INVALID_SELECTOR, SELECTOR_NOT_FOUND, Problem, Suggestion
from mdsel.names import heading_selector
from mdsel.results import Hit, Options, Search
from mdsel.search_index import SearchCache, SearchIndex, Section, spaced
from mdsel.search_query import MAX_UNITS, STOP_WORDS, Query, parse_query
from mdsel.search_rank import PART, fts, rerank, unit_expression
from mdsel.selector_values import Params, Segment, Selector, format_segments
from mdsel.tree import Document, Source

HITS_PER_PAGE = 8
"""Hits listed per answer; `&page=N` lists the next ones."""

CANDIDATES = 200
"""Sections BM25 hands to the second ranking: enough to hold the answer nearly always (on the
benchmark's questions it is among them 96 times in 100), few enough to rank at once."""

MAX_HIT_LINES = 3
"""Matching lines shown under each hit."""

PREVIEW_CHARS = 160
"""A matching line is cut to this many characters."""

_TOKEN = re.compile(r"\w+")


def search(
    selector: Selector,
    sources: Sequence[Source],
    options: Options,
    named: int,
    scope: dict[int, list[tuple[int, int]]] | None,
    cache: SearchCache | None = None,
) -> Search | Problem:
    """Search the sources for `selector`'s words; `scope`: document → its line spans to search
    (None: every document whole). A bad query is an INVALID_SELECTOR problem saying what to
    change; no match is a SELECTOR_NOT_FOUND problem with the nearest words that occur."""
    assert selector.params.q is not None
    query = parse_query(selector.params.q)
    if isinstance(query, str):
        return Problem(INVALID_SELECTOR, "SEARCH", query, selector=selector.source)
    index = cache.get(sources) if cache is not None else SearchIndex(sources)
    try:
        return _answer(selector, query, index, sources, options, named, scope)
    finally:
        if cache is None:
            index.close()


def _answer(
    selector: Selector,
    query: Query,
    index: SearchIndex,
    sources: Sequence[Source],
    options: Options,
    named: int,
    scope: dict[int, list[tuple[int, int]]] | None,
) -> Search | Problem:
    allowed = None if scope is None else _in_scope(index, scope)
    candidates, total = index.ranked(_expression(query), CANDIDATES, allowed)
    loose = _loosened(query)
    if not candidates and loose is not None:
        # An identifier is a phrase of its parts (`tool.hatch.envs.<name>.locker`); where it
        # occurs nowhere as written, the sections holding its parts are the nearest answer.
        candidates, total = index.ranked(_expression(loose), CANDIDATES, allowed)
        query = loose._replace(written=query.written)
    if not candidates:
        return _no_match(selector, query, index, allowed)
    ranked = rerank(index, query, candidates)
    page = selector.params.page or 1
    first = (page - 1) * HITS_PER_PAGE
    listed = min(total, len(ranked))  # the best CANDIDATES are ranked and can be paged
    if first >= listed:
        pages = -(-listed // HITS_PER_PAGE)
        return Problem(
            SELECTOR_NOT_FOUND,
            "OUT_OF_RANGE",
            f"the search has {pages} page{'s' * (pages != 1)} of hits; page={page} is past "
            "the last",
            selector=selector.source,
        )
    chosen = ranked[first : first + HITS_PER_PAGE]
    hits = tuple(_hit(index, sources, rowid, score, query) for rowid, score in chosen)
    shown_through = first + len(hits)
    more = listed > shown_through
    next_page = _with_page(selector, page + 1) if more else None
    best = hits[0]
    answer = Search(
        query.written, hits, total, first + 1, next_page, _narrowing(selector, sources, named),
        "", best.line_start, best.line_start - 1, len(sources), False, (), 0,
    )  # fmt: skip
    answer = _fitted_listing(answer, options)
    room = answer_room(options.answer_tokens) - MARGIN - _listing_cost(answer, options)
    document = sources[index.sections[chosen[0][0] - 1].doc].document
    text, text_end, cut = _text(document, best.line_start, best.line_end, room, options)
    return answer._replace(text=text, text_end=text_end, text_cut=cut)


def _fitted_listing(answer: Search, options: Options) -> Search:
    """The page's hits as the answer budget lets them be listed with room for some of the first
    one's text: all with their best lines; else one line each; else none; else the last hits
    named only (`left_out`), the first always listed; else, with no room left for the text,
    as many named as fit. A small budget only: at the default, a page of eight hits takes a
    fifth of it at most."""
    room = answer_room(options.answer_tokens) - MARGIN - MIN_TEXT
    for keep in (MAX_HIT_LINES, 1, 0):
        trial = answer._replace(hits=tuple(h._replace(lines=h.lines[:keep]) for h in answer.hits))
        if _listing_cost(trial, options) <= room:
            return trial
    hits = trial.hits
    if len(hits) == 1:
        return trial
    names = [f"{h.namespace}::{h.selector}" for h in hits]
    for listed in range(len(hits) - 1, 0, -1):
        shorter = trial._replace(
            hits=hits[:listed], left_out=tuple(names[listed:]), unlisted=len(hits) - listed
        )
        if _listing_cost(shorter, options) <= room:
            return shorter
    # One hit listed leaves no room for the others' names and some text: the names first (the
    # text's room goes to them: each names a section the answer cannot show), as many as fit.
    while shorter.left_out and _listing_cost(shorter, options) > room + MIN_TEXT:
        shorter = shorter._replace(left_out=shorter.left_out[:-1])
    return shorter


ENVELOPE = 150 * UNITS_PER_TOKEN
"""About what a JSON envelope takes around a search's matches (success, command, timestamp,
the search's summary, a warning's words)."""

MIN_TEXT = 80 * UNITS_PER_TOKEN
"""Room kept for the first hit's text when the budget is too small for the whole listing."""

MARGIN = 40 * UNITS_PER_TOKEN
"""What an answer may take beyond what _listing_cost counts: the lines the text's `==>` header
and closing note then name, a line cut short, what the JSON envelope's estimate leaves out."""


def _listing_cost(answer: Search, options: Options) -> int:
    """What the answer takes but for the first hit's text: the text answer rendered without it
    (its summary, hits, header, note and closing line), or the JSON envelope's matches (their
    keys and indentation) and the envelope around them, estimated."""
    if options.json:
        from mdsel.json_budget import entries_cost
        from mdsel.render_search import json_matches

        # The envelope's own fields, and the warning naming hits left out.
        named = text_cost(" ".join(answer.left_out)) if answer.left_out else 0
        return entries_cost(json_matches(answer)) + ENVELOPE + named
    from mdsel.render_search import text

    return text_cost("".join(text(answer._replace(text=""), True)))


def _expression(query: Query) -> str:
    """The FTS5 expression of the query: any of its words; every phrase, when it has some."""
    expression = " OR ".join(
        unit_expression(unit, phrase)
        for unit, phrase in zip(query.units, query.phrases, strict=True)
    )
    if query.phrases and all(query.phrases):
        return " AND ".join(fts(unit) for unit in query.units)
    if any(query.phrases):  # a phrase must occur; the words may
        required = " AND ".join(
            fts(unit) for unit, phrase in zip(query.units, query.phrases, strict=True)
            if phrase
        )  # fmt: skip
        return f"({required}) AND ({expression})"
    return expression


def _loosened(query: Query) -> Query | None:
    """The query with each word of several parts (`a.b_c`) as its parts, or None when it has
    none; quoted phrases stay as written. A CJK word is one part: its characters apart are
    other words (数据库 is not 数 or 库)."""
    units: list[str] = []
    phrases: list[bool] = []
    for unit, phrase in zip(query.units, query.phrases, strict=True):
        parts = [unit] if phrase else PART.findall(unit)
        for part in parts:
            if part not in units and (phrase or part not in STOP_WORDS):
                units.append(part)
                phrases.append(phrase)
    if units == list(query.units) or not units or len(units) > MAX_UNITS:
        return None
    return Query(tuple(units), tuple(phrases), query.written)


def _in_scope(index: SearchIndex, scope: dict[int, list[tuple[int, int]]]) -> list[int]:
    """The rowids of the sections whose own lines meet a span of `scope`: a section's own
    subsections lie inside its span, a block's section holds it."""
    # Per document, the spans merged into runs apart from one another, in order: a section
    # meets one when the last run starting at or before its last line reaches its first.
    runs: dict[int, tuple[list[int], list[int]]] = {}
    for doc, spans in scope.items():
        starts: list[int] = []
        ends: list[int] = []
        for span_first, span_last in sorted(spans):
            if ends and span_first <= ends[-1] + 1:
                ends[-1] = max(ends[-1], span_last)
            else:
                starts.append(span_first)
                ends.append(span_last)
        runs[doc] = starts, ends
    allowed = []
    for rowid, section in enumerate(index.sections, start=1):
        found = runs.get(section.doc)
        if not found:
            continue
        first, last = own_lines(index.documents[section.doc], section)
        starts, ends = found
        at = bisect_right(starts, last) - 1
        if at >= 0 and ends[at] >= first:
            allowed.append(rowid)
    return allowed


def _hit(
    index: SearchIndex, sources: Sequence[Source], rowid: int, score: float, query: Query
) -> Hit:
    section = index.sections[rowid - 1]
    source = sources[section.doc]
    document = source.document
    first, last = own_lines(document, section)
    if section.heading < 0:
        selector = "root"
    else:
        level = document.headings.levels[section.heading]
        selector = heading_selector(level, document.headings.numbers.ordinal(section.heading))
    words = document.lines.words_between(section.start, section.end)
    return Hit(
        source.namespace, source.path, selector, section.titles, first, last, words,
        round(score, 4), _best_lines(document, first, last, query),
    )  # fmt: skip


def own_lines(document: Document, section: Section) -> tuple[int, int]:
    """The section's own lines: its first line to the last that is not blank before the next
    heading (or the document's end)."""
    lines = document.lines
    first = lines.line_of(section.start)
    last = lines.line_of(max(section.start, section.end - 1))
    data = document.data
    starts = lines.starts
    while last > first and not data[starts[last - 1] : starts[last]].strip():
        last -= 1
    return first, last


def _best_lines(
    document: Document, first: int, last: int, query: Query
) -> tuple[tuple[int, str], ...]:
    """The lines of first..last holding most of the query's words, at most MAX_HIT_LINES, in
    order: a word as written counts twice, one of its forms once (its first five letters stand
    for them: `configuring` for `configure`; so does `beforeUpdate` for `before`)."""
    words = [_TOKEN.findall(spaced(unit)) for unit in query.units]
    stems = [[token[:5] for token in unit] for unit in words]
    data = document.data
    starts = document.lines.starts
    counted: list[tuple[int, int, str]] = []
    # Bounded: a section of a million lines is looked at for its first few thousand.
    for number in range(first, min(last, first + 5000) + 1):
        raw = data[starts[number - 1] : starts[number]]
        text = raw.decode("utf-8", "replace").strip()
        if not text:
            continue
        lowered = text.lower()
        tokens = _TOKEN.findall(spaced(lowered))
        exact = set(tokens)
        found = sum(
            2 if all(word in exact for word in unit_words) else 1
            for unit_words, unit in zip(words, stems, strict=True)
            if unit and all(any(token.startswith(stem) for token in tokens) for stem in unit)
        )
        if found:
            counted.append((found, number, text))
    counted.sort(key=lambda item: (-item[0], item[1]))
    chosen = sorted(counted[:MAX_HIT_LINES], key=lambda item: item[1])
    return tuple((number, _preview(text)) for _found, number, text in chosen)


def _preview(text: str) -> str:
    text = "".join(char if char.isprintable() else " " for char in text)
    return text if len(text) <= PREVIEW_CHARS else text[: PREVIEW_CHARS - 1] + "…"


def _text(
    document: Document, first: int, last: int, room: int, options: Options
) -> tuple[str, int, bool]:
    """The lines first..last, verbatim, as many as fit `room` (an estimated cost, the larger of
    the text's and its JSON string's) and the page's words; the last line given; and whether
    it was cut within (a first line too long alone is cut at a character)."""
    data = document.data
    starts = document.lines.starts
    room = max(room, 0)  # none left: the first line is cut to nothing, and the answer says so
    end = first - 1
    used = words = 0
    for number in range(first, last + 1):
        line = data[starts[number - 1] : starts[number]]
        line_words = len(line.split())
        cost = _line_cost(line)
        if end >= first and (used + cost > room or words + line_words > options.page_words):
            break
        used += cost
        words += line_words
        end = number
    raw = data[starts[first - 1] : starts[end]]
    cut = used > room
    if cut:  # one line alone: cut where its estimate fits
        raw = raw[: len(raw) * room // used]
    return raw.decode("utf-8", "ignore"), end, cut


def _line_cost(line: bytes) -> int:
    """A line's estimated cost in the answer: in JSON a `"` or `\\` takes two characters and a
    control character six, so such text costs more there than as text."""
    cost = data_cost(line)
    if line.isascii() and not _ESCAPED.search(line):
        return cost
    import json

    escaped = json.dumps(line.decode("utf-8", "replace"), ensure_ascii=False)
    return max(cost, text_cost(escaped))


_ESCAPED = re.compile(rb'["\\\x00-\x09\x0b-\x1f]')


def _with_page(selector: Selector, page: int, words: str | None = None) -> str:
    """The selector of page `page` of the same search (of `words` instead, when given)."""
    assert selector.params.q is not None
    words = " ".join((selector.params.q if words is None else words).split())
    # Written back as the request reads it: `%`, `+` and `&` escaped (`%2B` was decoded to
    # `+`, which would read as a space; `%26page%3D3` to `&page=3`, a parameter).
    words = words.replace("%", "%25").replace("+", "%2B").replace("&", "%26")
    prefix = f"{selector.namespace}::" if selector.namespace and not selector.link else ""
    scope = format_segments(selector.segments) if selector.segments else ""
    if selector.link and selector.segments:
        scope = selector.link + scope
    elif selector.file:  # `docs/a.md:23`, as written: `L23` alone would be in every document
        scope = f"{selector.file}:{scope[1:]}"
    return f"{prefix}{scope}?q={words}&page={page}"


def _narrowing(selector: Selector, sources: Sequence[Source], named: int) -> str:
    if named > 1:
        return "a subdirectory or one file instead of the whole set, or a section: h2.1?q=…"
    return "a section of the document: h2.1?q=…"


def _no_match(
    selector: Selector, query: Query, index: SearchIndex, allowed: list[int] | None
) -> Problem:
    near = index.nearest_words(query.units, allowed)
    where = "in the sections searched" if allowed is not None else "in any document"
    message = f"no section holds {' or '.join(repr(u) for u in query.units)} {where}"
    if near:
        message += "; the nearest words that occur: " + ", ".join(near)
    else:
        message += "; try other words, or mdsel index to see the headings"
    suggestions = tuple(
        Suggestion(_with_page(selector, 1, word).rsplit("&page=", 1)[0]) for word in near[:3]
    )
    return Problem(
        SELECTOR_NOT_FOUND, "NO_MATCH", message, selector=selector.source, suggestions=suggestions
    )


def scope_selector(selector: Selector) -> Selector | None:
    """The selector whose matches a search looks inside (its params dropped), or None for
    every document of the call; a namespace alone scopes to its document's root."""
    if selector.segments:
        return selector._replace(params=Params())
    if selector.namespace is not None:
        return selector._replace(segments=(Segment("root", None),), params=Params())
    return None
