"""The selector grammar, one table row per form and rule; random strings never escape as
anything but SelectorSyntaxError."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mdsel.errors import SelectorSyntaxError
from mdsel.selector import (
    MAX_REQUEST_CHARS,
    Item,
    Params,
    Segment,
    format_params,
    format_segments,
    parse_request,
)


def one(text: str) -> tuple[str | None, str, Params]:
    """(namespace, short path, params) of a request holding exactly one selector."""
    (selector,) = parse_request(text)
    return selector.namespace, format_segments(selector.segments), selector.params


@pytest.mark.parametrize(
    ("text", "path"),
    [
        ("h2.1", "h2.1"),
        ("heading:h2.1", "h2.1"),
        ("heading:h2[1]", "h2.1"),
        ("HEADING:H2[1]", "h2.1"),
        ("h3", "h3"),
        ("section.4", "section.4"),
        ("para.0", "para.0"),
        ("paragraph.0", "para.0"),
        ("block:paragraph[0]", "para.0"),
        ("code.2", "code.2"),
        ("block:code.2", "code.2"),
        ("list.1", "list.1"),
        ("block:list.1", "list.1"),
        ("table.0", "table.0"),
        ("block:table.0", "table.0"),
        ("quote.0", "quote.0"),
        ("blockquote.0", "quote.0"),
        ("block:blockquote.0", "quote.0"),
        ("root", "root"),
        ("root/h2.0", "root/h2.0"),
        ("h2.0-2", "h2.0-2"),
        ("h2.0,2,4", "h2.0,2,4"),
        ("h2[0,2-3]", "h2.0,2-3"),
        ("h2.1/code.0", "h2.1/code.0"),
        ("list.2/code.0", "list.2/code.0"),
        ("h2.1/h4.0/para", "h2.1/h4.0/para"),
        ("  h2 . 1 / code . 0  ", "h2.1/code.0"),
        ("h2.0 - 2", "h2.0-2"),
        ("h2.0-999999999", "h2.0-999999999"),
    ],
)
def test_forms(text: str, path: str) -> None:
    assert one(text)[1] == path


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("h2.0,2,4", ["h2.0,2,4"]),
        ("h2.4,h3.6,code.0", ["h2.4", "h3.6", "code.0"]),
        ("h2.0,2024::h1.0", ["h2.0", "h1.0"]),
        ("h2.0,2/code.1", ["h2.0,2/code.1"]),
        ("h2.0,2?head=3", ["h2.0,2"]),
        ("h2.0,2-3,h3", ["h2.0,2-3", "h3"]),
        ("h2.0 , 2 , code.1", ["h2.0,2", "code.1"]),
        ("h2,h3", ["h2", "h3"]),
        ("h2[0,1],h3[2]", ["h2.0,1", "h3.2"]),
    ],
)
def test_comma_continues_an_index_list_only_before_an_item(text: str, expected: list[str]) -> None:
    assert [format_segments(s.segments) for s in parse_request(text)] == expected


def test_namespace_and_params_belong_to_their_own_selector() -> None:
    first, second = parse_request("readme::h2.0?head=5,h3.1")
    assert first.namespace == "readme" and first.params.head == 5
    assert second.namespace is None and second.params == Params()
    assert parse_request("README :: h1.0")[0].namespace == "readme"
    assert parse_request("h2.0,2024::h1.0")[1].namespace == "2024"


@pytest.mark.parametrize(
    ("text", "params"),
    [
        ("h2.0?head=10", Params(head=10)),
        ("h2.0?tail=3", Params(tail=3)),
        ("h2.0?page=2", Params(page=2)),
        ("h2.0?full=true", Params(full=True)),
        ("h2.0?full=false", Params(full=False)),
        ("h2.0?toc=true", Params(toc=True)),
        ("h2.0?head=3&page=2&full=true", Params(head=3, page=2, full=True)),
        ("h2.0 ? head = 3 & page = 2", Params(head=3, page=2)),
    ],
)
def test_params(text: str, params: Params) -> None:
    assert one(text)[2] == params


@pytest.mark.parametrize(
    ("text", "message", "column"),
    [
        ("", "empty selector", 1),
        ("   ", "empty selector", 1),
        ("h2.#", "unexpected '#'", 4),
        ("h2#", "unexpected '#'", 3),
        ("h7.0", "unknown type 'h7'", 1),
        ("heading.0", "unknown type 'heading'", 1),
        ("install", "unknown type 'install'", 1),
        ("h2.0/", "expected a type", 6),
        ("h2.", "expected an index", 4),
        ("h2[0", "expected ',' or ']'", 5),
        ("h2.0,", "expected a selector after ','", 6),
        ("h2.5-1", "reversed", 4),
        ("root.0", "root takes no index", 5),
        ("h2.0/root", "root can only be the first segment", 6),
        ("h2.0?", "expected a parameter", 6),
        ("h2.0?foo=1", "unknown parameter 'foo'", 6),
        ("h2.0?head=1&head=2", "given twice", 13),
        ("h2.0?head=0", "at least 1", 11),
        ("h2.0?page=x", "expected a number", 11),
        ("h2.0?full=yes", "true or false", 11),
        ("h2.0?head=1&tail=1", "cannot be used together", 19),
        ("h2.0?toc=true&page=2", "takes no head, tail or page", 21),
        ("README.md::h2.0", "namespaces are file names without it, lowercased: readme::", 1),
        ("h2.0?head", "expected '='", 10),
        ("::h2.0", "unexpected ':'", 1),
        ("ns::", "expected a type", 5),
        ("h2.0 h2.1", "unexpected 'h'", 6),
        ("x" * (MAX_REQUEST_CHARS + 1), "limit is 4096", MAX_REQUEST_CHARS + 1),
    ],
)
def test_syntax_errors_name_what_and_where(text: str, message: str, column: int) -> None:
    with pytest.raises(SelectorSyntaxError) as info:
        parse_request(text)
    assert message in info.value.message
    assert info.value.column == column
    assert f"at column {column}" in str(info.value)


def test_huge_numbers_are_clamped_not_converted() -> None:
    (selector,) = parse_request("h2." + "9" * 4000)
    assert selector.segments[0].items == (Item(10**12, 10**12),)


def test_a_request_at_the_limit_is_accepted() -> None:
    text = "h2.0" + ",0" * ((MAX_REQUEST_CHARS - 4) // 2)
    assert len(text) <= MAX_REQUEST_CHARS
    (selector,) = parse_request(text)
    assert selector.segments[0].items is not None


def test_format_params_round_trip() -> None:
    params = Params(head=3, page=2, full=True)
    (selector,) = parse_request("h2.0" + format_params(params))
    assert selector.params == params


def test_segments_are_canonical_values() -> None:
    (selector,) = parse_request("Block:Code[1-2]")
    assert selector.segments == (Segment("code", (Item(1, 2),)),)


_ALPHABET = st.sampled_from(list("h123456.[]-,/?=&:: abcdefghijklmnopqrstuvwxyz0123456789#é漢\t\n"))


@settings(max_examples=400, deadline=None)
@given(st.text(_ALPHABET, max_size=60) | st.text(max_size=40))
def test_random_strings_parse_or_raise_only_selector_errors(text: str) -> None:
    try:
        selectors = parse_request(text)
    except SelectorSyntaxError as exc:
        assert 1 <= exc.column <= len(text) + 1
    else:
        assert selectors
