"""Selector strings → Selector values, or SelectorSyntaxError with a 1-based column.

    request  := selector ("," selector)*
    selector := [namespace "::"] first ("/" segment)* ["?" param ("&" param)*]
              | path ":" N [":"] ("/" segment)* ["?" param ("&" param)*]
    first    := segment | "L" N | "L" N "-" M | "#" anchor
    segment  := type [index]          index := "." spec | "[" spec "]"
    spec     := item ("," item)*      item  := N | N "-" M
    param    := head=N | tail=N | page=N | full=true|false | toc=true|false

`L812` is the innermost section holding line 812 (1-based, as in the index); `L800-850` those
lines verbatim; `#installation` the section whose heading has that GitHub anchor. They address
the whole document, so they only come first; `L800-850` is not a scope (nothing may follow it).
A link as written in Markdown, `README.md#installation`, means `readme::#installation`; one
as a documentation site writes it (`/guide/api#setup`, `./api.html#setup`) names its document
by its path (mdsel.links). `docs/a.md:23`, a line as `grep -n` prints it, is `L23` in the
document at that path (mdsel.grep_paths).

A comma after an index item continues the list only when an item (`N` or `N-M`) follows and is
itself followed by `,`, `/`, `?` or the end; otherwise it starts the next selector, so
`h2.0,2,4` is one selector and `h2.0,2024::h1.0` two.
"""

from __future__ import annotations

import re

from mdsel.errors import SelectorSyntaxError
from mdsel.fragments import decoded_fragment
from mdsel.links import link_before, on_another_site
from mdsel.names import namespace_of
from mdsel.scanner import MAX_NUMBER, Scanner
from mdsel.selector_params import parse_params
from mdsel.selector_types import CANONICAL, TYPE_NAMES, TYPES
from mdsel.selector_values import (
    ANCHOR,
    LINE,
    LINES,
    Item,
    Params,
    Segment,
    Selector,
    format_items,
    format_params,
    format_segments,
)
from mdsel.titles import control, escaped, typed_control

MAX_REQUEST_CHARS = 4096
"""Longer requests are refused: nothing legitimate needs more, and it bounds all later work."""

_NAMESPACE = re.compile(r"([A-Za-z0-9_\-]+)[ \t]*::")
_FILE_NAMESPACE = re.compile(r"([^\s:/?,]+\.[A-Za-z0-9]+)[ \t]*::")
_TYPE = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:[ \t]*:[ \t]*[A-Za-z][A-Za-z0-9]*)?")
_ITEM_AHEAD = re.compile(r",[ \t]*[0-9]+(?:[ \t]*-[ \t]*[0-9]+)?[ \t]*(?=[,/?]|\Z)")
_LINES = re.compile(r"[Ll]([0-9]+)(?:[ \t]*-[ \t]*([0-9]+))?(?![A-Za-z0-9_:])")
_ANCHOR = re.compile(r"#((?:[^\s,/?#&]|&#?[A-Za-z0-9]{1,32};)*)")
_GREP_LINE = re.compile(r"([^\s,?#:]+):([0-9]+):?(?=[ \t]*(?:[/?,]|\Z))")
"""`docs/a.md:23`, a file's line as `grep -n` prints it (an agent pastes it, sometimes with the
colon before the text): no selector has a single `:` before a number."""


def parse_request(text: str) -> tuple[Selector, ...]:
    """Parse a whole request (one or more comma-separated selectors)."""
    if len(text) > MAX_REQUEST_CHARS:
        raise SelectorSyntaxError(
            f"selector is {len(text)} characters long; the limit is {MAX_REQUEST_CHARS}",
            MAX_REQUEST_CHARS + 1,
        )
    found = typed_control().search(text)
    if found is not None:
        raise SelectorSyntaxError(
            f"control character {escaped(found.group())} in the selector; selectors are "
            "printable text",
            found.start() + 1,
        )
    return _numbered_path(text) or _Parser(text).request()


# Every short type but root (a whole document, never numbered), from the one vocabulary.
_NUMBERED = f"(?:{'|'.join(t for t in CANONICAL if t != 'root')})\\.[0-9]{{1,12}}"
_NUMBERED_PATH = re.compile(f"{_NUMBERED}(?:/{_NUMBERED})*")
_NO_PARAMS = Params()


def _numbered_path(text: str) -> tuple[Selector, ...] | None:
    """The commonest request — one selector of typed, numbered segments, written canonically
    (`h2.1`, `h2.1/code.0`) — read by one pattern, else None for the parser. The answer is the
    parser's own (a test holds them equal); the parser costs several times as much, and a warm
    server call is mostly such small costs."""
    if _NUMBERED_PATH.fullmatch(text) is None:
        return None
    segments = []
    for part in text.split("/"):
        kind, _dot, number = part.partition(".")
        ordinal = int(number)
        segments.append(Segment(kind, (Item(ordinal, ordinal),), ""))
    return (Selector(None, tuple(segments), _NO_PARAMS, text, ""),)


