"""GitHub's heading anchors: the slug rules, the numbering of repeats, and the nearest anchors
to a missed one."""

from __future__ import annotations

import pytest

import mdsel
from mdsel.anchors import HEADING, NESTED, Target, anchors, closest, find, slug
from tests.conftest import FIXTURES


def document(text: str) -> mdsel.Document:
    return mdsel.parse_document(text.encode())


@pytest.mark.parametrize(
    ("title", "anchor"),
    [
        ("Installation", "installation"),
        ("Getting Started", "getting-started"),
        ("API Reference (v2)", "api-reference-v2"),
        ("What's new?", "whats-new"),
        ("A – B", "a--b"),  # the en dash goes, both spaces stay
        ("snake_case and kebab-case", "snake_case-and-kebab-case"),
        ("C++ & Rust!", "c--rust"),
        ("Café Über", "café-über"),
        ("日本語 テスト", "日本語-テスト"),
        ("Version 1.2.3", "version-123"),
        ("🎉 Party", "-party"),
        ("", ""),
    ],
)
def test_slug_follows_github(title: str, anchor: str) -> None:
    assert slug(title) == anchor


def test_markup_is_not_part_of_the_anchor() -> None:
    doc = document("# Using `mdsel` with *style* and [links](http://x)\n")
    assert anchors(doc) == ["using-mdsel-with-style-and-links"]


def test_repeats_are_numbered_like_github() -> None:
    doc = document("# Intro\n\n# Intro\n\n# Intro 1\n\n# Intro\n\n## a\n\n## a\n\n## a-1\n")
    # `Intro 1` slugs to intro-1, already taken by the second Intro, so it becomes intro-1-1;
    # the third Intro takes the next free number of intro: intro-2.
    assert anchors(doc) == ["intro", "intro-1", "intro-1-1", "intro-2", "a", "a-1", "a-1-1"]


def test_fixture_anchors_number_every_heading_as_github_does() -> None:
    doc = mdsel.parse_document((FIXTURES / "structure.md").read_bytes())
    assert anchors(doc) == [
        "guide", "install", "usage", "details", "deep", "setext-title", "install-1", "appendix",
    ]  # fmt: skip
    assert find(doc, "install-1") == Target(HEADING, 6)
    # Inside a list: not a section, but GitHub anchors it, so a link reaches it.
    inside = find(doc, "heading-inside-a-list")
    assert inside is not None and inside.kind == NESTED
    assert doc.nested[inside.ref].title == "heading inside a list"


def test_closest_anchors_prefer_containment_then_spelling() -> None:
    doc = document("# Installation\n\n# Install on Windows\n\n# Usage\n\n# Uninstall\n")
    assert [name for name, _title in closest(doc, "install")] == [
        "installation", "install-on-windows", "uninstall",
    ]  # fmt: skip
    assert closest(doc, "usgae") == [("usage", "Usage")]
    assert closest(doc, "zzzz") == []
