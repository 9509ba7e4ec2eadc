"""The token estimate: how many Claude tokens a text takes, counted by character class in C.

A Claude tokenizer splits text at class changes (a run of letters, of digits, of punctuation,
of spaces) and then into pieces of known words. So a text costs about one token per run, more
for runs it cannot know: a word it does not hold whole (another language's, a made-up one),
mixed case inside a word (base64, hashes in upper case), long runs of letters or digits,
punctuation next to digits (`1.2.3`), and every byte outside ASCII (a byte is never worse than
one token). Each feature gets a weight, fitted by linear programming (scripts/fit-estimate.py)
against the tokenizer the tests use (tests/mdsel/test_estimate.py) so that the estimate is at
or above the real count on prose in English and eleven other languages, code, tables, hex,
base64, numbers, URLs, CJK, emoji, made-up words and runs of any one character, and at most
1.5 times it on English prose.

Which words are known is the list in known_words.txt (scripts/known-words.py), read once. A
word is priced when it ends (a byte that is not a lower-case letter follows), so a longer text
never costs less: the last word of a text without a final line break is counted as a known
one. One pass of `bytes.translate` per class family, a count per feature and one regular
expression over the words, all in C: the estimate runs over every answer and every page a
select cuts. Standard library only.
"""

from __future__ import annotations

import os
import re
from functools import cache
from itertools import filterfalse

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

RUN_WEIGHTS = {"letters": 1082, "digits": 1091, "punctuation": 960}
"""Units per run of a class: a word, a number, a run of punctuation."""

LINE_BREAK = 76
"""Units per line break; a blank line's is free (a run of them is about one token)."""

COUNT_WEIGHTS = {
    b"x": NON_ASCII_BYTE,
    b"lu": 1061,  # a case change inside a run of letters (camelCase, base64)
    b"l" * 16: 8523,  # sixteen lower-case letters in a row: no word, a string of letters
    b"u" * 8: 8260,  # eight capitals in a row
    b"d" * 4: 1650,  # four digits in a row: numbers come in pieces of three or so
    b"d" * 8: 185,
    b"p": 515,
    b"s": 12,
}
"""Units per occurrence in the class string (non-overlapping, as `bytes.count` counts)."""

UNKNOWN_WORD = 2907
"""Units per word of three letters or more that is not in known_words.txt: the pieces a
tokenizer cuts it into (its length adds nothing the runs do not: the fit gave it no weight)."""

_WORD = re.compile(rb"(?:(?<![a-z])[a-z]|[A-Z])[a-z]{2,}+(?=[^a-z])")
"""A word the list can hold: a letter, then two lower-case ones or more (`The`, `parse` in
`parseArgs`), priced only once something other than a lower-case letter follows it. Tried only
where a run of lower-case letters starts, and without backtracking into it: a run of megabytes
is scanned once, not once per letter."""


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
    units += _unknown_word_units(data)
    if not data.isascii():
        units += _expansion_units(data)
    return units


@cache
def _known_words() -> frozenset[bytes]:
    """The words a tokenizer holds whole (known_words.txt, one a line after its `#` header)."""
    with open(os.path.join(os.path.dirname(__file__), "known_words.txt"), "rb") as listed:
        text = listed.read()
    return frozenset(word for word in text.split(b"\n") if word and not word.startswith(b"#"))


def _unknown_word_units(data: bytes) -> int:
    """What the words outside the list add."""
    words = _WORD.findall(data)
    if not words:
        return 0
    lowered = b" ".join(words).lower().split()
    return UNKNOWN_WORD * sum(1 for _ in filterfalse(_known_words().__contains__, lowered))


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
