"""The MDSEL_* variables: one default and one reading rule each, for every program that reads them.

    MDSEL_PAGE_WORDS          words per page and per response          2000
    MDSEL_INDEX_MAX_HEADINGS  outline size before deep levels collapse 250
    MDSEL_MAX_FILES           files per call after expansion           2000
    MDSEL_MAX_BYTES           largest single file read                 8388608 (8 MiB)
    MDSEL_MAX_TOTAL_BYTES     bytes read per call                      33554432 (32 MiB)
    MDSEL_MAX_DEPTH           directory levels searched below a        64
                              directory or a glob's fixed part
    MDSEL_MAX_NAMES           names examined per call by directory     200000
                              and glob expansion
    MDSEL_MAX_BLOCKS          blocks and headings per document         4000000
    MDSEL_MAX_ANSWER_TOKENS   estimated tokens per answer (the answer  10000
                              budget, see mdsel.budget)
    MDSEL_MIN_WORDS           the hook's word threshold                200

A number is ASCII digits only, surrounding whitespace ignored: `int()` would also take `+5`,
`1_000` and non-ASCII digits, and the CLI and the server must accept exactly the same values. An
empty value means unset, which is how MCP and hook configurations usually spell it. The server
reads these through `read_settings` too and adds its own variables (see its config module).
Standard library only and cheap to import: the hook reads MDSEL_MIN_WORDS through this module.
"""

from __future__ import annotations

from mdsel._record import NamedTuple

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

DEFAULT_PAGE_WORDS = 2000
DEFAULT_MAX_HEADINGS = 250
DEFAULT_MAX_FILES = 2000
# What one call may read, so that its parse stays within seconds and its memory well within a
# gigabyte: 8 MiB is 24 times the largest Markdown file of the documentation measured (a 349 KB
# changelog), and 32 MiB of such files parse in about five seconds.
DEFAULT_MAX_BYTES = 8 * 1024 * 1024
DEFAULT_MAX_TOTAL_BYTES = 32 * 1024 * 1024
DEFAULT_MAX_DEPTH = 64
DEFAULT_MAX_NAMES = 200_000
DEFAULT_MIN_WORDS = 200
DEFAULT_MAX_ANSWER_TOKENS = 10_000
"""Claude Code warns above 10,000 tokens of tool result and hides results above 25,000."""
DEFAULT_MAX_BLOCKS = 4_000_000
"""Far above any real file (the largest we know of has tens of thousands of blocks), low enough
that a generated one is refused in seconds rather than indexed for a minute."""

MAX_DIGITS = 18
"""Longest number read as written: every value fits a 64-bit integer, and `int()` of a few
thousand digits is slow (past 4300 it is refused); a longer one is read as 10**18 - 1."""


class ConfigError(ValueError):
    """An MDSEL_* variable holds a value that cannot be used; the message names it."""

    def __init__(self, variable: str, value: str, reason: str) -> None:
        super().__init__(f"{variable}={value!r}: {reason}")
        self.variable = variable
        self.value = value
        self.reason = reason


class Settings(NamedTuple):
    """The engine's MDSEL_* settings, read and checked once by the program that starts."""

    page_words: int = DEFAULT_PAGE_WORDS
    """Words per page and per response (MDSEL_PAGE_WORDS)."""
    max_headings: int = DEFAULT_MAX_HEADINGS
    """Index outline size before deep levels collapse (MDSEL_INDEX_MAX_HEADINGS)."""
    max_files: int = DEFAULT_MAX_FILES
    """Files per call after expansion (MDSEL_MAX_FILES)."""
    max_bytes: int = DEFAULT_MAX_BYTES
    """Largest single file read, in bytes (MDSEL_MAX_BYTES)."""
    max_total_bytes: int = DEFAULT_MAX_TOTAL_BYTES
    """Bytes read per call (MDSEL_MAX_TOTAL_BYTES)."""
    max_blocks: int = DEFAULT_MAX_BLOCKS
    """Blocks and headings per document (MDSEL_MAX_BLOCKS); more is a PARSE_ERROR."""
    max_depth: int = DEFAULT_MAX_DEPTH
    """Directory levels searched below a directory or a glob's fixed part (MDSEL_MAX_DEPTH)."""
    max_names: int = DEFAULT_MAX_NAMES
    """Names examined per call by directory and glob expansion (MDSEL_MAX_NAMES)."""
    max_answer_tokens: int = DEFAULT_MAX_ANSWER_TOKENS
    """Estimated tokens one answer may take unless asked in full (MDSEL_MAX_ANSWER_TOKENS)."""


def raw_value(environ: Mapping[str, str], name: str) -> str | None:
    """The variable's value, or None when it is unset or empty (blank counts as empty)."""
    value = environ.get(name)
    if value is None or not value.strip():
        return None
    return value


def parse_count(text: str) -> int | None:
    """A whole number >= 0 written in ASCII digits (whitespace around it ignored), else None.
    One of more than MAX_DIGITS digits is read as the largest of MAX_DIGITS (more than any
    count or size here reaches), never converted digit by digit."""
    digits = text.strip()
    if not (digits.isascii() and digits.isdigit()):
        return None
    digits = digits.lstrip("0") or "0"
    return int(digits) if len(digits) <= MAX_DIGITS else 10**MAX_DIGITS - 1


def read_positive(environ: Mapping[str, str], name: str, default: int) -> int:
    """A whole number of at least 1 from `name`, `default` when unset; ConfigError otherwise."""
    value = raw_value(environ, name)
    if value is None:
        return default
    number = parse_count(value)
    if number is None or number < 1:
        raise ConfigError(
            name, value, f"expected a whole number of at least 1; unset it or use e.g. {default}"
        )
    return number


def read_settings(environ: Mapping[str, str]) -> Settings:
    """Read and check the engine's variables; ConfigError on the first bad one."""
    return Settings(
        page_words=read_positive(environ, "MDSEL_PAGE_WORDS", DEFAULT_PAGE_WORDS),
        max_headings=read_positive(environ, "MDSEL_INDEX_MAX_HEADINGS", DEFAULT_MAX_HEADINGS),
        max_files=read_positive(environ, "MDSEL_MAX_FILES", DEFAULT_MAX_FILES),
        max_bytes=read_positive(environ, "MDSEL_MAX_BYTES", DEFAULT_MAX_BYTES),
        max_total_bytes=read_positive(environ, "MDSEL_MAX_TOTAL_BYTES", DEFAULT_MAX_TOTAL_BYTES),
        max_blocks=read_positive(environ, "MDSEL_MAX_BLOCKS", DEFAULT_MAX_BLOCKS),
        max_depth=read_positive(environ, "MDSEL_MAX_DEPTH", DEFAULT_MAX_DEPTH),
        max_names=read_positive(environ, "MDSEL_MAX_NAMES", DEFAULT_MAX_NAMES),
        max_answer_tokens=read_positive(
            environ, "MDSEL_MAX_ANSWER_TOKENS", DEFAULT_MAX_ANSWER_TOKENS
        ),
    )


def read_min_words(environ: Mapping[str, str]) -> int:
    """MDSEL_MIN_WORDS, the hook's threshold (0 allowed); ConfigError for a bad value.

    The hook itself never fails on a bad value: it notes it and falls back (see its module).
    """
    value = raw_value(environ, "MDSEL_MIN_WORDS")
    if value is None:
        return DEFAULT_MIN_WORDS
    number = parse_count(value)
    if number is None:
        raise ConfigError("MDSEL_MIN_WORDS", value, "expected a whole number (0 or more)")
    return number
