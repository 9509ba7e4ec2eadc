"""The answer budget for `--json`: the envelope held to MDSEL_MAX_ANSWER_TOKENS as text is.

A select's matches already come in pages that fit (mdsel.matches); what the envelope adds to
them, `children_available` lists of a hundred previews, is left out past the budget, then the
last matches, named in a warning. An index that does not fit becomes a map of its documents:
headings deeper than a level left out, the deepest level that fits kept in every document; with
no headings at all still too long, the first documents that fit, the rest counted and named.
`--full` / `full=true` is the way past, as for text.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from mdsel.budget import text_cost

MAX_NAMED = 20
"""Documents or matches left out that a warning names; the rest are counted."""

Entries = list[dict[str, Any]]
Measure = Callable[[Entries, list[str]], int]
"""The cost of the whole envelope with these entries and these extra warnings."""

HOW = "use --full (full=true) for everything"


def fit_index(documents: Entries, measure: Measure, room: int, tokens: int) -> tuple[Entries, str]:
    """`documents` (DocumentIndex entries) cut to fit `room`, and the warning saying what was
    left out ('' when nothing was). Planned from the cost of each document's entry and of its
    headings level by level (encoded compactly, in C, with room for the line breaks and
    indentation the answer adds), then the cut measured whole."""
    shells = [{**d, "headings": []} for d in documents]
    shell_costs = [entries_cost([shell]) for shell in shells]
    by_level = [0] * 8
    for document in documents:
        levels: dict[int, Entries] = {}
        for heading in document["headings"]:
            levels.setdefault(heading["depth"], []).append(heading)
        for depth, headings in levels.items():
            by_level[depth] += entries_cost(headings)
    base = measure([], [_levels_note(0, tokens)]) + sum(shell_costs)
    if base + sum(by_level) <= room:
        return documents, ""
    # The deepest level whose headings all fit; then that level's next headings, in order.
    level, used = 0, base
    while level < 6 and used + by_level[level + 1] <= room:
        level += 1
        used += by_level[level]
    extra: list[int] = []
    for document in documents:
        taken = 0
        for heading in document["headings"]:
            if heading["depth"] != level + 1:
                continue
            cost = entries_cost([heading])
            if used + cost > room:
                break
            used += cost
            taken += 1
        extra.append(taken)
        if used >= room:
            break
    extra += [0] * (len(documents) - len(extra))
    cut = [_to_level(d, level, extra[n]) for n, d in enumerate(documents)]
    note = _levels_note(level, tokens, partly=any(extra))
    if measure(cut, [note]) <= room:
        return cut, note
    # No headings, and still too many documents: the first ones, as many as fit.
    cut = shells
    note = _levels_note(0, tokens)

    def notes(kept: int) -> list[str]:
        rest = _rest_note(cut[kept:], "documents not listed", tokens)
        return [f"{note}; {rest}" if rest else note]

    kept, used = 0, base - sum(shell_costs)
    while kept < len(cut) and used + shell_costs[kept] <= room:
        used += shell_costs[kept]
        kept += 1
    kept = _prefix(lambda kept: measure(cut[:kept], notes(kept)), max(1, kept), room)
    return cut[:kept], notes(kept)[0]


LINE_ALLOWANCE = 14
"""Spaces of indentation allowed per line break the indented answer adds to a compact entry
(a heading's keys sit 14 deep in the envelope)."""


def entries_cost(entries: Entries) -> int:
    """At least what `entries` add to the indented envelope: their compact encoding (the C
    encoder's: an indented one is Python's, ten times slower) and, for each `, ` and bracket,
    a line break and its indentation (a `, ` inside a title counted too: never less)."""
    text = json.dumps(entries, ensure_ascii=False)
    breaks = sum(text.count(mark) for mark in (", ", "{", "}", "[", "]"))
    return text_cost(text) + breaks * text_cost("\n" + " " * LINE_ALLOWANCE)


def _prefix(cost_of: Callable[[int], int], count: int, room: int) -> int:
    """The most of `count` entries, in order, whose cost (`cost_of(kept)`) fits `room`, at
    least one: shrunk in proportion to what is over, then one at a time."""
    kept = count
    while kept > 1:
        cost = cost_of(kept)
        if cost <= room:
            break
        kept = max(1, min(kept - 1, kept * room // cost))
    return kept


def _to_level(document: dict[str, Any], level: int, extra: int) -> dict[str, Any]:
    """`document` with its headings down to `level` and its first `extra` of the next."""
    kept = []
    for heading in document["headings"]:
        if heading["depth"] == level + 1 and extra:
            extra -= 1
        elif heading["depth"] > level:
            continue
        kept.append(heading)
    return {**document, "headings": kept}


def _levels_note(level: int, tokens: int, partly: bool = False) -> str:
    kept = f"headings deeper than h{level} left out" if level else "headings left out"
    if partly:
        kept = f"headings deeper than h{level + 1}, and the last h{level + 1} ones, left out"
    return f"index cut to fit MDSEL_MAX_ANSWER_TOKENS={tokens}: {kept}; {HOW}, or index fewer files"


def _rest_note(left_out: Entries, what: str, tokens: int, name: str = "file_path") -> str:
    """What was left out, each entry by its `name` (a document by its path, a match by its
    selector: what to ask for next)."""
    if not left_out:
        return ""
    names = " ".join(str(e.get(name) or e.get("file_path")) for e in left_out[:MAX_NAMED])
    more = f" … +{len(left_out) - MAX_NAMED}" if len(left_out) > MAX_NAMED else ""
    return f"{len(left_out)} {what} to fit MDSEL_MAX_ANSWER_TOKENS={tokens}: {names}{more}"


def fit_select(matches: Entries, measure: Measure, room: int, tokens: int) -> tuple[Entries, str]:
    """`matches` (select match entries) cut to fit `room`: their `children_available` lists
    emptied, then the last matches left out (one is always kept); the warning saying what was
    left out ('' when nothing was)."""
    if measure(matches, []) <= room:
        return matches, ""
    note = ""
    if any(match.get("children_available") for match in matches):
        matches = [{**match, "children_available": []} for match in matches]
        note = f"children_available left out to fit MDSEL_MAX_ANSWER_TOKENS={tokens}; {HOW}"
        if measure(matches, [note]) <= room:
            return matches, note

    def notes(kept: int) -> list[str]:
        rest = _rest_note(matches[kept:], "more matches not shown", tokens, "selector")
        return [n for n in (note, rest) if n]

    kept = _prefix(lambda kept: measure(matches[:kept], notes(kept)), len(matches), room)
    return matches[:kept], "; ".join(notes(kept))
