"""The second ranking of a search: what a reader means by "where is this discussed?".

FTS5's BM25 hands over its best candidates (search); each is scored again by a weighted sum of
features between 0 and 1: how many of the words the section holds, how many its own title and
the titles above it hold, whether its title is the question itself, how many of its title's
words are not the question's, and whether it is a changelog's or a blog's (which mention
everything in passing). The weights were chosen on labelled questions from real documentation
trees (bench/bench_search.py), not per tree.
"""

from __future__ import annotations

import re

from mdsel.search_index import SearchIndex, spaced
from mdsel.search_query import STOP_WORDS, Query, fts_string

RANK_WEIGHTS = {
    "bm25": 1.75,  # BM25 over the fields, as a share of the best candidate's
    "words": 0.75,  # the share of the query's words the section holds anywhere
    "title_words": 2.0,  # the share its own title holds
    "context_words": 0.5,  # the share the titles above it (and the document's path) hold
    "path_words": 0.25,  # the share its title and the titles above it hold between them
    "title_is_query": 2.0,  # its title is the query's words, no more and no fewer
    "title_extra": -1.5,  # the share of its title's words that are not the query's
    "title_phrase": 0.5,  # its title holds the query's words as one phrase
    "changelog": -1.5,  # a changelog's, a release note's or a blog post's
    "root": -0.2,  # a page's text before its first heading
}
"""The second ranking: a section's score is the sum of these times its features (each 0–1)."""

_CHANGELOG = re.compile(
    r"(?:^|/)(?:changelog|changes|history|release[-_ ]?notes?|news|blog|posts?)(?:/|\.|$)",
    re.IGNORECASE,
)
_TOKEN = re.compile(r"\w+")


def fts(unit: str) -> str:
    """A word or phrase as the index holds it (CJK spaced apart), as an FTS5 string."""
    return fts_string(spaced(unit))


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
    anywhere = [index.matching(fts(unit), rowids) for unit in units]
    in_title = [index.matching("title : " + fts(unit), rowids) for unit in units]
    in_context = [index.matching("context : " + fts(unit), rowids) for unit in units]
    phrase = index.matching("title : " + fts(" ".join(units)), rowids) if count > 1 else set()
    wanted = {token for unit in units for token in _tokens(unit)}
    stems = {token[:5] for token in wanted}
    best = candidates[0][1] or 1.0
    found_features = []
    for rowid, bm25 in candidates:
        section = index.sections[rowid - 1]
        title_tokens = _tokens(section.titles[-1]) if section.heading >= 0 else []
        title_hits = sum(rowid in found for found in in_title)
        features: dict[str, float] = {
            "bm25": bm25 / best,
            "words": sum(rowid in found for found in anywhere) / count,
            "title_words": title_hits / count,
            "context_words": sum(rowid in found for found in in_context) / count,
            "path_words": sum(
                rowid in title or rowid in context
                for title, context in zip(in_title, in_context, strict=True)
            )
            / count,
            "title_is_query": float(bool(title_tokens) and set(title_tokens) == wanted),
            "title_extra": _extra(title_tokens, stems),
            "title_phrase": float(rowid in phrase),
            "changelog": float(bool(_CHANGELOG.search(index.paths[section.doc]))),
            "root": float(section.heading < 0),
        }
        found_features.append((rowid, features))
    return found_features


def _extra(title_tokens: list[str], stems: set[str]) -> float:
    """The share of a title's words that are none of the query's (a word's first five letters
    stand for its forms); 1 for no title."""
    if not title_tokens:
        return 1.0
    return sum(token[:5] not in stems for token in title_tokens) / len(title_tokens)


def _tokens(text: str) -> list[str]:
    return [t for t in _TOKEN.findall(text.lower()) if t not in STOP_WORDS]
