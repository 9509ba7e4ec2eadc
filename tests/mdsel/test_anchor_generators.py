"""Other generators' slug rules, each on the texts where the rules part ways."""

from __future__ import annotations

import pytest

from mdsel.anchor_generators import (
    GENERATORS,
    blackfriday_slug,
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
    ],
)
def test_each_rule(rule: object, text: str, anchor: str) -> None:
    assert callable(rule)
    assert rule(text) == anchor


def test_python_markdown_numbers_repeats_with_an_underscore() -> None:
    separators = {rule.__name__: separator for rule, separator in GENERATORS}
    assert separators["python_markdown_slug"] == "_"
    assert separators["kramdown_slug"] == "-"
