"""The index model in text: heading outline lines, block counts, and the heading budget.

When there are more headings than the budget, the shallowest nesting depths that fit are shown;
a shown heading that hides descendants says how many (`+14`, which the closing line explains).
If even the top depth overflows, its first headings are shown and the rest summarised by
selector ranges.
"""

from __future__ import annotations

import re

from mdsel._record import NamedTuple
from mdsel.budget import lines_cost
from mdsel.names import heading_selector
from mdsel.titles import short_title
from mdsel.tree import BLOCK_KINDS, Document


def heading_line(document: Document, index: int, depth: int, prefix: str, hidden: int) -> str:
    """`h2.1 Opinions 76 300`: selector, title, start line, section words (+hidden headings).

    The section's last line is left out: it is the line before the next heading line of the
    same or a shallower indentation (or the end of the document), and every token here is paid
    for on every index. Unlabelled numbers cost one token each where `L76-106 300w` costs five.
    """
    # From the columns, not a Heading value: that would count the heading's and its section's
    # last lines too, which no index line shows.
    headings = document.headings
    selector = heading_selector(headings.levels[index], headings.numbers.ordinal(index))
    words = headings.words.section(index)
    more = f" +{hidden}" if hidden else ""
    title = short_title(headings.title(index))
    return (
        f"{'  ' * depth}{prefix}{selector} {title} {headings.lines.line_start(index)} {words}{more}"
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
    if rest.total:
        inside = f" (+{rest.inside} inside them)" if rest.inside else ""
        lines.append(f"… +{rest.total} more: {prefix}{ranges(document, rest)}{inside}")
    # What a trailing `+N` means, said where one is printed.
    legend = "; a heading's +N: headings inside it not shown" if example >= 0 else ""
    if example < 0:
        example = rest.first if rest.total else first
    lines.append(
        f"[showing {len(shown)} of {total} headings{legend}; expand one with "
        f"{prefix}{heading_selector(headings.levels[example], headings.numbers.ordinal(example))}"
        f"?toc=true, or {expand_hint}]"
    )
    return lines


def fit_outline(
    document: Document,
    first: int,
    last: int,
    prefix: str,
    budget: int | None,
    lines: list[str],
    room: int,
    expand_hint: str,
) -> list[str]:
    """`lines` (the outline of headings first..last under `budget` headings) again under fewer
    headings, as many as fit in `room` (a cost, mdsel.budget): 250 long titles can pass the
    answer budget."""
    size = lines_cost(lines)
    count = last - first + 1 if budget is None else min(budget, last - first + 1)
    while size > room and count > 1:
        count = max(1, min(count - 1, count * room // size * 9 // 10))
        lines = outline(document, first, last, prefix, count, expand_hint)
        size = lines_cost(lines)
    return lines


class Rest(NamedTuple):
    """The headings left out: every heading of `depth` (absolute) in [first, last]."""

    first: int
    """The first one left out (when total > 0)."""
    last: int
    depth: int
    total: int
    inside: int = 0
    """Headings deeper than `depth` inside the left-out ones, left out with them."""


def _at_most(depth: int) -> bytes:
    """A bytes.translate table: depth values up to `depth` → 1, deeper → 0."""
    return b"\x01" * (depth + 1) + bytes(255 - depth)


def _within_budget(
    document: Document, first: int, last: int, budget: int
) -> tuple[list[int], Rest]:
    """The headings first..last shown under `budget`, and those of the next depth left out:
    the shallowest depths that fit whole, then the next depth's first headings in the room left.

    Counted and picked with bytes operations on the depth column (in C): an outline may have a
    million headings, of which a few hundred are shown."""
    depths = document.headings.depths
    base = depths[first]
    span = bytes(depths[first : last + 1])
    shown_depth = base - 1  # absolute depth; base - 1 when not even the top depth fits whole
    running = 0
    for depth in range(base, _MAX_DEPTH + 1):
        count = span.count(depth)
        if not count:
            continue
        if running + count > budget:
            break
        running += count
        shown_depth = depth
    # The room left goes to the next depth, in document order: a changelog (one title over
    # hundreds of entries) then shows its first entries rather than a single line, and a toc of
    # such a heading always shows its children.
    room = budget - running
    next_depth = shown_depth + 1
    cut = 0  # span offset past the last next-depth heading shown
    while room > 0:
        found = span.find(next_depth, cut)
        if found < 0:
            break
        cut = found + 1
        room -= 1
    mask = span[:cut].translate(_at_most(next_depth)) + span[cut:].translate(_at_most(shown_depth))
    # Found one by one (a search each, in C): a few hundred shown among maybe a million.
    shown: list[int] = []
    found = mask.find(1)
    while found >= 0:
        shown.append(first + found)
        found = mask.find(1, found + 1)
    left = span.find(next_depth, cut)
    if left < 0:
        return shown, Rest(first + left, last, next_depth, 0)
    # Every deeper heading from the first left out on is inside one left out: a heading of
    # `next_depth` before it would end the section of any shown one.
    deeper = span[left:].translate(_at_most(next_depth)).count(0)
    return shown, Rest(first + left, last, next_depth, span.count(next_depth, cut), deeper)


_MAX_DEPTH = 5
"""Six heading levels: at most five enclosing sections."""


def ranges(document: Document, rest: Rest, limit: int = 12) -> str:
    """Compact selectors for the left-out headings: `h1.250-298 h2.3-9`, per level, runs of
    consecutive ordinals.

    Found with a few searches per run, not a step per heading (a run may hold a million): a run
    of level-n headings goes on until a heading of another level at the left-out depth (which
    is next in the list) or a level-n heading at another depth (which breaks the ordinals)."""
    headings = document.headings
    start, end = rest.first, rest.last + 1
    # One byte per heading: depth * 8 + level (depth ≤ 5 and level ≤ 6, so no byte overflows),
    # added as big integers, which adds every byte at once.
    size = end - start
    key = (
        (int.from_bytes(headings.depths[start:end], "big") << 3)
        + int.from_bytes(headings.levels[start:end], "big")
    ).to_bytes(size, "big")
    at_depth = re.compile(b"[%s-%s]" % _escaped(rest.depth * 8 + 1, rest.depth * 8 + 6))
    parts: list[str] = []
    pos = 0
    while len(parts) <= limit:
        found = at_depth.search(key, pos)
        if found is None:
            break
        pos = found.start()
        level = key[pos] & 7
        same = bytes([rest.depth * 8 + level])
        breaking = [rest.depth * 8 + other for other in range(1, 7) if other != level]
        breaking += [depth * 8 + level for depth in range(_MAX_DEPTH + 1) if depth != rest.depth]
        stop = re.compile(b"[%s]" % b"".join(_escaped(*breaking)))
        ended = stop.search(key, pos + 1)
        run_end = ended.start() if ended is not None else size
        ordinal = headings.numbers.ordinal(start + pos)
        length = key.count(same, pos, run_end)
        if len(parts) == limit:
            parts.append("…")
            break
        parts.append(
            f"h{level}.{ordinal}" if length == 1 else f"h{level}.{ordinal}-{ordinal + length - 1}"
        )
        pos = run_end
    return " ".join(parts)


def _escaped(*values: int) -> tuple[bytes, ...]:
    """Byte values as they go inside a regular expression's character class."""
    return tuple(re.escape(bytes([value])) for value in values)


def block_counts(document: Document) -> str:
    """`para 23 code 19 list 5`: the document-level blocks of each kind present (absent: 0)."""
    top = document.blocks.top
    return " ".join([f"{kind} {len(top[kind])}" for kind in BLOCK_KINDS if top[kind]])
