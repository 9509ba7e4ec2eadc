"""Selector strings → Selector values, or SelectorSyntaxError with a 1-based column.

    request  := selector ("," selector)*
    selector := [namespace "::"] segment ("/" segment)* ["?" param ("&" param)*]
    segment  := type [index]          index := "." spec | "[" spec "]"
    spec     := item ("," item)*      item  := N | N "-" M
    param    := head=N | tail=N | page=N | full=true|false | toc=true|false

A comma after an index item continues the list only when an item (`N` or `N-M`) follows and is
itself followed by `,`, `/`, `?` or the end; otherwise it starts the next selector, so
`h2.0,2,4` is one selector and `h2.0,2024::h1.0` two.
"""

from __future__ import annotations

import re

from mdsel._record import NamedTuple
from mdsel.errors import SelectorSyntaxError
from mdsel.names import namespace_of

MAX_REQUEST_CHARS = 4096
"""Longer requests are refused: nothing legitimate needs more, and it bounds all later work."""

MAX_NUMBER = 10**12
"""Numbers are clamped here: `int()` of thousands of digits is slow (and refused past 4300)."""

_TYPES = {
    "root": "root",
    "section": "section",
    "para": "para",
    "paragraph": "para",
    "block:paragraph": "para",
    "code": "code",
    "block:code": "code",
    "list": "list",
    "block:list": "list",
    "table": "table",
    "block:table": "table",
    "quote": "quote",
    "blockquote": "quote",
    "block:blockquote": "quote",
}
for _n in range(1, 7):
    _TYPES[f"h{_n}"] = _TYPES[f"heading:h{_n}"] = f"h{_n}"

TYPE_NAMES = "root, section, h1…h6, para, code, list, table, quote"

_NAMESPACE = re.compile(r"([A-Za-z0-9_\-]+)[ \t]*::")
_FILE_NAMESPACE = re.compile(r"([^\s:/?,]+\.[A-Za-z0-9]+)[ \t]*::")
_TYPE = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:[ \t]*:[ \t]*[A-Za-z][A-Za-z0-9]*)?")
_DIGITS = re.compile(r"[0-9]+")
_WORD = re.compile(r"[A-Za-z_]+")
_VALUE = re.compile(r"[A-Za-z0-9]+")
_ITEM_AHEAD = re.compile(r",[ \t]*[0-9]+(?:[ \t]*-[ \t]*[0-9]+)?[ \t]*(?=[,/?]|\Z)")
_SPACE = " \t\r\n"


class Item(NamedTuple):
    """One index item: ordinals first..last, 0-based and inclusive (first == last for `N`)."""

    first: int
    last: int


class Segment(NamedTuple):
    type: str
    """Canonical short type: root, section, h1…h6, para, code, list, table, quote."""
    items: tuple[Item, ...] | None
    """None means every match of the type in the scope."""


class Params(NamedTuple):
    head: int | None = None
    tail: int | None = None
    page: int | None = None
    full: bool = False
    toc: bool = False


class Selector(NamedTuple):
    namespace: str | None
    """Lowercased namespace, or None for every document."""
    segments: tuple[Segment, ...]
    params: Params
    source: str
    """The selector as written (trimmed), for messages."""


