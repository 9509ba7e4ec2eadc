"""Write a changed JSON value back over its old text, keeping every byte of what did not change.

Install adds one server or one hook group to a user's file; everything else in it — numbers as
written (`1E2`, `-0`, long decimals), indentation, inline arrays, key spacing, line endings, the
final newline — must come back exactly as it was, and uninstall must give back the very bytes
that were there before install. Re-serialising the parsed value cannot do that (`json` knows
nothing of the text it parsed), and no maintained Python package edits JSON text in place, so
this module splices: it walks the old text and the new value together, copies the text of every
unchanged value, and writes fresh text only for what is new, in the style of its surroundings.
"""

from __future__ import annotations

import difflib
import itertools
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, replace

_WHITESPACE = re.compile(r"[ \t\n\r]*")
scanstring: Callable[[str, int], tuple[str, int]] = getattr(json.decoder, "scanstring")  # noqa: B009
"""The standard library's string scanner (not in its type stubs): the end offset of a key."""
_SCAN = json.JSONDecoder()
"""Finds where a value ends; only its end offset is used (the text was validated already)."""


class Int(int):
    """A JSON integer that remembers how it was written (`-0`, `1` and `01` differ in text)."""

    literal: str

    def __new__(cls, text: str) -> Int:
        number = super().__new__(cls, int(text))
        number.literal = text
        return number

    def __deepcopy__(self, memo: object) -> Int:
        return self  # immutable


class Float(float):
    """A JSON number with a fraction or exponent, and how it was written (`1E2`, `0.1000`)."""

    literal: str

    def __new__(cls, text: str) -> Float:
        number = super().__new__(cls, float(text))
        number.literal = text
        return number

    def __deepcopy__(self, memo: object) -> Float:
        return self


@dataclass(frozen=True, slots=True)
class Style:
    """How fresh text is laid out: indent unit (None: all on one line), line end, key separator."""

    unit: str | None = "  "
    newline: str = "\n"
    colon: str = ": "
    indent: str = ""
    """The indentation of the line the value being written starts on."""


def _string(text: str) -> str:
    quoted = json.dumps(text, ensure_ascii=False)
    try:
        quoted.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate: only an escape can carry it
        quoted = json.dumps(text, ensure_ascii=True)
    return quoted


def dumps(value: object, style: Style = Style()) -> str:
    """Fresh text for a value; numbers parsed from a file keep their literal."""
    literal = getattr(value, "literal", None)
    if isinstance(literal, str):
        return literal
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, dict):
        inner = _inner(style)
        parts = [f"{_string(str(k))}{style.colon}{dumps(v, inner)}" for k, v in value.items()]
        return _wrap("{", parts, "}", style)
    if isinstance(value, list):
        return _wrap("[", [dumps(item, _inner(style)) for item in value], "]", style)
    return json.dumps(value, allow_nan=False)


def _inner(style: Style) -> Style:
    return style if style.unit is None else replace(style, indent=style.indent + style.unit)


def _wrap(opener: str, parts: list[str], closer: str, style: Style) -> str:
    if not parts:
        return opener + closer
    if style.unit is None:
        return opener + ", ".join(parts) + closer
    inner = style.newline + style.indent + style.unit
    return opener + inner + ("," + inner).join(parts) + style.newline + style.indent + closer


@dataclass(frozen=True, slots=True)
class _Item:
    """One member of an object (from its key) or element of an array, as spans of the text."""

    start: int
    value_start: int
    end: int
    key: str | None


def _skip(text: str, at: int) -> int:
    match = _WHITESPACE.match(text, at)
    assert match is not None  # the pattern matches the empty string
    return match.end()


def _items(text: str, start: int) -> list[_Item]:
    """The members or elements of the container starting at `start` (valid JSON)."""
    is_object = text[start] == "{"
    closer = "}" if is_object else "]"
    at = _skip(text, start + 1)
    items: list[_Item] = []
    while text[at] != closer:
        item_start = at
        key = None
        if is_object:
            key, at = scanstring(text, at + 1)
            at = _skip(text, _skip(text, at) + 1)  # past the colon
        value_start = at
        _, at = _SCAN.raw_decode(text, at)
        items.append(_Item(item_start, value_start, at, key))
        at = _skip(text, at)
        if text[at] == ",":
            at = _skip(text, at + 1)
    return items


def _line_indent(text: str, at: int) -> str:
    line_start = text.rfind("\n", 0, at) + 1
    match = re.match(r"[ \t]*", text[line_start:at])
    return match.group() if match else ""


