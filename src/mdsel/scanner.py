"""A position in a selector string, and the errors it raises with a 1-based column.

The base of the selector parser (mdsel.selector) and of its parameters' (mdsel.selector_params).
"""

from __future__ import annotations

import re

from mdsel.errors import SelectorSyntaxError

MAX_NUMBER = 10**12
"""Numbers are clamped here: `int()` of thousands of digits is slow (and refused past 4300).
Where the number itself is what is asked for (an index, a line, a page), a clamped one is
refused instead (Scanner.too_large): an answer naming 10**12 would not be the number sent."""

_DIGITS = re.compile(r"[0-9]+")
_SPACE = " \t\r\n"


class Scanner:
    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0

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

    def too_large(self, pos: int) -> SelectorSyntaxError:
        return self.fail(
            "a number of more than 12 digits; no document has that many lines, headings or "
            "pages (write at most 12 digits)",
            pos,
        )

    def number(self, what: str) -> int:
        match = _DIGITS.match(self.text, self.pos)
        if match is None:
            raise self.unexpected(what)
        self.pos = match.end()
        digits = match.group()
        return int(digits) if len(digits) <= 12 else MAX_NUMBER
