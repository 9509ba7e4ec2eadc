"""The MDSEL_* reader every program shares: defaults, the digits-only rule, errors naming the
variable. (The CLI and the server agree case by case: see the server's config tests.)"""

from __future__ import annotations

import pytest

from mdsel.settings import (
    DEFAULT_MIN_WORDS,
    ConfigError,
    Settings,
    parse_count,
    read_min_words,
    read_settings,
)


def test_defaults_are_the_spec_table() -> None:
    defaults = Settings(2000, 250, 2000, 8388608, 33554432, 4000000, 64, 200000, 10000)
    assert read_settings({}) == Settings() == defaults
    assert read_min_words({}) == DEFAULT_MIN_WORDS == 200


def test_values_are_read_into_their_fields() -> None:
    environ = {
        "MDSEL_PAGE_WORDS": "10",
        "MDSEL_INDEX_MAX_HEADINGS": "20",
        "MDSEL_MAX_FILES": "30",
        "MDSEL_MAX_BYTES": "40",
        "MDSEL_MAX_TOTAL_BYTES": "50",
        "MDSEL_MAX_BLOCKS": "60",
        "MDSEL_MAX_DEPTH": "70",
        "MDSEL_MAX_NAMES": "80",
        "MDSEL_UNKNOWN": "x",
    }
    assert read_settings(environ) == Settings(10, 20, 30, 40, 50, 60, 70, 80)


@pytest.mark.parametrize(
    ("text", "expected"),
    [("0", 0), (" 12 ", 12), ("007", 7), ("9" * 18, 10**18 - 1), ("0" * 30 + "5", 5)]
    # More digits than any limit needs: the largest of 18 digits, read without int().
    + [("9" * 19, 10**18 - 1), ("1" + "0" * 5000, 10**18 - 1)]
    + [(t, None) for t in ("", "-1", "+1", "1_0", "1.0", "\u0663", "1 2")],
)
def test_parse_count(text: str, expected: int | None) -> None:
    assert parse_count(text) == expected


def test_an_error_names_the_variable_and_its_value() -> None:
    with pytest.raises(ConfigError) as caught:
        read_settings({"MDSEL_MAX_FILES": "0"})
    assert (caught.value.variable, caught.value.value) == ("MDSEL_MAX_FILES", "0")
    assert str(caught.value).startswith("MDSEL_MAX_FILES='0': ")
    assert "2000" in str(caught.value)  # says what would work


def test_min_words_allows_zero_and_refuses_the_rest() -> None:
    assert read_min_words({"MDSEL_MIN_WORDS": "0"}) == 0
    assert read_min_words({"MDSEL_MIN_WORDS": " "}) == DEFAULT_MIN_WORDS
    with pytest.raises(ConfigError, match="MDSEL_MIN_WORDS"):
        read_min_words({"MDSEL_MIN_WORDS": "many"})
