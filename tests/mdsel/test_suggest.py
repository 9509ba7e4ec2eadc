"""Suggestions: deterministic, bounded, title-aware."""

from __future__ import annotations

import mdsel
from mdsel.selector import Item, Segment
from mdsel.suggest import MAX_SUGGESTIONS, suggest
from mdsel.tree import Source
from tests.conftest import CORPUS

DOC = b"""# Guide

## Installation guide

## Usage

## Configuration

### Install from source

## API
"""
SOURCES = [Source("guide", "guide.md", mdsel.parse_document(DOC))]


def selectors(request: str, segment: Segment | None = None) -> list[str]:
    return [s.selector for s in suggest(request, SOURCES, [0], segment)]


def test_title_words_lead() -> None:
    assert selectors("install")[:2] == ["h2.0", "h3.0"]
    assert selectors("configure")[0] == "h2.2"
    assert selectors("usage?head=3")[0] == "h2.1"


def test_out_of_range_suggests_the_last_and_first_of_the_type() -> None:
    assert selectors("h2.9", Segment("h2", (Item(9, 9),)))[:2] == ["h2.3", "h2.0"]


def test_absent_type_suggests_what_exists() -> None:
    assert selectors("h5.0", Segment("h5", (Item(0, 0),)))[:3] == ["h1.0", "h2.0", "h3.0"]


def test_typos_find_close_selectors() -> None:
    assert "h2.1" in selectors("h2,1x")


def test_bounded_and_deterministic() -> None:
    many = b"".join(b"## install step %d\n\n" % i for i in range(10_000))
    sources = [Source("m", "m.md", mdsel.parse_document(many))]
    first = suggest("install", sources, [0])
    assert len(first) == MAX_SUGGESTIONS
    assert first == suggest("install", sources, [0])
    assert [s.selector for s in first] == ["h2.0", "h2.1", "h2.2", "h2.3", "h2.4"]
    assert suggest("x" * 4000, sources, [0]) == suggest("x" * 4000, sources, [0])


def test_a_block_missed_inside_a_scope_is_suggested_inside_it() -> None:
    sources, _ = mdsel.load([str(CORPUS / "fastapi_readme.md")])
    result = mdsel.select("h2.7/para.99", sources)
    suggested = [s.selector for p in result.problems for s in p.suggestions]
    assert suggested[:2] == ["h2.7/para.33", "h2.7/para.0"]
    for selector in suggested[:2]:  # each selects a paragraph inside h2.7
        assert mdsel.select(selector, sources).matches


def test_a_scope_without_the_type_suggests_what_it_has_first() -> None:
    doc = b"# T\n\n```\ncode\n```\n\n## A\n\ntext\n\n- item\n\n## B\n\n```\nmore\n```\n"
    sources = [Source("doc", "doc.md", mdsel.parse_document(doc))]
    result = mdsel.select("h2.0/code.0", sources)
    suggested = [s.selector for p in result.problems for s in p.suggestions]
    # A has no code: its paragraph and list come before the code blocks elsewhere.
    assert suggested[:2] == ["h2.0/para.0", "h2.0/list.0"]
    for selector in suggested[:2]:
        assert mdsel.select(selector, sources).matches
