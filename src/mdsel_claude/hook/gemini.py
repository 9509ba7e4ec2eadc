"""Gemini CLI's payloads: an `AfterTool` hook on `read_file` (and `read_many_files`).

Gemini CLI sends `{hook_event_name, tool_name, tool_input, tool_response, cwd}`. `read_file`
names its file in `tool_input.file_path` (relative to the workspace, or absolute; a read of some
lines only has `start_line`/`end_line`); `tool_response` is `{llmContent, returnDisplay, error?}`.
Only `AfterTool` can add to what the model sees: the CLI appends
`hookSpecificOutput.additionalContext` to the tool's result (inside `<hook_context>` tags), and
`decision: "deny"` puts `reason` in place of the result (sent to the model as the call's
`error`). `BeforeTool` has neither (its context is ignored), so it is answered with silence.

`read_many_files` reports each file it read as a `--- /absolute/path ---` part of its
`llmContent` list; any large Markdown file among them gets the reminder, never an outline (the
result holds other files too). Gemini CLI 0.61 offers the model no such tool and reads `@path`
mentions without running hooks, so this case is ready for versions that do.
"""

from __future__ import annotations

import json
import os

from mdsel_claude.hook.files import REMINDER, absolute_path, large_markdown

EVENT = "AfterTool"
"""The only event whose answer reaches the model (see the module docstring)."""

SLICE_KEYS = ("start_line", "end_line", "offset", "limit")
"""`read_file` arguments that ask for some lines only (`offset`/`limit` in older versions)."""

MAX_PARTS = 1000
"""`read_many_files` parts looked at: the rest of a huge result is not searched for paths."""

_SEPARATOR = ("--- ", " ---")
"""How `read_many_files` opens each file's part: `--- {filePath} ---`, then a blank line."""


def read_file_path(tool_input: dict[str, object], cwd: object) -> str | None:
    """The file a `read_file` call read, as an absolute path, or None if it names none.

    Like the CLI, a path that does not exist as written is tried without a leading `@` (a model
    copying the user's `@docs/guide.md`); a read that failed is ruled out by the caller.
    """
    path = absolute_path(tool_input.get("file_path"), cwd, lexical=True)
    raw = tool_input.get("file_path")
    if path is not None and not os.path.lexists(path) and isinstance(raw, str):
        stripped = raw[1:].lstrip("/\\") if raw.startswith("@") else ""
        if stripped:
            path = absolute_path(stripped, cwd, lexical=True)
    return None if path is None else _uri_decoded(path)


def _uri_decoded(path: str) -> str:
    """`path` as the CLI opens it: it passes the resolved path through `decodeURIComponent`
    (`my%20guide.md`, as a Markdown link writes it, is `my guide.md`), and keeps it as it is
    when that throws (a `%` not followed by two hex digits, or bytes that are not UTF-8)."""
    if "%" not in path:
        return path
    import re
    from urllib.parse import unquote_to_bytes

    if re.search(r"%(?![0-9A-Fa-f]{2})", path):
        return path
    try:
        return unquote_to_bytes(path).decode("utf-8")
    except UnicodeDecodeError:
        return path


def many_files_paths(response: dict[str, object]) -> list[str]:
    """The absolute paths `read_many_files` says it read, from its `llmContent` parts."""
    parts = response.get("llmContent")
    if not isinstance(parts, list):
        return []
    found: list[str] = []
    for part in parts[:MAX_PARTS]:
        if not isinstance(part, str):
            continue
        head, _, _ = part.partition("\n")
        opening, closing = _SEPARATOR
        if head.startswith(opening) and head.endswith(closing):
            named = head[len(opening) : -len(closing)]
            # The CLI writes absolute paths; anything else is not one of its separators.
            path = absolute_path(named, None) if os.path.isabs(named) else None
            if path is not None:
                found.append(path)
    return found


def _reminder() -> str:
    output = {"hookSpecificOutput": {"hookEventName": EVENT, "additionalContext": REMINDER}}
    return json.dumps(output) + "\n"


def _outline(path: str) -> str | None:
    """The denial that puts the document's index and the reminder in place of the read, or None
    when the engine refuses the file (the reminder is given instead)."""
    from mdsel_claude.hook.outline import index_text

    index = index_text(path)
    if index is None:
        return None
    return json.dumps({"decision": "deny", "reason": f"{index}{REMINDER}"}) + "\n"


def answer(payload: object, threshold: int, mode: str) -> str | None:
    """The hook's stdout for one payload: the reminder, the index in place of the read, or None.

    Outline mode replaces only a whole-file `read_file`, and leaves a read of some lines alone
    (a deliberate choice of lines). A read that failed (`tool_response.error`) showed the
    model no file, so it gets nothing.
    """
    if not isinstance(payload, dict) or payload.get("hook_event_name") != EVENT:
        return None
    tool_input = payload.get("tool_input")
    response = payload.get("tool_response")
    if not isinstance(tool_input, dict) or not isinstance(response, dict):
        return None
    if response.get("error") is not None:
        return None
    tool = payload.get("tool_name")
    if tool == "read_many_files":
        paths = many_files_paths(response)
        return _reminder() if any(large_markdown(p, threshold) for p in paths) else None
    if tool != "read_file":
        return None
    path = read_file_path(tool_input, payload.get("cwd"))
    if path is None or not large_markdown(path, threshold):
        return None
    if mode == "outline":
        if any(tool_input.get(key) is not None for key in SLICE_KEYS):
            return None
        replaced = _outline(path)
        if replaced is not None:
            return replaced
    return _reminder()
