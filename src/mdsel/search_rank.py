"""The second ranking of a search: what a reader means by "where is this discussed?".

FTS5's BM25 hands over its best candidates (search); each is scored again by a weighted sum of
features between 0 and 1: how many of the words the section holds, how many the titles above
it hold, whether its title is the question itself (and as written), how many of its title's
words are not the question's, whether its page's title holds them (then the page answers, not
this section), how long it is (a treatment, not a mention in passing), how deep its heading is,
whether it is a changelog's or a blog's (which mention everything in passing), and whether it
holds the words as a link's text (it points to where they are treated). The weights were chosen
on labelled questions from real documentation trees (bench/bench_search.py), tuned on two trees
and checked on three others and on seven never tuned on (`--more`), never per tree;
bench/search_features.py tries other weights in seconds.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable

from mdsel.search_index import TEXT, SearchIndex, Section, spaced
from mdsel.search_query import STOP_WORDS, Query, fts_string

RANK_WEIGHTS = {
    "bm25": 1.75,  # BM25 over the fields, as a share of the best candidate's
    "words": 1.25,  # the share of the query's words the section holds anywhere
    "context_words": 0.5,  # the share the titles above it (and the document's path) hold
    "path_words": 2.5,  # the share its title and the titles above it hold between them
    "title_is_query": 2.0,  # its title is the query's words, no more and no fewer (plurals aside)
    "title_verbatim": 0.25,  # and as written: `ref()` is not `ref`, nor `$watch()` `watch()`
    "title_extra": -1.75,  # the share of its title's words that are not the query's
    "page_words": -0.25,  # the share its page's title holds: the page, not this section
    "size": 1.75,  # its own words, on a log scale up to 2,000: a treatment, not a mention
    "span_size": 0.75,  # the same with its subsections, up to 5,000
    "depth": -0.25,  # its heading's level, h1 0 to h6 1: deep ones are details
    "changelog": -1.5,  # a changelog's, a release note's or a blog post's
    "linked_away": -0.25,  # it holds the words as a link's text: it points to their place
    "root": -0.2,  # a page's text before its first heading
}
"""The second ranking: a section's score is the sum of these times its features (each 0–1)."""

_CHANGELOG = re.compile(
    r"(?:^|/)(?:changelog|changes|history|release[-_ ]?notes?|news|blog|posts?)(?:/|\.|$)",
    re.IGNORECASE,
)
_TOKEN = re.compile(r"\w+")


PART = re.compile(r"[^\W_]+")
"""A part of a word as the index splits it: letters and digits (`_` and `.` separate)."""

MIN_LEADING_PARTS = 2
"""The fewest leading parts of an identifier that still stand for it (`server.watch` for
`server.watch.usePolling`): one alone (`server`) names too much."""

MAX_LEADING = 4
"""Shorter forms tried per identifier, the longest first: each is an FTS5 phrase looked up
three times, and a word of thousands of parts must stay one bounded search."""


def fts(unit: str) -> str:
    """A word or phrase as the index holds it (CJK spaced apart), as an FTS5 string."""
    return fts_string(spaced(unit))


def alternatives(unit: str, phrase: bool) -> list[tuple[str, float]]:
    """What stands for a unit, with its share of the unit: the unit itself (1), and for a
    word of several parts (`server.watch.usePolling`) its leading parts down to
    MIN_LEADING_PARTS (`server.watch`, 2/3; at most MAX_LEADING of them): an option's own
    section is often titled by its parent's name, and holds the child's name only in its text
    or code."""
    found = [(unit, 1.0)]
    if phrase:
        return found
    parts = PART.findall(unit)  # a CJK run is one part: its leading characters are other words
    count = len(parts)
    for size in range(count - 1, max(MIN_LEADING_PARTS, count - MAX_LEADING) - 1, -1):
        found.append((" ".join(parts[:size]), size / count))
    return found


def unit_expression(unit: str, phrase: bool) -> str:
    """The FTS5 expression a unit matches: any of its alternatives."""
    found = alternatives(unit, phrase)
    if len(found) == 1:
        return fts(unit)
    return "(" + " OR ".join(fts(text) for text, _share in found) + ")"


def rerank(
    index: SearchIndex, query: Query, candidates: list[tuple[int, float]]
) -> list[tuple[int, float]]:
    """The candidates by RANK_WEIGHTS times their features, best first."""
    weights = RANK_WEIGHTS
    scored = [
        (rowid, sum(weights[name] * value for name, value in found.items()))
        for rowid, found in features(index, query, candidates)
    ]
    scored.sort(key=lambda pair: -pair[1])
    return scored


