"""The parameters after `?` in a selector: head=N, tail=N, page=N, full=true, toc=true."""

from __future__ import annotations

import re

from mdsel.scanner import MAX_NUMBER, Scanner
from mdsel.selector_values import Params

_WORD = re.compile(r"[A-Za-z_]+")
_VALUE = re.compile(r"[A-Za-z0-9]+")


def parse_params(scanner: Scanner) -> Params:
    """The parameters at the scanner's position (just after `?`), up to the end or a `,`."""
    values: dict[str, int | bool] = {}
    while True:
        scanner.skip_space()
        begin = scanner.pos
        match = _WORD.match(scanner.text, scanner.pos)
        if match is None:
            raise scanner.unexpected("a parameter (head, tail, page, full, toc)")
        key = match.group().lower()
        if key not in ("head", "tail", "page", "full", "toc"):
            raise scanner.fail(
                f"unknown parameter {match.group()!r}; use head, tail, page, full or toc", begin
            )
        if key in values:
            raise scanner.fail(f"parameter {key!r} is given twice", begin)
        scanner.pos = match.end()
        scanner.skip_space()
        if scanner.peek() != "=":
            raise scanner.unexpected(f"'=' after {key}")
        scanner.pos += 1
        scanner.skip_space()
        value_at = scanner.pos
        if key in ("full", "toc"):
            word = _VALUE.match(scanner.text, scanner.pos)
            flag = word.group().lower() if word else ""
            if flag not in ("true", "false"):
                raise scanner.fail(f"{key} must be true or false", value_at)
            scanner.pos = word.end() if word else scanner.pos
            values[key] = flag == "true"
        else:
            number = scanner.number(f"a number after {key}=")
            if number < 1:
                raise scanner.fail(f"{key} must be at least 1", value_at)
            if key == "page" and number == MAX_NUMBER:  # head=, tail=: all lines, as asked
                raise scanner.too_large(value_at)
            values[key] = number
        scanner.skip_space()
        if scanner.peek() != "&":
            break
        scanner.pos += 1
    if "head" in values and "tail" in values:
        raise scanner.fail("head and tail cannot be used together; pick one")
    if values.get("toc") and any(key in values for key in ("head", "tail", "page")):
        raise scanner.fail("toc=true lists headings; it takes no head, tail or page")
    return Params(
        head=_int(values.get("head")),
        tail=_int(values.get("tail")),
        page=_int(values.get("page")),
        full=bool(values.get("full", False)),
        toc=bool(values.get("toc", False)),
    )


def _int(value: int | bool | None) -> int | None:
    return None if value is None else int(value)
