"""MDSEL_* environment of the MCP server → one frozen Settings; a bad value names its variable."""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Mapping
from dataclasses import dataclass

DEFAULT_PAGE_WORDS = 2000
DEFAULT_MAX_HEADINGS = 250
DEFAULT_MAX_FILES = 500
DEFAULT_MAX_BYTES = 50 * 1024 * 1024
DEFAULT_MAX_TOTAL_BYTES = 100 * 1024 * 1024
DEFAULT_CACHE_BYTES = 256 * 1024 * 1024
"""Parsed documents kept by the server, counted in source bytes (SPEC §5)."""

_DIGITS = re.compile(r"[0-9]+")


class ConfigError(ValueError):
    """A MDSEL_* variable holds a value the server cannot run with."""

    def __init__(self, variable: str, value: str, reason: str) -> None:
        super().__init__(f"{variable}={value!r}: {reason}")
        self.variable = variable
        self.value = value
        self.reason = reason


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything the server reads from its environment, checked once at start."""

    json: bool = False
    """MDSEL_FORMAT=json: relay the JSON envelope instead of text."""
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
    roots: tuple[str, ...] | None = None
    """Resolved directories reads are confined to (MDSEL_ROOTS); None means anywhere."""
    bin: str | None = None
    """Absolute path of an external `mdsel` executable (MDSEL_BIN); None means embedded."""
    cache_bytes: int = DEFAULT_CACHE_BYTES
    """Budget of the parse cache in source bytes; 0 turns it off."""


def _raw(environ: Mapping[str, str], name: str) -> str | None:
    # An empty value is how MCP client configs usually spell "unset", so treat it as such.
    value = environ.get(name)
    if value is None or not value.strip():
        return None
    return value


def _positive_int(environ: Mapping[str, str], name: str, default: int) -> int:
    value = _raw(environ, name)
    if value is None:
        return default
    text = value.strip()
    # int() would also take "+5", "1_000" and non-ASCII digits; accept plain decimals only.
    if not _DIGITS.fullmatch(text) or int(text) < 1:
        raise ConfigError(name, value, "expected a positive whole number")
    return int(text)


def _format(environ: Mapping[str, str]) -> bool:
    value = _raw(environ, "MDSEL_FORMAT")
    if value is None:
        return False
    text = value.strip().lower()
    if text not in ("text", "json"):
        raise ConfigError("MDSEL_FORMAT", value, "expected 'text' or 'json'")
    return text == "json"


def _roots(environ: Mapping[str, str], cwd: str) -> tuple[str, ...] | None:
    value = _raw(environ, "MDSEL_ROOTS")
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
    value = _raw(environ, "MDSEL_BIN")
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
    return Settings(
        json=_format(env),
        page_words=_positive_int(env, "MDSEL_PAGE_WORDS", DEFAULT_PAGE_WORDS),
        max_headings=_positive_int(env, "MDSEL_INDEX_MAX_HEADINGS", DEFAULT_MAX_HEADINGS),
        max_files=_positive_int(env, "MDSEL_MAX_FILES", DEFAULT_MAX_FILES),
        max_bytes=_positive_int(env, "MDSEL_MAX_BYTES", DEFAULT_MAX_BYTES),
        max_total_bytes=_positive_int(env, "MDSEL_MAX_TOTAL_BYTES", DEFAULT_MAX_TOTAL_BYTES),
        roots=_roots(env, here),
        bin=_bin(env, here),
    )
