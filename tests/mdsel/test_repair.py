"""Misses that point at the answer: the first suggestion for realistic mistyped selectors
(tests/cases/typos.tsv), and the repairs behind them."""

from __future__ import annotations

import pytest

import mdsel
from mdsel.repair import closest_type, repairs
from tests.conftest import CORPUS, ROOT

TYPOS = ROOT / "tests" / "cases" / "typos.tsv"
TARGET = 0.9
"""Share of the table whose first suggestion is the expected one."""


def table() -> list[tuple[str, str, str]]:
    rows = []
    for line in TYPOS.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            name, typed, expected = line.split("\t")
            rows.append((name, typed, expected))
    return rows


def first_suggestion(name: str, typed: str) -> str | None:
    sources, _ = mdsel.load([str(CORPUS / name)])
    result = mdsel.select(typed, sources)
    assert not result.matches, f"{typed!r} matched: not a typo for this document"
    suggestions = [s for p in result.problems for s in p.suggestions]
    return suggestions[0].selector if suggestions else None


def selected(name: str, selector: str | None) -> tuple[int, int] | None:
    """The lines `selector` selects (two selectors that select the same are the same answer:
    `h2.5` and `#installation`)."""
    if selector is None:
        return None
    sources, _ = mdsel.load([str(CORPUS / name)])
    matches = mdsel.select(selector, sources, mdsel.Options(full=True)).matches
    return (matches[0].line_start, matches[0].line_end) if matches else None


def test_the_first_suggestion_is_the_answer_for_most_typos() -> None:
    rows = table()
    assert len(rows) >= 50
    misses = [(n, t, e, first_suggestion(n, t)) for n, t, e in rows]
    misses = [row for row in misses if selected(row[0], row[3]) != selected(row[0], row[2])]
    rate = 1 - len(misses) / len(rows)
    assert rate >= TARGET, f"{rate:.0%} first-suggestion hits; misses: {misses}"


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("913", ["L913"]),
        ("913-950", ["L913-950"]),
        ("cap-theorem", ["#cap-theorem"]),
        ("sectoin.3", ["section.3"]),
        ("sections.3/code.0", ["section.3/code.0"]),
        ("heading.2", ["section.2"]),
        ("h2-1", ["h2.1", "#h2-1"]),
        ("Getting started", ["#getting-started"]),
        ("h2.1", []),  # already a selector
        ("", []),
    ],
)
def test_repairs(typed: str, meant: list[str]) -> None:
    assert repairs(typed) == meant


def test_closest_type() -> None:
    assert [closest_type(w) for w in ("sectoin", "paragraphs", "tabel", "H3", "zebra")] == [
        "section", "para", "table", "h3", None,
    ]  # fmt: skip
