"""The selector grammar, one table row per form and rule; random strings never escape as
anything but SelectorSyntaxError."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mdsel.errors import SelectorSyntaxError
from mdsel.selector import (
    ANCHOR,
    LINE,
    LINES,
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
        ("L812", "L812"),
        ("l812", "L812"),
        ("L800-850", "L800-850"),
        ("L 800", None),
        ("L800 - 850", "L800-850"),
        ("L7-7", "L7-7"),
        ("L40/code.0", "L40/code.0"),
        ("L40/h3/para.1", "L40/h3/para.1"),
        ("#installation", "#installation"),
        ("#Installation", "#Installation"),  # ids are case-sensitive; slugs compare lowered
        ("#caf%C3%A9-au-lait", "#café-au-lait"),
        ("#programaci&#x00F3;n", "#programación"),  # an entity as written in a link's source
        ("#a%2526b", "#a%26b"),  # decoded once: what decoding yields is not decoded again
        ("#x&amp;%41", "#x&A"),
        ("#bad%ff", "#bad%ff"),  # not UTF-8 once decoded: kept as written
        ("#日本語", "#日本語"),
        ("#setup/code.0", "#setup/code.0"),
        ("readme::#setup", "#setup"),
        ("README.md#setup", "#setup"),
    ],
)
def test_forms(text: str, path: str | None) -> None:
    if path is None:  # not a form: `L` must touch its number
        with pytest.raises(SelectorSyntaxError):
            parse_request(text)
    else:
        assert one(text)[1] == path


@pytest.mark.parametrize(
    ("text", "namespace", "path"),
    [
        ("README.md#installation", "readme", "#installation"),
        ("docs/API_Guide.markdown#setup/code.0", "api_guide", "#setup/code.0"),
        ("../Changes.MD#v2-0", "changes", "#v2-0"),
        ("readme::L3", "readme", "L3"),
        ("notes.txt#x", None, "#x"),  # a link to a page (mdsel.links): by its path alone
        ("/guide/api#setup/code.0", None, "#setup/code.0"),
        ("h2.0#x", None, None),
    ],
)
def test_a_link_as_written_names_the_document_by_its_namespace(
    text: str, namespace: str | None, path: str | None
) -> None:
    if path is None:
        with pytest.raises(SelectorSyntaxError):
            parse_request(text)
    else:
        assert one(text)[:2] == (namespace, path)


def test_line_and_anchor_segments_are_values() -> None:
    (lines, line, anchor) = parse_request("L8-9,L5/code.0,#a-b")
    assert lines.segments == (Segment(LINES, (Item(8, 9),)),)
    assert line.segments == (Segment(LINE, (Item(5, 5),)), Segment("code", (Item(0, 0),)))
    assert anchor.segments == (Segment(ANCHOR, None, "a-b"),)
    assert parse_request("L5-" + "9" * 400)[0].segments[0].items == (Item(5, 10**12),)


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
        ("L5,L7-9,#a,h2.0,2", ["L5", "L7-9", "#a", "h2.0,2"]),
        ("#a?page=2,L3?head=1", ["#a", "L3"]),
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
        ("L0", "line numbers start at 1", 2),
        ("L5-0", "line numbers start at 1", 4),
        ("L9-3", "line range 9-3 is reversed; write L3-9", 1),
        ("L5.0", "L5 takes no index", 3),
        ("L5[0]", "L5 takes no index", 3),
        ("L800-850/code.0", "L800-850 selects lines, not a section", 9),
        ("h2.1/L40", "L40 addresses the whole document, so it must be the first segment", 6),
        ("root/#setup", "#setup addresses the whole document", 6),
        ("#", "expected an anchor after '#'", 2),
        ("#,h2.0", "expected an anchor after '#'", 2),
        ("L812,814", "expected a type", 6),
        ("L12x", "unknown type 'L12x'", 1),
    ],
)
def test_syntax_errors_name_what_and_where(text: str, message: str, column: int) -> None:
    with pytest.raises(SelectorSyntaxError) as info:
        parse_request(text)
    assert message in info.value.message
    assert info.value.column == column
    assert f"at column {column}" in str(info.value)


def test_huge_numbers_are_clamped_not_converted() -> None:
    """Thousands of digits: a range's end is clamped (`h2.0-99…` is every h2), and a
    number that is itself asked for is refused, so no answer names another number."""
    many = "9" * 2000
    (selector,) = parse_request(f"h2.0-{many}")
    assert selector.segments[0].items == (Item(0, 10**12),)
    assert parse_request(f"h2.1?head={many}")[0].params.head == 10**12
    for text, column in (
        (f"h2.{many}", 4),
        (f"L{many}", 2),
        (f"h2[0,{many}]", 6),
        (f"h2.0?page={many}", 11),
        (f"h2.{many}-{many}", 4),
    ):
        with pytest.raises(SelectorSyntaxError) as info:
            parse_request(text)
        assert "more than 12 digits" in info.value.message and info.value.column == column, text
    assert parse_request("L999999999999")[0].segments[0].items == (Item(10**12 - 1, 10**12 - 1),)


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


# Pieces rather than characters, so the new forms (L812, #anchor, README.md#x, %C3%A9) come up.
_PIECES = st.sampled_from(
    [
        *"h123456.[]-,/?=&:: abcdefghijklmnopqrstuvwxyz0123456789#é漢\t\nLl%",
        *["L", "L0", "L12-", ".md#", "README.md#", "%C3%A9", "%", "::", "?page=", "0" * 14],
    ]
)


@settings(max_examples=400, deadline=None)
@given(st.lists(_PIECES, max_size=40).map("".join) | st.text(max_size=40))
def test_random_strings_parse_or_raise_only_selector_errors(text: str) -> None:
    try:
        selectors = parse_request(text)
    except SelectorSyntaxError as exc:
        assert 1 <= exc.column <= len(text) + 1
    else:
        assert selectors


DECODED_CONTROLS = [
    "\x00", "\x01", "\t", "\n", "\r", "\x1b", "\x7f", "\x85", "\x9b",
    "\u2028", "\u2029", "\u202a", "\u202e", "\u2066", "\u2069",
]  # fmt: skip


def _percent(char: str) -> str:
    return "".join(f"%{byte:02X}" for byte in char.encode("utf-8"))


@pytest.mark.parametrize("char", DECODED_CONTROLS, ids=lambda c: f"U+{ord(c):04X}")
def test_an_anchor_percent_decoding_to_a_control_character_is_refused(char: str) -> None:
    text = f"h2.0,#x{_percent(char)}~h2.0"
    with pytest.raises(SelectorSyntaxError) as info:
        parse_request(text)
    message = str(info.value)
    assert "the anchor decodes to a control character" in message
    assert repr(char)[1:-1] in message  # shown escaped: `\n`, `\x1b`, `\u202e`
    assert message.isprintable()
    assert info.value.column == 7  # the anchor, after `h2.0,#`


@pytest.mark.parametrize("char", ["\t", "\n", "\r", "\u2028", "\u2029", "\u202e", "\u2066"])
@pytest.mark.parametrize("form", ["&#x{:X};", "&#{:d};"])
def test_an_anchor_entity_decoding_to_a_control_character_is_refused(char: str, form: str) -> None:
    with pytest.raises(SelectorSyntaxError, match="decodes to a control character") as info:
        parse_request("#x" + form.format(ord(char)) + "~h2.0")
    assert str(info.value).isprintable()


@pytest.mark.parametrize("code", [0x00, 0x01, 0x1B, 0x7F, 0x85, 0x9B])
def test_an_entity_for_a_control_character_never_yields_one(code: int) -> None:
    """HTML's rules: NUL as U+FFFD, C1 as Windows-1252, the other controls refused or dropped;
    whichever, no control character reaches the anchor, and the rest stays part of it."""
    for text in (f"#x&#x{code:X};~h2.0", f"#x&#{code};~h2.0"):
        try:
            (selector,) = parse_request(text)
        except SelectorSyntaxError as error:
            assert "decodes to a control character" in str(error)
            continue
        (segment,) = selector.segments
        assert segment.type == ANCHOR and segment.name.isprintable()
        assert segment.name.startswith("x") and segment.name.endswith("~h2.0")


@pytest.mark.parametrize("text", ["README.md#a%1Bb", "readme::#a%E2%80%AEb", "#x/code.0,#%0A"])
def test_a_control_character_is_refused_wherever_the_anchor_is(text: str) -> None:
    with pytest.raises(SelectorSyntaxError, match="decodes to a control character"):
        parse_request(text)


def test_what_decoding_yields_is_not_decoded_again() -> None:
    # `%250A` is `%0A` once decoded: text, not a line break.
    assert one("#x%250A")[1] == "#x%0A"
    assert one("#x&amp;lt;")[1] == "#x&lt;"
    # An entity, then the browser's percent escapes: each once.
    assert one("#x&#37;41")[1] == "#xA"


_SEGMENT_PIECES = st.sampled_from(
    ["h1", "h2", "h6", "h7", "H2", "section", "para", "code", "list", "table", "quote", "root",
     "paragraph", ".", "0", "1", "07", "12", "999999999999", "9999999999999", "/", "-", ",",
     " ", "?", "full=true", "#", "::", "L3", "[", "]"]
)  # fmt: skip


@settings(max_examples=600, deadline=None)
@given(st.lists(_SEGMENT_PIECES, min_size=1, max_size=12).map("".join))
def test_the_numbered_path_shortcut_gives_the_parsers_answer(text: str) -> None:
    from mdsel.selector import _numbered_path, _Parser

    shortcut = _numbered_path(text)
    try:
        parsed = _Parser(text).request()
    except SelectorSyntaxError:
        assert shortcut is None
    else:
        assert shortcut is None or shortcut == parsed


@pytest.mark.parametrize(
    "text", ["h2.1", "h2.1/code.0", "section.3/para.12/list.0", "quote.0", "h6.007"]
)
def test_the_numbered_path_shortcut_takes_the_usual_requests(text: str) -> None:
    from mdsel.selector import _numbered_path, _Parser

    assert _numbered_path(text) == _Parser(text).request()
