"""Word counting (the rule shared with the hook), decoding, front matter."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mdsel.errors import ParseError
from mdsel.source import LineTable, decode, front_matter_end, strip_bom, word_count
from tests.conftest import ROOT

CASES = json.loads((ROOT / "tests" / "cases" / "word_counts.json").read_text(encoding="utf-8"))


def _bytes(case: dict[str, object]) -> bytes:
    if "hex" in case:
        return bytes.fromhex(str(case["hex"]))
    return str(case["text"]).encode("utf-8")


@pytest.mark.parametrize("case", CASES, ids=[str(c["id"]) for c in CASES])
def test_shared_word_count_table(case: dict[str, object]) -> None:
    assert word_count(_bytes(case)) == case["words"]


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=300) | st.text(" \t\n\r\x0b\x0cab\u00a0é", max_size=80).map(str.encode))
def test_word_count_is_bytes_split(data: bytes) -> None:
    assert word_count(data) == len(strip_bom(data)[0].split())


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.text(" \tab\u3000", max_size=12), max_size=12),
    st.sampled_from(["\n", "\r\n", "\r"]),
)
def test_line_word_counts_add_up(lines: list[str], ending: str) -> None:
    data = ending.join(lines).encode()
    table = LineTable(data)
    assert sum(table.words_in(n, n) for n in range(1, table.count + 1)) == len(data.split())
    assert table.count == len(data.splitlines())


def test_decode_errors_carry_offsets_past_the_bom() -> None:
    data, skipped = strip_bom(b"\xef\xbb\xbfab\xff")
    assert (data, skipped) == (b"ab\xff", 3)
    with pytest.raises(ParseError) as info:
        decode(data, skipped)
    assert info.value.offset == 5


@pytest.mark.parametrize(
    ("data", "end"),
    [
        (b"---\na: 1\n---\n# T\n", 13),
        (b"---\r\na: 1\r\n---\r\n# T\r\n", 16),
        (b"+++\na = 1\n+++\nrest\n", 14),
        (b"---  \na: 1\n---\n", 15),
        (b"---\na: 1\n", 0),
        (b"----\na\n----\n", 0),
        (b"# T\n---\na\n---\n", 0),
        (b"---\n---\n", 8),
    ],
)
def test_front_matter(data: bytes, end: int) -> None:
    assert front_matter_end(data) == end