class _Parser(Scanner):
    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.link = ""  # the path of the link being parsed, if the selector is one

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
        self.link = ""
        grep = _GREP_LINE.match(self.text, self.pos)
        if grep is not None:  # `docs/a.md:23`: no namespace, link or search before it
            return self.rest(begin, None, self.grep_line(grep), grep.group(1))
        namespace = self.file_link()
        named_file = _FILE_NAMESPACE.match(self.text, self.pos)
        if named_file is not None:
            raise self.fail(
                f"namespace {named_file.group(1)!r} has a file extension; namespaces are file "
                f"names without it, lowercased: {namespace_of(named_file.group(1))}::"
            )
        match = _NAMESPACE.match(self.text, self.pos) if namespace is None else None
        if match is not None:
            namespace = match.group(1).lower()
            self.pos = match.end()
            self.skip_space()
        if self.peek() == "?":  # `?q=…`, `readme::?q=…`: a search of whole documents
            self.pos += 1
            params = self.params()
            if params.q is None:
                raise self.fail(
                    "expected a selector before '?' (h2.1?head=5), or a search: ?q=words", begin
                )
            source = self.text[begin : self.pos].strip()
            return Selector(namespace, (), params, source, self.link)
        return self.rest(begin, namespace, self.segment(first=True))

    def rest(self, begin: int, namespace: str | None, first: Segment, file: str = "") -> Selector:
        """The selector whose first segment is `first`: its later segments and parameters."""
        segments = [first]
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
        source = self.text[begin : self.pos].strip()
        return Selector(namespace, tuple(segments), params, source, self.link, file)

    def grep_line(self, grep: re.Match[str]) -> Segment:
        """The line of `path:LINE` (`grep` matched at the position) as the segment `L<LINE>`."""
        number = self._line_number(grep.group(2), grep.start(2) + 1)
        self.pos = grep.end()
        return Segment(LINE, (Item(number, number),))

    def file_link(self) -> str | None:
        """A link as written in a page (`README.md#install`, `/guide/api#setup`; see
        mdsel.links) up to its `#`: its path is kept in `self.link` and the namespace of the
        Markdown file it ends in returned (None for a site's page or folder). Not a link: None,
        `link` left empty."""
        end = self.text.find("#", self.pos)
        if end <= self.pos:
            return None
        written = self.text[self.pos : end]
        if on_another_site(written):
            raise self.fail(
                f"{written!r} is on another site; links name documents of this call: select in "
                "the file the link's page comes from"
            )
        anchor = _ANCHOR.match(self.text, end)
        link = link_before(written, anchor is not None and bool(anchor[1]))
        if link is None:
            return None  # `h2.1/…#x`, `h2#`: a selector (refused below, saying where)
        self.pos = end
        self.link, namespace = link
        return namespace

    def segment(self, first: bool) -> Segment:
        begin = self.pos
        address = self.address()
        if address is not None:
            if not first:
                raise self.fail(
                    f"{format_segments((address,))} addresses the whole document, so it must be "
                    "the first segment (after any namespace)",
                    begin,
                )
            return address
        match = _TYPE.match(self.text, self.pos)
        if match is None:
            raise self.unexpected(f"a type ({TYPE_NAMES})")
        name = re.sub(r"[ \t]", "", match.group()).lower()
        kind = TYPES.get(name)
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

    def address(self) -> Segment | None:
        """`L812`, `L800-850` or `#anchor` at the current position, else None."""
        begin = self.pos
        if self.peek() == "#":
            anchor = _ANCHOR.match(self.text, self.pos)
            assert anchor is not None  # `#` itself always matches
            if not anchor.group(1):
                raise self.fail(
                    "expected an anchor after '#', e.g. #installation (a heading's GitHub "
                    "anchor: lower case, spaces as '-')",
                    begin + 1,
                )
            name = decoded_fragment(anchor.group(1))
            found = control().search(name)
            if found is not None:
                raise self.fail(
                    f"the anchor decodes to a control character ({escaped(found.group())}); "
                    "anchors hold none: copy the link's fragment as written",
                    begin + 1,
                )
            self.pos = anchor.end()
            return Segment(ANCHOR, None, name)
        lines = _LINES.match(self.text, self.pos)
        if lines is None:
            return None
        first = self._line_number(lines.group(1), begin + 1)
        self.pos = lines.end()
        if lines.group(2) is None:
            segment = Segment(LINE, (Item(first, first),))
        else:
            last = self._line_number(lines.group(2), lines.start(2), end=True)
            if last < first:
                raise self.fail(
                    f"line range {first}-{last} is reversed; write L{last}-{first}", begin
                )
            segment = Segment(LINES, (Item(first, last),))
        self.skip_space()
        if self.peek() in (".", "["):
            raise self.fail(f"{format_segments((segment,))} takes no index")
        if segment.type == LINES and self.peek() == "/":
            raise self.fail(
                f"{format_segments((segment,))} selects lines, not a section: nothing can be "
                f"selected inside it; use L{first} for the section holding line {first}"
            )
        return segment

    def _line_number(self, digits: str, at: int, end: bool = False) -> int:
        if len(digits) > 12:
            if not end:  # `L5-99999999999999` is to the end; `L99999999999999` no line
                raise self.too_large(at)
            return MAX_NUMBER  # see MAX_NUMBER: never int() thousands of digits
        number = int(digits)
        if number < 1:
            raise self.fail("line numbers start at 1 (L1 is the first line)", at)
        return number

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
        if first == MAX_NUMBER:  # clamped: `h2.0-99999999999999` is every one, this none
            raise self.too_large(begin)
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
        return parse_params(self)


__all__ = [
    "ANCHOR",
    "LINE",
    "LINES",
    "MAX_NUMBER",
    "MAX_REQUEST_CHARS",
    "TYPE_NAMES",
    "Item",
    "Params",
    "Segment",
    "Selector",
    "format_items",
    "format_params",
    "format_segments",
    "parse_request",
]
