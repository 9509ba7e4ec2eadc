"""Documents of growing shapes and the engine's stages over them: what holds every stage to
linear growth (tests/mdsel/test_growth.py with a generous bound, bench/bench_growth.py with the
ratios).

Each shape makes a document of `n` units of one structure that a parser or a loop over its
events could get quadratic on: many pieces in one heading, many headings, deep nesting, long
lists, wide tables, many links. Each stage is one call a user makes: the cold index, a select of
every section, a line, a missed anchor, a section's outline.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable

import mdsel
from mdsel import render_text

SHAPES: dict[str, Callable[[int], bytes]] = {
    # One setext heading of n lines: n Text and SoftBreak events in one title.
    "pieces in one heading": lambda n: b"a\n" * n + b"===\n",
    # One ATX heading of n code spans and words.
    "spans in one heading": lambda n: b"# " + b"`c` w " * n + b"\n",
    "many headings": lambda n: b"".join(b"## H%d\n\ntext %d\n\n" % (i, i) for i in range(n)),
    "interleaved levels": lambda n: b"# a\n## b\n### c\n" * n,
    "deep quotes": lambda n: b"> " * n + b"x\n",
    "deep lists": lambda n: b"- " * n + b"x\n",
    "long list": lambda n: b"# L\n\n" + b"- item\n" * n,
    "wide table": lambda n: (
        b"|" + b" c |" * n + b"\n|" + b"---|" * n + b"\n|" + b" 1 |" * n + b"\n"
    ),
    "many links": lambda n: b"# L\n\n" + b"[a](b.md#c) " * n + b"\n",
    "nested headings": lambda n: b"".join(b"- ## item %d\n" % i for i in range(n)),
    # Links and tags never closed: what the search's reading of prose could get quadratic on.
    "unclosed links": lambda n: b"# L\n\n" + b"[a](b" * n + b"\n",
    "unclosed tags": lambda n: b"# L\n\n" + b"<a" * n + b"\n",
}
"""Shape name → the document of `n` units."""

UNITS: dict[str, int] = {
    "pieces in one heading": 40_000,
    "spans in one heading": 10_000,
    "many headings": 4_000,
    "interleaved levels": 2_000,
    "deep quotes": 4_000,
    "deep lists": 2_000,
    "long list": 20_000,
    "wide table": 5_000,
    "many links": 20_000,
    "nested headings": 4_000,
    "unclosed links": 20_000,
    "unclosed tags": 20_000,
}
"""The base size of each shape: big enough that one stage takes some milliseconds."""


def _sources(path: str) -> list[mdsel.Source]:
    sources, problems = mdsel.load([path])
    assert not problems, problems
    return sources


def _select(request: str) -> Callable[[str], object]:
    def run(path: str) -> object:
        return render_text.select(mdsel.select(request, _sources(path)), [], [])

    return run


STAGES: dict[str, Callable[[str], object]] = {
    "index": lambda path: render_text.index(mdsel.index(_sources(path)), [], [], mdsel.Options()),
    "select section": _select("section"),
    "select a line": _select("L1"),
    "missed anchor": _select("#no-such-anchor"),
    "toc": _select("root?toc=true"),
    "search": _select("?q=a b"),
}
"""Stage name → one cold call on the file at `path` (read, parse, resolve, render)."""


def cpu_seconds(stage: Callable[[str], object], path: str, repeat: int = 3) -> float:
    """The least CPU time of `repeat` runs: CPU time, not wall time, so that neighbours on
    shared cores count as little as they can; the least, since noise only adds. The cyclic
    collector is off, as `mdsel` runs (its full collections scale with the heap, not the call)."""
    best = float("inf")
    enabled = gc.isenabled()
    gc.disable()
    try:
        for _ in range(repeat):
            gc.collect()
            start = time.process_time()
            stage(path)
            best = min(best, time.process_time() - start)
    finally:
        if enabled:
            gc.enable()
    return best
