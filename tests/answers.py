"""A select's text answer read apart, for tests about what a match shows: each match's header
line (`==> path selector titles Lx-y <==`, checked here), its own lines, and the trailer a part of
a match ends with (`[page …]`, `[head=…]`, `[tail=…]`)."""

from __future__ import annotations

import re

HEADER = re.compile(
    r"==> (?P<path>.+?) (?P<selector>(?:[a-z0-9_-]+::)?(?:root|section|h[1-6]|para|code|list"
    r"|table|quote|L)\S*) (?P<titles>.+) L(?P<first>[0-9]+)-(?P<last>[0-9]+) <=="
)
"""The header line: the selector is the first word shaped as one, the lines come last."""

# After a lone CR (a file of CR line endings) our lines follow a line break of ours.
_TRAILER = re.compile(r"(?:(?<=\r)\n)?\[(?:page [0-9]+/[0-9]+ of |head=|tail=)[^\n]*\]\n\Z")


def parts(stdout: str) -> list[tuple[re.Match[str], str]]:
    """Each match of an answer holding matches only: its header, read apart, and what follows
    it up to the next header (its lines and any trailer)."""
    found: list[tuple[re.Match[str], str]] = []
    pieces = re.split(r"(?:(?<=\r)\n)?^(==> [^\n]* <==)\n", stdout, flags=re.MULTILINE)
    assert pieces[0] == "", f"an answer starts with a header: {stdout[:200]!r}"
    for line, text in zip(pieces[1::2], pieces[2::2], strict=True):
        header = HEADER.fullmatch(line)
        assert header is not None, line
        found.append((header, text))
    return found


def body(stdout: str) -> str:
    """The lines of an answer's one match, without its header and trailer."""
    (only,) = parts(stdout)
    return _TRAILER.sub("", only[1], count=1)


def bodies(stdout: str) -> list[str]:
    """The lines of each match, without headers and trailers."""
    return [_TRAILER.sub("", text, count=1) for _header, text in parts(stdout)]
