"""The hook's outline mode: a whole-file Read of a large Markdown file becomes its index.

Imported by the hook only once a PostToolUse Read has passed the word threshold in outline mode,
so the engine's import cost is paid on those Reads alone. The answer keeps the shape of Read's
own result (`FileReadOutput` in Claude Code's `sdk-tools.d.ts`): Claude Code rejects a
replacement of any other shape and keeps the original output.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

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


def _total_lines(response: object, path: str) -> int:
    """The file's line count as Read reported it, else counted as Read counts (split on LF)."""
    if isinstance(response, dict):
        file = response.get("file")
        if isinstance(file, dict):
            total = file.get("totalLines")
            if isinstance(total, int) and not isinstance(total, bool) and total >= 0:
                return total
    with open(path, "rb") as handle:
        return handle.read().count(b"\n") + 1


def _reported_path(response: object, path: str) -> str:
    if isinstance(response, dict):
        file = response.get("file")
        if isinstance(file, dict) and isinstance(file.get("filePath"), str):
            return str(file["filePath"])
    return path


def replaced_read(payload: dict[str, Any], path: str, reminder: str) -> dict[str, Any] | None:
    """Read's result with the document's text index and `reminder` as its content, or None
    when there is nothing to replace (a non-text result) or the engine refuses the file."""
    response = payload.get("tool_response")
    # Only text results are replaced; an image, notebook or PDF result is not a Markdown read.
    if isinstance(response, dict) and response.get("type", "text") != "text":
        return None
    options, max_bytes = _options(os.environ)
    outcome = mdsel.run_command("index", None, [path], options, max_bytes=max_bytes)
    if outcome.exit_code != 0 or not outcome.stdout:
        return None
    content = outcome.stdout if outcome.stdout.endswith("\n") else outcome.stdout + "\n"
    content += reminder
    return {
        "type": "text",
        "file": {
            "filePath": _reported_path(response, path),
            "content": content,
            "numLines": content.count("\n") + 1,
            "startLine": 1,
            "totalLines": _total_lines(response, path),
        },
    }
