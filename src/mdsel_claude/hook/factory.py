"""Factory Droid's payloads: a `PostToolUse` hook on `Read`, in Claude Code's shape.

Droid (0.225) sends what Claude Code sends — `{session_id, cwd, hook_event_name, tool_name,
tool_input, tool_response, …}`, its file tool named `Read` with `tool_input.file_path` and
`offset`/`limit` for a slice — so the file is found by `claude`'s own reading of it. What
differs is the answer: Droid passes `hookSpecificOutput.additionalContext` to the model only
from `PostToolUse` (as a message after the result; `PreToolUse` context is dropped, so that
event gets silence), and takes no replacement of the result, so outline mode adds the index
(see `context`). Its shell tool (`Execute`) is not looked at: Droid's own instructions tell the
model to read files with `Read`, never through the shell.
"""

from __future__ import annotations

from mdsel_claude.hook.claude import is_partial_read, read_path
from mdsel_claude.hook.context import added
from mdsel_claude.hook.files import large_markdown

EVENT = "PostToolUse"
"""The only event whose context reaches the model."""


def answer(payload: object, threshold: int, mode: str) -> str | None:
    """The hook's stdout for one payload: the reminder (with the index in outline mode) when
    `Read` read a Markdown file of more than `threshold` words, else None."""
    if not isinstance(payload, dict) or payload.get("hook_event_name") != EVENT:
        return None
    path = read_path(payload)
    if path is None or not large_markdown(path, threshold):
        return None
    return added(EVENT, path, not is_partial_read(payload), mode)
