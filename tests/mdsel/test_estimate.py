"""The token estimate against the Claude tokenizer: never below the real count on the vendored
documents (whole and in windows), their code, prose in twelve other languages and generated
dense content; within 1.5 times it on English prose. Skipped, saying why, without the tokenizer
(tests/tokens.py)."""

from __future__ import annotations

import statistics
import unicodedata

import pytest

from mdsel.budget import data_cost, lines_cost, text_cost
from mdsel.estimate import UNITS_PER_TOKEN, estimate_units, estimated_tokens
from mdsel.paginate import MAX_UNITS_PER_BYTE
from tests import token_samples
from tests.conftest import CORPUS, corpus_files
from tests.tokens import count_tokens, count_tokens_each

PROSE_LIMIT = 1.5
"""The estimate over the real count that English prose may cost: answers do not shrink for
nothing."""


def _vendored() -> list[tuple[str, str]]:
    # The vendored documents only: the fetched trees are 17 MB, minutes of tokenizing.
    paths = [p for p in corpus_files() if p.parent == CORPUS]
    paths += sorted(token_samples.TREES.rglob("*.md"))
    return list(token_samples.real(paths))


def _below(samples: list[tuple[str, str]]) -> list[tuple[str, float, str]]:
    """The samples whose estimate is below their real count: (kind, ratio, start of text)."""
    found = []
    reals = count_tokens_each([text for _, text in samples])
    for (kind, text), real in zip(samples, reals, strict=True):
        if real and estimated_tokens(text) < real:
            found.append((kind, estimated_tokens(text) / real, text[:80]))
    return found


def test_never_below_the_real_count_on_the_vendored_documents() -> None:
    samples = [(k, t) for k, t in _vendored() if k != "prose"]
    assert {k for k, _ in samples} == {"document", "window", "code"}
    assert _below(samples) == []


def test_never_below_the_real_count_on_dense_content() -> None:
    samples = list(token_samples.generated(seed=1))
    assert len({k for k, _ in samples}) == 11
    assert _below(samples) == []


def test_never_below_the_real_count_on_prose_in_other_languages() -> None:
    """Catalan to Turkish: words a tokenizer holds in pieces, priced as such."""
    samples = list(token_samples.languages())
    assert len({language for language, _ in samples}) == 12
    assert _below(samples) == []


def test_words_outside_the_list_cost_more_than_words_in_it() -> None:
    known = estimated_tokens("the table of contents lists every section\n")
    unknown = estimated_tokens("tabel isi daftar setiap bagian dokumen\n")
    assert unknown > known + 8  # six words of another language, each in pieces


def test_the_list_is_the_words_the_tokenizer_holds_whole() -> None:
    from mdsel.estimate import _known_words

    words = _known_words()
    assert len(words) > 15_000
    held = [word for word in sorted(words)[::500] if count_tokens(" " + word.decode()) == 1]
    assert len(held) == len(sorted(words)[::500])


def test_no_ascii_text_costs_more_than_the_pages_quick_bound() -> None:
    """paginate takes a chunk as fitting, uncounted, when its bytes times MAX_UNITS_PER_BYTE
    fit: no ASCII text may cost more a byte than that."""
    units = ["a.", "1.", "qzk ", "aB", "\n", "\t", "\x00", "ZZZZZZZZ ", "1", ".", "xq\n", "0a"]
    for unit in units:
        data = (unit * 500).encode()
        assert estimate_units(data) <= len(data) * MAX_UNITS_PER_BYTE, unit


def test_within_one_and_a_half_times_the_real_count_on_prose() -> None:
    prose = [text for kind, text in _vendored() if kind == "prose"]
    reals = count_tokens_each(prose)
    ratios = [estimated_tokens(text) / real for text, real in zip(prose, reals, strict=True)]
    assert len(ratios) > 300
    assert min(ratios) >= 1
    assert max(ratios) <= PROSE_LIMIT, statistics.quantiles(ratios, n=10)


def test_a_character_nfkc_makes_long_is_counted_at_its_length() -> None:
    text = "\ufdfa" * 200  # three bytes each, thirty-three once normalised
    assert not unicodedata.is_normalized("NFKC", text)
    assert estimated_tokens(text) >= count_tokens(text)


@pytest.mark.parametrize(
    "text", ["", "a", "word " * 1000, "é" * 10, "1.2.3\n" * 50, "\t\x00" * 30, "ab\ncd"]
)
def test_costs_agree_in_every_form(text: str) -> None:
    """The cost of a text, of its bytes and of its lines is one estimate; tokens round it up."""
    data = text.encode()
    assert text_cost(text) == data_cost(data)
    assert lines_cost(text.split("\n")) == text_cost(text + "\n")
    assert estimated_tokens(text) == -(-text_cost(text) // UNITS_PER_TOKEN)


def test_a_longer_text_never_costs_less() -> None:
    """Pages are found by bisection over their cost: it must grow with the text."""
    samples = [text for _, text in token_samples.generated(seed=2, each=1)]
    for text in samples:
        data = text.encode()
        costs = [data_cost(data[:end]) for end in range(0, len(data), max(1, len(data) // 97))]
        assert costs == sorted(costs)
