"""search_query: the words of ?q= → units, or a message saying what to change."""

from __future__ import annotations

import pytest

from mdsel.search_query import MAX_UNITS, Query, parse_query


def units(text: str) -> tuple[str, ...]:
    query = parse_query(text)
    assert isinstance(query, Query), query
    return query.units


def test_words_are_separated_by_spaces_and_lowercased() -> None:
    assert units("CORS  Middleware") == ("cors", "middleware")


def test_a_quoted_phrase_is_one_unit_and_marked_as_a_phrase() -> None:
    query = parse_query('"path operation" decorator')
    assert isinstance(query, Query)
    assert query.units == ("path operation", "decorator")
    assert query.phrases == (True, False)


def test_identifiers_stay_whole_words() -> None:
    assert units("dependency_overrides --no-cache useEffect {{<") == (
        "dependency_overrides",
        "--no-cache",
        "useeffect",
    )


def test_a_possessive_is_the_name_alone() -> None:
    assert units("Vite's config defineComponent()\u2019s it's") == (
        "vite",
        "config",
        "definecomponent()",
    )


def test_stop_words_are_dropped_but_not_from_phrases_and_repeats_once() -> None:
    assert units('how to use the "use strict" cache cache') == ("use strict", "cache")


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("", "empty search"),
        ("   ", "empty search"),
        ("the of and", "only common words (the, of, and)"),
        ("... !!! ---", "no letter or digit"),
        ("_ __", "no letter or digit"),  # the tokenizer splits words at `_`: nothing is left
        ('"open phrase', "a phrase quote is left open at character 1"),
        ('cors "open', "left open at character 6"),
        (" ".join(f"w{n}" for n in range(MAX_UNITS + 1)), f"at most {MAX_UNITS}"),
    ],
)
def test_bad_queries_say_what_to_change(text: str, says: str) -> None:
    message = parse_query(text)
    assert isinstance(message, str)
    assert says in message
