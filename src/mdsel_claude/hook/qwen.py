"""Qwen Code's payloads: a `PostToolUse` hook on `read_file`.

Qwen Code (0.24) sends `{session_id, cwd, hook_event_name, tool_name, tool_input,
tool_response, …}` with the tool's own name: `read_file`, whose `tool_input.file_path` is
absolute (the tool resolves any other against the folder Qwen Code runs in) and whose slice
arguments are `offset`/`limit` (lines) and `pages` (a PDF's). It runs `PostToolUse` only for a
read that succeeded, and appends the answer's `hookSpecificOutput.additionalContext` to the
result the model sees; the same context from `PreToolUse` is dropped, so that event is
answered with silence. No hook can replace the result: outline mode adds the index (see
`context`).
"""

from __future__ import annotations

from mdsel_claude.hook.context import added
from mdsel_claude.hook.files import absolute_path, large_markdown

EVENT = "PostToolUse"
"""The only event whose context reaches the model."""

TOOL = "read_file"

SLICE_KEYS = ("offset", "limit", "pages")
"""`read_file` arguments that ask for part of the file only."""


def answer(payload: object, threshold: int, mode: str) -> str | None:
    """The hook's stdout for one payload: the reminder (with the index in outline mode) when
    `read_file` read a Markdown file of more than `threshold` words, else None."""
    if not isinstance(payload, dict) or payload.get("hook_event_name") != EVENT:
        return None
    tool_input = payload.get("tool_input")
    if payload.get("tool_name") != TOOL or not isinstance(tool_input, dict):
        return None
    path = absolute_path(tool_input.get("file_path"), payload.get("cwd"), lexical=True)
    if path is None or not large_markdown(path, threshold):
        return None
    whole = all(tool_input.get(key) is None for key in SLICE_KEYS)
    return added(EVENT, path, whole, mode)
