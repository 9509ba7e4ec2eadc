"""The index model in text: heading outline lines, block counts, and the heading budget.

When there are more headings than the budget, the shallowest nesting depths that fit are shown;
a shown heading that hides descendants says how many (`+14`). If even the top depth overflows,
its first headings are shown and the rest summarised by selector ranges.
"""

from __future__ import annotations

from collections.abc import Sequence

from mdsel.names import heading_selector
from mdsel.titles import shown_title
from mdsel.tree import BLOCK_KINDS, Document


def heading_line(document: Document, index: int, depth: int, prefix: str, hidden: int) -> str:
    """`h2.1 Opinions 76 300`: selector, title, start line, section words (+hidden headings).

    The section's last line is left out: it is the line before the next heading line of the
    same or a shallower indentation (or the end of the document), and every token here is paid
    for on every index. Unlabelled numbers cost one token each where `L76-106 300w` costs five.
    """
    heading = document.headings[index]
    words = document.section_words(index)
    more = f" +{hidden}" if hidden else ""
    title = shown_title(heading.title)
    return (
        f"{'  ' * depth}{prefix}{heading_selector(heading.level, heading.ordinal)} {title} "
        f"{heading.line_start} {words}{more}"
    )


def outline(
    document: Document,
    first: int,
    last: int,
    prefix: str,
    budget: int | None,
    expand_hint: str,
) -> list[str]:
    """Lines for headings first..last (indices into document.headings; all inside the section
    of `first` or the whole outline), depth relative to `first`'s, under `budget` headings.

    `expand_hint` completes the closing line: how to see everything (`--full`, `&full=true`).
    """
    # Columns, not Heading values: these loops may run over a million headings.
    headings = document.headings
    depths, parents, lasts = headings.depths, headings.parents, headings.lasts
    if last < first:
        return []
    base = depths[first]
    total = last - first + 1
    if budget is None or total <= budget:
        return [
            heading_line(document, i, depths[i] - base, prefix, 0) for i in range(first, last + 1)
        ]

    shown, rest = _within_budget(document, first, last, budget)
    shown_below: dict[int, int] = {}
    for i in shown:
        ancestor = parents[i]
        while ancestor >= first:
            shown_below[ancestor] = shown_below.get(ancestor, 0) + 1
            ancestor = parents[ancestor]
    lines: list[str] = []
    example = -1  # the deepest shown heading that hides something: expanding it adds lines
    for i in shown:
        hidden = lasts[i] - i - shown_below.get(i, 0)
        if hidden and (example < 0 or depths[i] > depths[example]):
            example = i
        lines.append(heading_line(document, i, depths[i] - base, prefix, hidden))
    if rest:
        lines.append(f"… +{len(rest)} more: {prefix}{ranges(document, rest)}")
    if example < 0:
        example = rest[0] if rest else first
    lines.append(
        f"[showing {len(shown)} of {total} headings; expand one with "
        f"{prefix}{heading_selector(headings.levels[example], headings.ordinals[example])}"
        f"?toc=true, or {expand_hint}]"
    )
    return lines


def _within_budget(
    document: Document, first: int, last: int, budget: int
) -> tuple[list[int], list[int]]:
    """The headings first..last shown under `budget`, and those of the next depth left out:
    the shallowest depths that fit whole, then the next depth's first headings in the room left."""
    depths = document.headings.depths
    base = depths[first]
    per_depth: dict[int, int] = {}
    for depth in depths[first : last + 1]:
        per_depth[depth - base] = per_depth.get(depth - base, 0) + 1
    shown_depth = -1
    running = 0
    for depth in sorted(per_depth):
        if running + per_depth[depth] > budget:
            break
        running += per_depth[depth]
        shown_depth = depth
    # The room left goes to the next depth, in document order: a changelog (one title over
    # hundreds of entries) then shows its first entries rather than a single line, and a toc of
    # such a heading always shows its children.
    room = budget - running
    shown: list[int] = []
    rest: list[int] = []
    for i in range(first, last + 1):
        depth = depths[i] - base
        if depth <= shown_depth:
            shown.append(i)
        elif depth == shown_depth + 1:
            if room > 0:
                shown.append(i)
                room -= 1
            else:
                rest.append(i)
    return shown, rest


def ranges(document: Document, indices: Sequence[int], limit: int = 12) -> str:
    """Compact selectors for many headings: `h1.250-298 h2.3-9`, per level, consecutive runs."""
    runs: list[list[int]] = []  # level, first ordinal, last ordinal
    levels, ordinals = document.headings.levels, document.headings.ordinals
    for i in indices:
        level, ordinal = levels[i], ordinals[i]
        if runs and runs[-1][0] == level and runs[-1][2] + 1 == ordinal:
            runs[-1][2] = ordinal
        else:
            runs.append([level, ordinal, ordinal])
    parts = [f"h{lv}.{a}" if a == b else f"h{lv}.{a}-{b}" for lv, a, b in runs[:limit]]
    if len(runs) > limit:
        parts.append("…")
    return " ".join(parts)


def block_counts(document: Document) -> str:
    """`para 23 code 19 list 5`: the document-level blocks of each kind present (absent: 0)."""
    return " ".join(
        f"{kind} {len(document.top_blocks[kind])}"
        for kind in BLOCK_KINDS
        if document.top_blocks[kind]
    )
