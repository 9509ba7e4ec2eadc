"""MDSEL_* environment of the MCP server → one frozen Settings; a bad value names its variable.

The engine's variables are read by `mdsel.settings.read_settings`, with the same defaults and
rules as the CLI, and kept whole as `Settings.engine`; this module adds the server's own:
MDSEL_FORMAT, MDSEL_ROOTS, MDSEL_BIN, the cache budget and the caps on requests and answers.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Mapping
from dataclasses import dataclass, field

from mdsel.settings import ConfigError, raw_value, read_positive, read_settings
from mdsel.settings import Settings as EngineSettings

__all__ = [
    "DEFAULT_CACHE_BYTES",
    "DEFAULT_SEARCH_CACHE_BYTES",
    "ConfigError",
    "EngineSettings",
    "Settings",
    "load_settings",
]

DEFAULT_CACHE_BYTES = 576 * 1024 * 1024
"""Parsed documents kept by the server, counted as the memory their trees take (their bytes,
word mask, columns and line table). It holds what one call reads at the default caps of one-line
headings (32 MiB: 541 MiB of trees), so such a call, answered while still reading, is answered
whole when asked again (see read_budget). With the search indexes (at most
DEFAULT_SEARCH_CACHE_BYTES) the server stays under 1 GB resident."""
DEFAULT_SEARCH_CACHE_BYTES = 240 * 1024 * 1024
"""Search indexes kept: their tables take about half what their documents do (docs/server.md),
so this holds those of 480 MiB of documents."""
DEFAULT_MAX_ENTRIES = 100
DEFAULT_MAX_ENTRY_CHARS = 1024
DEFAULT_MAX_GLOB_SEGMENTS = 32
DEFAULT_MAX_PROBLEMS = 50
DEFAULT_MAX_ANSWER_CHARS = 100_000
"""Where Claude Code stops showing a tool result (25,000 tokens) and saves it to a file instead:
answers within MDSEL_MAX_ANSWER_TOKENS never come near it; only `full=true` ones can."""
DEFAULT_MAX_RESULT_TOKENS = 25_000
"""Estimated tokens in one tool result, `full=true` ones included: Claude Code saves a result
over 25,000 tokens (MAX_MCP_OUTPUT_TOKENS) to a file and shows the model a notice instead."""
DEFAULT_MAX_REQUEST_BYTES = 1024 * 1024
DEFAULT_MAX_READ_MS = 2000
"""Time a call may spend before its files are read and parsed (see read_budget): with the
slowest selection measured in parsed documents (about 2 s), a call answers within 5 s."""


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything the server reads from its environment, checked once at start."""

    engine: EngineSettings = field(default_factory=EngineSettings)
    """The variables the server shares with the `mdsel` CLI, read by `mdsel.settings` (page
    words, outline size, file and byte caps, walk limits, block limit, answer tokens): a new
    one is added there, once, and reaches both."""
    json: bool = False
    """MDSEL_FORMAT=json: relay the JSON envelope instead of text."""
    roots: tuple[str, ...] | None = None
    """Resolved directories reads are confined to (MDSEL_ROOTS); None means anywhere."""
    bin: str | None = None
    """Absolute path of an external `mdsel` executable (MDSEL_BIN); None means embedded."""
    cache_bytes: int = DEFAULT_CACHE_BYTES
    """Budget of the parse cache in bytes of parsed documents kept; 0 turns it off."""
    max_entries: int = DEFAULT_MAX_ENTRIES
    """Entries in one call's `files` argument (MDSEL_MAX_ENTRIES)."""
    max_entry_chars: int = DEFAULT_MAX_ENTRY_CHARS
    """Characters in one `files` entry (MDSEL_MAX_ENTRY_CHARS)."""
    max_glob_segments: int = DEFAULT_MAX_GLOB_SEGMENTS
    """Path segments in one glob pattern (MDSEL_MAX_GLOB_SEGMENTS)."""
    max_problems: int = DEFAULT_MAX_PROBLEMS
    """Problem lines in one answer before "… N more" (MDSEL_MAX_PROBLEMS)."""
    max_answer_chars: int = DEFAULT_MAX_ANSWER_CHARS
    """Characters in one answer's text (MDSEL_MAX_ANSWER_CHARS)."""
    max_result_tokens: int = DEFAULT_MAX_RESULT_TOKENS
    """Estimated tokens in one answer, `full=true` included (MDSEL_MAX_RESULT_TOKENS)."""
    max_request_bytes: int = DEFAULT_MAX_REQUEST_BYTES
    """Bytes in one JSON-RPC message read from stdin (MDSEL_MAX_REQUEST_BYTES)."""
    max_read_ms: int = DEFAULT_MAX_READ_MS
    """Milliseconds a call may take before its files are read and parsed; then it answers that
    it is still reading, and the reading goes on (MDSEL_MAX_READ_MS)."""

    @property
    def result_tokens(self) -> int:
        """The tokens an answer is cut at: MDSEL_MAX_RESULT_TOKENS, or MDSEL_MAX_ANSWER_TOKENS
        where that is larger (an answer within its budget is never cut)."""
        return max(self.max_result_tokens, self.engine.max_answer_tokens)

    @property
    def read_seconds(self) -> float | None:
        """The time for reading in seconds; None where nothing read on would be kept (MDSEL_BIN,
        or no parse cache), so a call asked again could never be answered sooner."""
        if self.bin is not None or self.cache_bytes == 0:
            return None
        return self.max_read_ms / 1000


