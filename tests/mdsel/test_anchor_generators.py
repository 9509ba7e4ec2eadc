"""Other generators' slug rules, each on the texts where the rules part ways."""

from __future__ import annotations

import pytest

from mdsel.anchor_generators import (
    GENERATORS,
    blackfriday_slug,
    hugo_slug,
    kramdown_slug,
    python_markdown_slug,
    python_markdown_unicode_slug,
    vitepress_slug,
)


@pytest.mark.parametrize(
    ("rule", "text", "anchor"),
    [
        (python_markdown_slug, "Héllo  World!", "hello-world"),  # ASCII-folded, runs as one -
        (python_markdown_unicode_slug, "Héllo  World!", "héllo-world"),
        (kramdown_slug, "1. Intro", "intro"),  # leading non-letters dropped
        (kramdown_slug, "123", "section"),  # nothing left
        (kramdown_slug, "Héllo World", "hllo-world"),  # only ASCII letters kept
        (blackfriday_slug, "Hello, World!", "hello-world"),
        (blackfriday_slug, "snake_case", "snake-case"),  # `_` is not a letter here
        (vitepress_slug, "1 Intro", "_1-intro"),  # `_` before a leading digit
        (vitepress_slug, "Héllo (World)", "hello-world"),
        (hugo_slug, "Foo@Bar", "foobar"),  # Goldmark's github type: punctuation dropped
        (hugo_slug, "--chmod=D755,F644", "--chmodd755f644"),  # `-` kept, runs too
        (hugo_slug, "A – B", "a--b"),  # each space a `-`
        (hugo_slug, "snake_case ½", "snake_case-"),  # `_` kept; digits are decimal ones only
        (hugo_slug, "良善天父", "良善天父"),
    ],
)
def test_each_rule(rule: object, text: str, anchor: str) -> None:
    assert callable(rule)
    assert rule(text) == anchor


def test_python_markdown_numbers_repeats_with_an_underscore() -> None:
    separators = {rule.__name__: separator for rule, separator in GENERATORS}
    assert separators["python_markdown_slug"] == "_"
    assert separators["kramdown_slug"] == "-"
