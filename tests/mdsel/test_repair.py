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


@pytest.mark.timeout(60)  # a guard against a hang: the old pattern took years on these
@pytest.mark.parametrize("tail", ["#", ":", "?"])
def test_a_long_run_of_dashes_is_repaired_or_refused_at_once(tail: str) -> None:
    """Requests up to the 200 characters repairs reads, made of `a-` or `a- ` runs that no
    anchor can be (a selector character at the end): no repair, and no exponential search for
    one. Without the tail the run is an anchor, and words are one typed as a title."""
    for unit in ("a-", "a_", "a- "):
        request = (unit * 200)[: 199 - len(tail)].rstrip() + tail
        assert not any(r.startswith("#a") for r in repairs(request)), request
    assert repairs("a-" * 90 + "a") == ["#" + "a-" * 90 + "a"]
    assert repairs("a-" * 90 + "a b") == ["#" + "a-" * 90 + "a-b"]
    sources, _ = mdsel.load([str(CORPUS / "fastapi_readme.md")])
    result = mdsel.select("a- " * 60 + tail, sources)
    assert [p.type for p in result.problems] == ["INVALID_SELECTOR"]
