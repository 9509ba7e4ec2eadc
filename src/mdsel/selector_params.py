"""The parameters after `?` in a selector: head=N, tail=N, page=N, full=true, toc=true, and
q=WORDS (a search), whose words run to the end of the request but for a last `&page=N`."""

from __future__ import annotations

import re
from urllib.parse import unquote_plus

from mdsel.scanner import MAX_NUMBER, Scanner
from mdsel.selector_values import Params

_WORD = re.compile(r"[A-Za-z_]+")
_VALUE = re.compile(r"[A-Za-z0-9]+")
_PARAMETER = re.compile(r"&[ \t]*(head|tail|page|full|toc|q)[ \t]*=", re.IGNORECASE)
"""A parameter after q='s words (`&full=true`): an error, not words."""
_LAST_PAGE = re.compile(r"&[ \t]*page[ \t]*=[ \t]*([0-9]{1,12})[ \t]*\Z", re.IGNORECASE)


def parse_params(scanner: Scanner) -> Params:
    """The parameters at the scanner's position (just after `?`), up to the end or a `,`."""
    values: dict[str, int | bool] = {}
    query: str | None = None
    while True:
        scanner.skip_space()
        begin = scanner.pos
        match = _WORD.match(scanner.text, scanner.pos)
        if match is None:
            raise scanner.unexpected("a parameter (head, tail, page, full, toc, q)")
        key = match.group().lower()
        if key not in ("head", "tail", "page", "full", "toc", "q"):
            raise scanner.fail(
                f"unknown parameter {match.group()!r}; use head, tail, page, full, toc or q "
                "(q=words searches)",
                begin,
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
        if key == "q":
            query, page = _query(scanner)
            if page is not None:
                if "page" in values:
                    raise scanner.fail("parameter 'page' is given twice")
                values["page"] = page
            break
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
    if query is not None:
        given = [key for key in ("head", "tail", "full", "toc") if key in values]
        if given:
            raise scanner.fail(
                f"q= searches and shows the best section; it takes no {given[0]} (page=N shows "
                "the next hits)"
            )
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
        q=query,
    )


def _query(scanner: Scanner) -> tuple[str, int | None]:
    """The words of `q=` (the scanner just past `=`): the rest of the request, but for a last
    `&page=N`, which pages the hits; `+` and percent escapes decoded. The scanner ends at the
    end of the text."""
    rest = scanner.text[scanner.pos :]
    last = _LAST_PAGE.search(rest)
    page = None
    if last is not None:
        page = int(last.group(1))
        if page < 1:
            raise scanner.fail("page must be at least 1", scanner.pos + last.start(1))
        rest = rest[: last.start()]
    other = _PARAMETER.search(rest)
    if other is not None:
        # No words read `&full=true`: a parameter after q=, which the words would swallow.
        key = other.group(1).lower()
        at = scanner.pos + other.start(1)
        if key == "page":
            raise scanner.fail("page=N after q= comes last, once, as a number: ?q=words&page=2", at)
        if key == "q":
            raise scanner.fail("parameter 'q' is given twice", at)
        raise scanner.fail(
            f"q= searches and shows the best section; it takes no {key} (page=N shows the "
            "next hits)",
            at,
        )
    scanner.pos = len(scanner.text)
    return unquote_plus(rest), page


def _int(value: int | bool | None) -> int | None:
    return None if value is None else int(value)
