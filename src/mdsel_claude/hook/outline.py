"""Outline mode: the document's index, to stand in for a whole-file read of a large Markdown file.

Imported by a client's hook only once a read has passed the word threshold in outline mode, so
the engine's import cost is paid on those reads alone. Each client wraps the text in its own
result shape (see `claude`, and the other clients' modules).
"""

from __future__ import annotations

import os
from collections.abc import Mapping

import mdsel
from mdsel import Options
from mdsel.settings import ConfigError, Settings, read_settings


def _options(environ: Mapping[str, str]) -> tuple[Options, int]:
    """Outline size and byte limit from the engine's MDSEL_* variables, as the CLI and server
    read them; text always (the model reads it in place of the file). A bad value falls back to
    the defaults: the hook must answer, and the reminder path reports nothing either."""
    try:
        settings = read_settings(environ)
    except ConfigError:
        settings = Settings()
    options = Options(
        page_words=settings.page_words,
        max_headings=settings.max_headings,
        answer_tokens=settings.max_answer_tokens,
    )
    return options, settings.max_bytes


def index_text(path: str) -> str | None:
    """The text index of the document at `path`, ending in a newline, or None when it cannot be
    made: the engine refuses the file (too large, not UTF-8, gone) or fails in any way — the
    outline is a bonus, and the caller then gives the reminder."""
    try:
        options, max_bytes = _options(os.environ)
        outcome = mdsel.run_command("index", None, [path], options, max_bytes=max_bytes)
    except Exception:
        return None
    if outcome.exit_code != 0 or not outcome.stdout:
        return None
    return outcome.stdout if outcome.stdout.endswith("\n") else outcome.stdout + "\n"
