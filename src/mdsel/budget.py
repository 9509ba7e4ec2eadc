"""The answer budget: how much of an agent's tool-result room one answer may take by default.

Agents do not show a tool result of any size: Claude Code warns above 10,000 tokens and, above
25,000 (`MAX_MCP_OUTPUT_TOKENS`), saves the result to a file the model never sees; other clients
cut or refuse in the same range. So every answer, an index of a thousand documents included, is
sized to MDSEL_MAX_ANSWER_TOKENS (10,000) unless `--full` / `full=true` asks for everything.

Tokens are estimated from UTF-8 bytes, one token per 2.5 bytes. Measured with a Claude
tokenizer, index text takes 3.1-3.2 bytes a token in English and 2.5 over documents in Chinese
and Kannada, so the estimate stays at or above the real count for the documents we know of and
an English answer at the budget is about 8,000 real tokens. Standard library only, nothing
imported: the CLI's start-up pays for every module.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

BYTES_PER_TOKEN_TIMES_2 = 5
"""Bytes per estimated token, doubled (2.5 bytes) so the arithmetic stays in integers."""

RESERVE_BYTES = 512
"""Room kept for what follows a page or an outline (a trailer, a closing hint line)."""


def answer_bytes(tokens: int) -> int:
    """The UTF-8 bytes an answer of `tokens` estimated tokens may take."""
    return tokens * BYTES_PER_TOKEN_TIMES_2 // 2


def utf8_size(text: str) -> int:
    """Bytes of `text` in UTF-8 (names that were not UTF-8 count as their escaped bytes)."""
    if text.isascii():
        return len(text)
    return len(text.encode("utf-8", "surrogateescape"))


def lines_size(lines: Sequence[str]) -> int:
    """Bytes of `lines` in UTF-8, each with a line ending: one join and one count, where a
    count per line would cost a Python call for each of an outline's hundreds of lines."""
    return utf8_size("".join(lines)) + len(lines)


def estimated_tokens(size: int) -> int:
    """Estimated tokens of `size` bytes of UTF-8 (rounded up)."""
    return -(-size * 2 // BYTES_PER_TOKEN_TIMES_2)
