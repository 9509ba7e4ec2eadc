"""The token estimate: how many Claude tokens a text takes, counted by character class in C.

A Claude tokenizer splits text at class changes (a run of letters, of digits, of punctuation,
of spaces) and then into pieces of known words. So a text costs about one token per run, more
for runs it cannot know: mixed case inside a word (base64, hashes in upper case), long runs of
letters or digits, punctuation next to digits (`1.2.3`), and every byte outside ASCII (a byte
is never worse than one token). Each class gets a weight, fitted against the tokenizer the
tests use (tests/test_estimate.py) so that the estimate is at or above the real count on
prose, code, tables, hex, base64, numbers, URLs, CJK, emoji and runs of any one character, and
about 1.4 times the real count on English prose. Words no language has (`qzkx vbnw`) and
Latin-script languages other than English can cost up to twice what their classes say.

One pass of `bytes.translate` per class family and a count per feature, all in C: the
estimate runs over every answer and every page a select cuts. Standard library only.
"""

from __future__ import annotations

UNITS_PER_TOKEN = 1000
"""The estimate's fixed point: costs are counted in thousandths of a token, in integers."""

NON_ASCII_BYTE = 1000
"""Each byte outside ASCII: a byte-level tokenizer never takes more than one token a byte."""


def _table(classes: dict[bytes, bytes], default: bytes) -> bytes:
    """A `bytes.translate` table: each byte of a key maps to its value, the rest to default."""
    table = bytearray(default * 256)
    for members, value in classes.items():
        for byte in members:
            table[byte] = value[0]
    return bytes(table)


_LOWER = bytes(range(ord("a"), ord("z") + 1))
_UPPER = bytes(range(ord("A"), ord("Z") + 1))
_DIGIT = b"0123456789"
_PUNCT = bytes(b for b in range(33, 127) if not chr(b).isalnum())
_ASCII = bytes(range(128))

_CLASSES = _table(
    {_LOWER: b"l", _UPPER: b"u", _DIGIT: b"d", b" ": b"s", b"\n": b"n", _PUNCT: b"p"},
    b"x",
)
"""Every byte as its class: l, u, d (digit), s (space), n (LF), p (punctuation), and x for
the rest: bytes outside ASCII, tabs, CR and controls, each taken as a token."""

_RUNS = {
    name: _table({members: b"a"}, b"b")
    for name, members in {
        "letters": _LOWER + _UPPER,
        "digits": _DIGIT,
        "punctuation": _PUNCT,
    }.items()
}
"""Per class, its bytes as `a` and the rest as `b`: the runs of the class are the `ba` pairs."""

RUN_WEIGHTS = {"letters": 847, "digits": 2133, "punctuation": 576}
"""Units per run of a class: a word, a number, a run of punctuation."""

LINE_BREAK = 3207
"""Units per line break, with what starts the next line (`- `, `| `, `#`); a blank line's
is free (a run of them is about one token)."""

COUNT_WEIGHTS = {
    b"x": NON_ASCII_BYTE,
    b"l": 59,  # a lower-case letter past a word's first token
    b"lu": 2397,  # a case change inside a run of letters (camelCase, base64)
    b"l" * 16: 7600,  # sixteen lower-case letters in a row: no word, a string of letters
    b"u" * 8: 4704,  # eight capitals in a row
    b"d" * 4: 1010,  # four digits in a row: numbers come in pieces of three or so
    b"d" * 8: 1450,
    b"p": 671,
    b"s": 96,
}
"""Units per occurrence in the class string (non-overlapping, as `bytes.count` counts)."""


def estimate_units(data: bytes) -> int:
    """Estimated cost of UTF-8 `data` in thousandths of a token. Never less for a longer text:
    every feature is a count that only grows when text is appended (line breaks less those
    right after another: half a run of them, rounded up, grows too)."""
    if not data:
        return 0
    classes = data.translate(_CLASSES)
    units = sum(weight * classes.count(feature) for feature, weight in COUNT_WEIGHTS.items())
    units += LINE_BREAK * (classes.count(b"n") - classes.count(b"nn"))
    for name, weight in RUN_WEIGHTS.items():
        runs = data.translate(_RUNS[name])
        # Each run starts at a `ba`, but one at the very start.
        units += weight * (runs.count(b"ba") + (runs[0] == 97))
    if not data.isascii():
        units += _expansion_units(data)
    return units


def _expansion_units(data: bytes) -> int:
    """What NFKC normalisation (which the tokenizer applies first) adds: `ﷺ` is 3 bytes and
    becomes 33. Only the text outside ASCII is normalised (a character lengthens alone), and
    nothing is for text already normalised, which the standard check answers fast."""
    import unicodedata  # only for text outside ASCII

    # ASCII bytes deleted: never part of a longer UTF-8 sequence, what is left stays whole.
    rest = data.translate(None, _ASCII).decode("utf-8", "replace")
    if unicodedata.is_normalized("NFKC", rest):
        return 0
    grown = len(unicodedata.normalize("NFKC", rest).encode("utf-8")) - len(rest.encode("utf-8"))
    return max(0, grown) * NON_ASCII_BYTE


def estimate_text_units(text: str) -> int:
    """`estimate_units` of `text` (names that were not UTF-8 count as their escaped bytes)."""
    if text.isascii():
        return estimate_units(text.encode("ascii"))
    return estimate_units(text.encode("utf-8", "surrogateescape"))


def estimated_tokens(text: str) -> int:
    """Estimated Claude tokens of `text`, rounded up."""
    return -(-estimate_text_units(text) // UNITS_PER_TOKEN)