def parse_request(text: str) -> tuple[Selector, ...]:
    """Parse a whole request (one or more comma-separated selectors)."""
    if len(text) > MAX_REQUEST_CHARS:
        raise SelectorSyntaxError(
            f"selector is {len(text)} characters long; the limit is {MAX_REQUEST_CHARS}",
            MAX_REQUEST_CHARS + 1,
        )
    return _Parser(text).request()


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0

    # -- helpers ---------------------------------------------------------------------------
    def fail(self, message: str, pos: int | None = None) -> SelectorSyntaxError:
        return SelectorSyntaxError(message, (self.pos if pos is None else pos) + 1)

    def unexpected(self, expected: str) -> SelectorSyntaxError:
        if self.pos >= len(self.text):
            return self.fail(f"expected {expected} but the selector ended")
        return self.fail(f"unexpected {self.text[self.pos]!r}, expected {expected}")

    def skip_space(self) -> None:
        text, pos = self.text, self.pos
        while pos < len(text) and text[pos] in _SPACE:
            pos += 1
        self.pos = pos

    def peek(self) -> str:
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def number(self, what: str) -> int:
        match = _DIGITS.match(self.text, self.pos)
        if match is None:
            raise self.unexpected(what)
        self.pos = match.end()
        digits = match.group()
        return int(digits) if len(digits) <= 12 else MAX_NUMBER

    # -- grammar ---------------------------------------------------------------------------
    def request(self) -> tuple[Selector, ...]:
        self.skip_space()
        if self.pos >= len(self.text):
            raise self.fail("empty selector; try h2.0, or run `mdsel index` to list selectors", 0)
        selectors = [self.selector()]
        while True:
            self.skip_space()
            if self.pos >= len(self.text):
                return tuple(selectors)
            if self.peek() != ",":
                raise self.unexpected("',', '/', '?' or the end")
            self.pos += 1
            self.skip_space()
            if self.pos >= len(self.text):
                raise self.fail("expected a selector after ','")
            selectors.append(self.selector())

    def selector(self) -> Selector:
        begin = self.pos
        namespace = None
        named_file = _FILE_NAMESPACE.match(self.text, self.pos)
        if named_file is not None:
            raise self.fail(
                f"namespace {named_file.group(1)!r} has a file extension; namespaces are file "
                f"names without it, lowercased: {namespace_of(named_file.group(1))}::"
            )
        match = _NAMESPACE.match(self.text, self.pos)
        if match is not None:
            namespace = match.group(1).lower()
            self.pos = match.end()
            self.skip_space()
        segments = [self.segment(first=True)]
        while True:
            self.skip_space()
            if self.peek() != "/":
                break
            self.pos += 1
            self.skip_space()
            segments.append(self.segment(first=False))
        params = Params()
        if self.peek() == "?":
            self.pos += 1
            params = self.params()
        return Selector(namespace, tuple(segments), params, self.text[begin : self.pos].strip())

    def segment(self, first: bool) -> Segment:
        begin = self.pos
        match = _TYPE.match(self.text, self.pos)
        if match is None:
            raise self.unexpected(f"a type ({TYPE_NAMES})")
        name = re.sub(r"[ \t]", "", match.group()).lower()
        kind = _TYPES.get(name)
        if kind is None:
            raise self.fail(f"unknown type {match.group()!r}; types are {TYPE_NAMES}", begin)
        self.pos = match.end()
        if kind == "root" and not first:
            raise self.fail("root can only be the first segment", begin)
        self.skip_space()
        items: tuple[Item, ...] | None = None
        char = self.peek()
        if char in (".", "["):
            if kind == "root":
                raise self.fail("root takes no index")
            self.pos += 1
            self.skip_space()
            items = self.spec(bracket=char == "[")
        return Segment(kind, items)

    def spec(self, bracket: bool) -> tuple[Item, ...]:
        items = [self.item()]
        while True:
            self.skip_space()
            if bracket:
                if self.peek() == "]":
                    self.pos += 1
                    return tuple(items)
                if self.peek() != ",":
                    raise self.unexpected("',' or ']'")
                self.pos += 1
                self.skip_space()
                items.append(self.item())
            else:
                if self.peek() != "," or _ITEM_AHEAD.match(self.text, self.pos) is None:
                    return tuple(items)
                self.pos += 1
                self.skip_space()
                items.append(self.item())

    def item(self) -> Item:
        begin = self.pos
        first = self.number("an index (0, 1, 2…)")
        self.skip_space()
        if self.peek() != "-":
            return Item(first, first)
        self.pos += 1
        self.skip_space()
        last = self.number("the end of the range")
        if last < first:
            raise self.fail(f"range {first}-{last} is reversed; write {last}-{first}", begin)
        return Item(first, last)

    def params(self) -> Params:
        values: dict[str, int | bool] = {}
        while True:
            self.skip_space()
            begin = self.pos
            match = _WORD.match(self.text, self.pos)
            if match is None:
                raise self.unexpected("a parameter (head, tail, page, full, toc)")
            key = match.group().lower()
            if key not in ("head", "tail", "page", "full", "toc"):
                raise self.fail(
                    f"unknown parameter {match.group()!r}; use head, tail, page, full or toc", begin
                )
            if key in values:
                raise self.fail(f"parameter {key!r} is given twice", begin)
            self.pos = match.end()
            self.skip_space()
            if self.peek() != "=":
                raise self.unexpected(f"'=' after {key}")
            self.pos += 1
            self.skip_space()
            value_at = self.pos
            if key in ("full", "toc"):
                word = _VALUE.match(self.text, self.pos)
                flag = word.group().lower() if word else ""
                if flag not in ("true", "false"):
                    raise self.fail(f"{key} must be true or false", value_at)
                self.pos = word.end() if word else self.pos
                values[key] = flag == "true"
            else:
                number = self.number(f"a number after {key}=")
                if number < 1:
                    raise self.fail(f"{key} must be at least 1", value_at)
                values[key] = number
            self.skip_space()
            if self.peek() != "&":
                break
            self.pos += 1
        if "head" in values and "tail" in values:
            raise self.fail("head and tail cannot be used together; pick one")
        if values.get("toc") and any(key in values for key in ("head", "tail", "page")):
            raise self.fail("toc=true lists headings; it takes no head, tail or page")
        return Params(
            head=_int(values.get("head")),
            tail=_int(values.get("tail")),
            page=_int(values.get("page")),
            full=bool(values.get("full", False)),
            toc=bool(values.get("toc", False)),
        )


def _int(value: int | bool | None) -> int | None:
    return None if value is None else int(value)


def format_items(items: tuple[Item, ...]) -> str:
    return ",".join(str(i.first) if i.first == i.last else f"{i.first}-{i.last}" for i in items)


def format_segments(segments: tuple[Segment, ...]) -> str:
    """Short form of a path: `h2.1/code.0`, `section/list.0-2`."""
    return "/".join(
        s.type if s.items is None else f"{s.type}.{format_items(s.items)}" for s in segments
    )


def format_params(params: Params) -> str:
    parts = []
    if params.head is not None:
        parts.append(f"head={params.head}")
    if params.tail is not None:
        parts.append(f"tail={params.tail}")
    if params.page is not None:
        parts.append(f"page={params.page}")
    if params.full:
        parts.append("full=true")
    if params.toc:
        parts.append("toc=true")
    return "?" + "&".join(parts) if parts else ""
