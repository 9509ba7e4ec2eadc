"""The words of a search (`?q=…`) → a Query, or what to change in them.

Words are separated by spaces (`+` and `%20` were decoded with the selector); `"a phrase"` must
occur as written. Each word or phrase is one unit the ranking counts; a word is matched as the
index tokenizes it, so `dependency_overrides` and `--no-cache` are phrases of their parts, and
`CORSMiddleware` one word. Common English words are dropped from plain words (not from phrases):
they would match every section.
"""

from __future__ import annotations

import re

from mdsel._record import NamedTuple

MAX_UNITS = 32
"""Words and phrases one search may hold: more is no question, and it bounds the work."""

STOP_WORDS = frozenset(
    """a an and are as at be but by can do does for from has have how i if in into is it its me
    my of on or our so than that the their then there these this to use using vs was we what
    when where which who why will with you your""".split()  # noqa: SIM905 (a list to read)
)

BREAK_CHARACTER = "\ue000"
"""What the index puts between texts that are not one run of words (search_index.BREAK): a
private-use character, a token of its own to FTS5's unicode61, which a search never holds."""

_WORD = re.compile(r"[^\W_]")
"""A letter or digit: what the index's tokenizer keeps (`_` separates words there, as
punctuation does)."""


_POSSESSIVE = re.compile(r"(?<=[\w)\]])['\u2019]s$")
"""`Vite's`, `defineComponent()'s`: the name is the word; a possessive's `s` is no part of it
(the index would need `vite s` in a row)."""


class Query(NamedTuple):
    units: tuple[str, ...]
    """Each word or phrase, as written (lowercased), stop words left out."""
    phrases: tuple[bool, ...]
    """Whether each unit was a quoted phrase."""
    written: str
    """The query as given, spaces normalised (for messages and the next page's selector)."""


def parse_query(text: str) -> Query | str:
    """The Query of the words after `q=`, or the message saying what to change."""
    text = text.replace(BREAK_CHARACTER, " ")  # no search holds the index's break
    written = " ".join(text.split())
    if not written:
        return "empty search; put the words to look for after q=, e.g. ?q=cors middleware"
    units: list[str] = []
    phrases: list[bool] = []
    stopped: list[str] = []
    position = 0
    while position < len(text):
        char = text[position]
        if char.isspace():
            position += 1
            continue
        if char == '"':
            close = text.find('"', position + 1)
            if close < 0:
                return (
                    f"a phrase quote is left open at character {position + 1} of the search; "
                    'close it with " (or drop it to search the words alone)'
                )
            phrase = " ".join(text[position + 1 : close].split()).lower()
            if _WORD.search(phrase):
                units.append(phrase)
                phrases.append(True)
            position = close + 1
            continue
        end = position
        while end < len(text) and not text[end].isspace() and text[end] != '"':
            end += 1
        word = _POSSESSIVE.sub("", text[position:end].lower())
        position = end
        if not _WORD.search(word):
            continue  # punctuation alone is not searched
        if word in STOP_WORDS:
            stopped.append(word)
            continue
        if word not in units:
            units.append(word)
            phrases.append(False)
    if not units:
        if stopped:
            return (
                f"the search holds only common words ({', '.join(stopped[:5])}), which every "
                "section has; add a word that names the topic"
            )
        return (
            "the search holds no letter or digit to look for; punctuation is not searched: "
            "write the words, e.g. ?q=cors"
        )
    if len(units) > MAX_UNITS:
        return (
            f"the search holds {len(units)} words and phrases; at most {MAX_UNITS} are looked "
            "for: keep the few that name the topic"
        )
    return Query(tuple(units), tuple(phrases), written)


def fts_string(unit: str) -> str:
    """`unit` as an FTS5 string: the tokenizer makes it a phrase of its words."""
    return '"' + unit.replace('"', '""') + '"'