def features(
    index: SearchIndex, query: Query, candidates: list[tuple[int, float]]
) -> list[tuple[int, dict[str, float]]]:
    """Each candidate's features (the names of RANK_WEIGHTS, each 0–1), in candidate order."""
    rowids = [rowid for rowid, _score in candidates]
    units = query.units
    count = len(units)
    each = [alternatives(u, p) for u, p in zip(units, query.phrases, strict=True)]
    # Every candidate holds one of the words at least: one word needs no look-up.
    anywhere = (
        [dict.fromkeys(rowids, 1.0)]
        if count == 1 and len(each[0]) == 1
        else [_shares(index, TEXT, found, rowids) for found in each]
    )
    in_title = [_shares(index, "title : ", found, rowids) for found in each]
    in_context = [_shares(index, "context : ", found, rowids) for found in each]
    in_links = [_shares(index, "links : ", found, rowids) for found in each]
    words = {token for unit in units for token in _tokens(unit)}
    wanted = _singular(words)
    stems = {token[:5] for token in words}
    # A title's every word counts against it, common ones too (`v-if vs. v-show` is not
    # `v-show`), unless the query has it (in either number: `Modes` has no word not `mode`).
    asked = {_one(token)[:5] for token in _TOKEN.findall(query.written.lower())}
    verbatim = _as_written(query.written.replace('"', ""))
    best = candidates[0][1] or 1.0
    found_features = []
    for rowid, bm25 in candidates:
        section = index.sections[rowid - 1]
        title = section.titles[-1] if section.heading >= 0 else ""
        title_tokens = _tokens(title)
        features: dict[str, float] = {
            "bm25": bm25 / best,
            "words": sum(found.get(rowid, 0.0) for found in anywhere) / count,
            "context_words": sum(found.get(rowid, 0.0) for found in in_context) / count,
            "path_words": sum(
                max(title.get(rowid, 0.0), context.get(rowid, 0.0))
                for title, context in zip(in_title, in_context, strict=True)
            )
            / count,
            "title_is_query": float(bool(title_tokens) and _singular(title_tokens) == wanted),
            "title_verbatim": float(bool(title) and _as_written(title) == verbatim),
            "title_extra": _extra([_one(t) for t in _TOKEN.findall(title.lower())], asked),
            "changelog": float(bool(_CHANGELOG.search(index.paths[section.doc]))),
            "root": float(section.heading < 0),
            "page_words": _share(_tokens(section.titles[0]) if section.titles else [], stems),
            "size": min(1.0, math.log1p(_words(index, section)) / _LOG_WORDS),
            "span_size": min(1.0, math.log1p(_span_words(index, section)) / _LOG_SPAN),
            "depth": _depth(index, section),
            "linked_away": float(all(rowid in found for found in in_links)),
        }
        found_features.append((rowid, features))
    return found_features


def _shares(
    index: SearchIndex, column: str, found: list[tuple[str, float]], rowids: list[int]
) -> dict[int, float]:
    """Each of `rowids` holding the unit (in `column`) → the largest share of it held: 1 for
    the unit itself, less for an identifier's leading parts alone."""
    shares: dict[int, float] = {}
    for text, share in reversed(found):  # the larger shares last: they overwrite
        for rowid in index.matching(column + fts(text), rowids):
            shares[rowid] = share
    return shares


def _share(tokens: list[str], stems: set[str]) -> float:
    """The share of the query's words (by their first five letters) among `tokens`."""
    if not stems:
        return 0.0
    return len(stems.intersection(token[:5] for token in tokens)) / len(stems)


_LOG_WORDS = math.log1p(2000)
"""A section of 2,000 words or more counts as fully sized."""


def _words(index: SearchIndex, section: Section) -> int:
    return index.documents[section.doc].lines.words_between(section.start, section.end)


_LOG_SPAN = math.log1p(5000)


def _depth(index: SearchIndex, section: Section) -> float:
    if section.heading < 0:
        return 0.0
    return (index.documents[section.doc].headings.levels[section.heading] - 1) / 5


def _span_words(index: SearchIndex, section: Section) -> int:
    """The words of the section with its subsections."""
    if section.heading < 0:
        return _words(index, section)
    document = index.documents[section.doc]
    end = document.headings.section_ends[section.heading]
    return document.lines.words_between(section.start, end)


def _extra(title_tokens: list[str], stems: set[str]) -> float:
    """The share of a title's words that are none of the query's (`stems`: a word's first five
    letters stand for its forms); 1 for no title."""
    if not title_tokens:
        return 1.0
    return sum(token[:5] not in stems for token in title_tokens) / len(title_tokens)


def _tokens(text: str) -> list[str]:
    return [t for t in _TOKEN.findall(text.lower()) if t not in STOP_WORDS]


def _singular(tokens: Iterable[str]) -> set[str]:
    """The words, a plural's `s` dropped: a title `Modes` is the query `mode`."""
    return {_one(t) for t in tokens}


def _one(token: str) -> str:
    return token[:-1] if len(token) > 3 and token.endswith("s") else token


def _as_written(text: str) -> str:
    """A title or query as written, case and runs of spaces aside, and marks after it: `*`s
    (`ref() **`) and a run of `#`s after a space (`Features ###`), never a word's own (`C#`)."""
    text = " ".join(text.casefold().split()).rstrip(" *")
    bare = text.rstrip("#")
    if bare != text and bare.endswith(" "):
        text = bare.rstrip(" *")
    return text