def _same(old: object, new: object) -> bool:
    # `==` first (fast, in C); equal values may still differ in type (1, 1.0, true), which the
    # canonical text tells apart.
    return bool(old == new) and json.dumps(old) == json.dumps(new)


def render(text: str, start: int, end: int, old: object, new: object, style: Style) -> str:
    """The text for `new` in place of `text[start:end]`, which holds `old`."""
    if _same(old, new):
        return text[start:end]
    style = replace(style, indent=_line_indent(text, start))
    if isinstance(old, dict) and isinstance(new, dict):
        return _render_object(text, start, end, old, new, style)
    if isinstance(old, list) and isinstance(new, list):
        return _render_array(text, start, end, old, new, style)
    return dumps(new, style)


Piece = tuple[int | None, str]
"""The old index of an item (None for a new one) and its text."""


def _render_object(
    text: str, start: int, end: int, old: dict[str, object], new: dict[str, object], style: Style
) -> str:
    items = _items(text, start)
    by_key = {item.key: index for index, item in enumerate(items)}
    child = _child_style(text, start, end, items, style)
    if items:
        key_end = scanstring(text, items[0].start + 1)[1]
        child = replace(child, colon=text[key_end : items[0].value_start])
    pieces: list[Piece] = []
    for key, value in new.items():
        index = by_key.get(key)
        if index is None:
            pieces.append((None, f"{_string(key)}{child.colon}{dumps(value, child)}"))
            continue
        item = items[index]
        head = text[item.start : item.value_start]
        body = render(text, item.value_start, item.end, old[key], value, child)
        pieces.append((index, head + body))
    return _join(text, start, end, items, pieces, child, style)


def _render_array(
    text: str, start: int, end: int, old: list[object], new: list[object], style: Style
) -> str:
    items = _items(text, start)
    child = _child_style(text, start, end, items, style)
    keys_old = [json.dumps(value) for value in old]
    keys_new = [json.dumps(value) for value in new]
    matcher = difflib.SequenceMatcher(a=keys_old, b=keys_new, autojunk=False)
    pieces: list[Piece] = []
    for _op, i1, i2, j1, j2 in matcher.get_opcodes():
        # Equal runs are copied; a changed element is rendered over the old one at its place
        # (a matcher group that lost one hook keeps the text of the others); the rest is new.
        for offset in range(j2 - j1):
            index = i1 + offset
            if index < i2:
                item = items[index]
                body = render(text, item.start, item.end, old[index], new[j1 + offset], child)
                pieces.append((index, body))
            else:
                pieces.append((None, dumps(new[j1 + offset], child)))
    return _join(text, start, end, items, pieces, child, style)


def _child_style(text: str, start: int, end: int, items: list[_Item], style: Style) -> Style:
    """The style of a container's items: as the existing ones, else one level in."""
    if "\n" not in text[start:end] and items:
        return replace(style, unit=None)
    if items:
        return replace(style, indent=_line_indent(text, items[-1].start))
    return _inner(style)


def _join(
    text: str,
    start: int,
    end: int,
    items: list[_Item],
    pieces: list[Piece],
    child: Style,
    style: Style,
) -> str:
    opener, closer = text[start], text[end - 1]
    if not pieces:
        return opener + closer
    separators = [text[a.end : b.start] for a, b in itertools.pairwise(items)]
    if separators:
        fresh = separators[-1]
    elif child.unit is None:
        fresh = ", "
    else:
        fresh = "," + child.newline + child.indent
    if items:
        lead, trail = text[start + 1 : items[0].start], text[items[-1].end : end - 1]
    elif child.unit is None:
        lead = trail = ""
    else:
        lead, trail = child.newline + child.indent, style.newline + style.indent
    out = [opener, lead]
    previous: int | None = None
    for position, (index, piece) in enumerate(pieces):
        if position:
            # Between two items that were neighbours (or became so by removals in between),
            # the separator that stood before the later one; anywhere else, the usual one.
            if index is not None and previous is not None and previous < index:
                out.append(separators[index - 1])
            else:
                out.append(fresh)
        out.append(piece)
        previous = index
    out += [trail, closer]
    return "".join(out)


def detect_style(text: str) -> Style:
    """The layout of a file: its indent unit (from the first indented line), line end, colon."""
    newline = "\r\n" if "\r\n" in text else "\n"
    match = re.search(r"\n([ \t]+)\S", text)
    if "\n" not in text.strip():
        return Style(unit=None, newline=newline)
    return Style(unit=match.group(1) if match else "  ", newline=newline)
