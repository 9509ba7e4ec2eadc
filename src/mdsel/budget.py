"""The answer budget: how much of an agent's tool-result room one answer may take by default.

Agents do not show a tool result of any size: Claude Code warns above 10,000 tokens and, above
25,000 (`MAX_MCP_OUTPUT_TOKENS`), saves the result to a file the model never sees; other clients
cut or refuse in the same range. So every answer, an index of a thousand documents included, is
sized to MDSEL_MAX_ANSWER_TOKENS (10,000) unless `--full` / `full=true` asks for everything.

Sizes are the token estimate of mdsel.estimate in its fixed point (thousandths of a token), so
that a page of hashes or base64 is held to the same real count as a page of prose. Standard
library only, nothing imported: the CLI's start-up pays for every module.
"""

from __future__ import annotations

from mdsel.estimate import UNITS_PER_TOKEN, estimate_text_units, estimate_units

__all__ = [
    "JSON_RESERVE",
    "LINE_COST",
    "RESERVE",
    "UNITS_PER_TOKEN",
    "answer_room",
    "data_cost",
    "json_data_cost",
    "lines_cost",
    "page_room",
    "text_cost",
    "tokens_of",
    "utf8_size",
]

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

RESERVE = 200 * UNITS_PER_TOKEN
"""Room kept for what follows a page or an outline (a trailer, a closing hint line)."""

JSON_RESERVE = 400 * UNITS_PER_TOKEN
"""Room a JSON envelope takes around a page: its fields and a warning naming what it left out."""

LINE_COST = 20 * UNITS_PER_TOKEN
"""What an outline or a map line usually costs, to share the room among documents."""


def answer_room(tokens: int) -> int:
    """The cost an answer of `tokens` estimated tokens may take."""
    return tokens * UNITS_PER_TOKEN


def page_room(tokens: int, json: bool) -> int:
    """The cost one page of a match may take in an answer of `tokens` estimated tokens: JSON
    keeps room for its envelope (its pages are priced as escaped: `json_data_cost`)."""
    if not json:
        return answer_room(tokens) - RESERVE
    return answer_room(tokens) - RESERVE - JSON_RESERVE


def text_cost(text: str) -> int:
    """The estimated cost of `text`."""
    return estimate_text_units(text)


def data_cost(data: bytes) -> int:
    """The estimated cost of UTF-8 `data` (a document's bytes)."""
    return estimate_units(data)


def json_data_cost(data: bytes) -> int:
    """The estimated cost of UTF-8 `data` as a JSON answer holds it: a string, escaped (a line
    break is `\\n` there, two characters a tokenizer prices as more than the break)."""
    import json  # only for JSON answers

    text = data.decode("utf-8", "replace")
    return estimate_text_units(json.dumps(text, ensure_ascii=False)[1:-1])


def lines_cost(lines: Sequence[str]) -> int:
    """The cost of `lines`, each with a line ending: one join and one count, where a count per
    line would cost a Python call for each of an outline's hundreds of lines."""
    return estimate_text_units("\n".join(lines) + "\n") if lines else 0


def tokens_of(cost: int) -> int:
    """Estimated tokens of a cost (rounded up)."""
    return -(-cost // UNITS_PER_TOKEN)


def utf8_size(text: str) -> int:
    """Bytes of `text` in UTF-8 (names that were not UTF-8 count as their escaped bytes): what
    full=true's byte bound counts."""
    if text.isascii():
        return len(text)
    return len(text.encode("utf-8", "surrogateescape"))