def _format(environ: Mapping[str, str]) -> bool:
    value = raw_value(environ, "MDSEL_FORMAT")
    if value is None:
        return False
    text = value.strip().lower()
    if text not in ("text", "json"):
        raise ConfigError("MDSEL_FORMAT", value, "expected 'text' or 'json'")
    return text == "json"


def _roots(environ: Mapping[str, str], cwd: str) -> tuple[str, ...] | None:
    value = raw_value(environ, "MDSEL_ROOTS")
    if value is None:
        return None
    roots: list[str] = []
    for entry in value.split(os.pathsep):
        if not entry.strip():
            continue
        resolved = os.path.realpath(os.path.join(cwd, os.path.expanduser(entry)))
        # A root that does not exist would silently refuse everything; say so at start instead.
        if not os.path.isdir(resolved):
            raise ConfigError("MDSEL_ROOTS", value, f"{entry!r} is not an existing directory")
        if resolved not in roots:
            roots.append(resolved)
    if not roots:
        raise ConfigError("MDSEL_ROOTS", value, "no directory given")
    return tuple(roots)


def _bin(environ: Mapping[str, str], cwd: str) -> str | None:
    value = raw_value(environ, "MDSEL_BIN")
    if value is None:
        return None
    text = os.path.expanduser(value.strip())
    if os.sep in text or (os.altsep is not None and os.altsep in text):
        path = os.path.join(cwd, text)
        candidate = path if os.path.isfile(path) and os.access(path, os.X_OK) else None
    else:
        candidate = shutil.which(text, path=environ.get("PATH"))
    if candidate is None:
        raise ConfigError("MDSEL_BIN", value, "not an executable file (nor a command on PATH)")
    # Absolute, so a later change of working directory cannot change which program runs.
    return os.path.abspath(candidate)


def load_settings(environ: Mapping[str, str] | None = None, cwd: str | None = None) -> Settings:
    """Read and check the MDSEL_* variables the server uses; ConfigError on the first bad one."""
    env = os.environ if environ is None else environ
    here = os.getcwd() if cwd is None else cwd
    json = _format(env)
    return Settings(
        engine=read_settings(env),
        json=json,
        roots=_roots(env, here),
        bin=_bin(env, here),
        max_entries=read_positive(env, "MDSEL_MAX_ENTRIES", DEFAULT_MAX_ENTRIES),
        max_entry_chars=read_positive(env, "MDSEL_MAX_ENTRY_CHARS", DEFAULT_MAX_ENTRY_CHARS),
        max_glob_segments=read_positive(env, "MDSEL_MAX_GLOB_SEGMENTS", DEFAULT_MAX_GLOB_SEGMENTS),
        max_problems=read_positive(env, "MDSEL_MAX_PROBLEMS", DEFAULT_MAX_PROBLEMS),
        max_answer_chars=read_positive(env, "MDSEL_MAX_ANSWER_CHARS", DEFAULT_MAX_ANSWER_CHARS),
        max_result_tokens=read_positive(env, "MDSEL_MAX_RESULT_TOKENS", DEFAULT_MAX_RESULT_TOKENS),
        max_request_bytes=read_positive(env, "MDSEL_MAX_REQUEST_BYTES", DEFAULT_MAX_REQUEST_BYTES),
        max_read_ms=read_positive(env, "MDSEL_MAX_READ_MS", DEFAULT_MAX_READ_MS),
    )
