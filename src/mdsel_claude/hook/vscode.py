"""VS Code's payloads: its agent's `read_file` of a Markdown file, sent to Claude Code's hook.

VS Code (agent mode) loads the hooks of `.claude/settings.json`, `.claude/settings.local.json`
and `~/.claude/settings.json` by default and ignores their matchers, so the hook install writes
for Claude Code runs there at PreToolUse and PostToolUse on every tool call, with VS Code's own
tool names and arguments. Its payload is `{timestamp, hook_event_name, session_id?,
transcript_path?, cwd?, tool_name, tool_input, tool_use_id, tool_response?}` (Claude Code's
snake_case keys, though VS Code's documentation writes the event as `hookEventName`;
`tool_response` a string); its file read is `read_file` (referenced as
`readFile` in chat), whose `tool_input` is `{filePath, offset?, limit?}`, or `{filePath,
startLine, endLine}` in its first form. `claude` hands such a read here (see its `VSCODE_TOOLS`);
every other tool call is answered with silence before this module is imported.

The answer is `hookSpecificOutput.additionalContext`, which VS Code appends to the tool's
result at either event. No answer can take the result's place (a PostToolUse `decision:
"block"` only adds its reason after the result), so outline mode adds the document's index to
the reminder after a whole-file read instead of replacing the file.
"""

from __future__ import annotations

import json

from mdsel_claude.hook.files import REMINDER, absolute_path, large_markdown, line_count

EVENTS = frozenset({"PreToolUse", "PostToolUse"})
"""The events VS Code runs a Claude Code hook for a tool at (it has no PostToolUseFailure)."""

OUTLINE_EVENT = "PostToolUse"
"""The event at which outline mode adds the index: the read has run, and was whole."""

FILE_SCHEME = "file://"


def read_path(tool_input: dict[str, object], cwd: object) -> str | None:
    """The file a `read_file` call names, as an absolute path (a `file://` URI, which the tool
    also takes, as its path), or None if it names none."""
    raw = tool_input.get("filePath")
    if isinstance(raw, str) and raw.startswith(FILE_SCHEME):
        from urllib.parse import unquote, urlsplit

        parts = urlsplit(raw)
        # Only a local file: a URI naming another host is not a path on this machine.
        raw = unquote(parts.path) if parts.netloc in ("", "localhost") else None
    return absolute_path(raw, cwd, lexical=True)


def is_whole_read(tool_input: dict[str, object], path: str) -> bool:
    """True when the read shows the whole file: no `offset`/`limit`, or a first-form range that
    starts at line 1 and reaches the file's last line (the tool clamps it to the file)."""
    if tool_input.get("offset") is not None or tool_input.get("limit") is not None:
        return False
    start, end = tool_input.get("startLine"), tool_input.get("endLine")
    if start is None and end is None:
        return True
    first, last = _number(start), _number(end)
    if first is None or last is None:
        return False
    lines = line_count(path)
    return lines is not None and min(first, last) <= 1 and max(first, last) >= lines


def _number(value: object) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return value


def _context(event: str, text: str) -> str:
    output = {"hookSpecificOutput": {"hookEventName": event, "additionalContext": text}}
    return json.dumps(output) + "\n"


def answer(payload: dict[str, object], threshold: int, mode: str) -> str | None:
    """The hook's stdout for a VS Code `read_file` payload: the reminder, in outline mode after
    a whole-file read the index and the reminder, or None.

    Outline mode leaves a read of some lines alone (a deliberate choice of lines), as it does
    in Claude Code; before the read (PreToolUse) it reminds, as every mode does there.
    """
    # What VS Code sends is `hook_event_name`; its documentation writes `hookEventName`.
    event = payload.get("hook_event_name", payload.get("hookEventName"))
    tool_input = payload.get("tool_input")
    if not isinstance(event, str) or event not in EVENTS or not isinstance(tool_input, dict):
        return None
    path = read_path(tool_input, payload.get("cwd"))
    if path is None or not large_markdown(path, threshold):
        return None
    if mode != "outline" or event != OUTLINE_EVENT:
        return _context(event, REMINDER)
    if not is_whole_read(tool_input, path):
        return None
    from mdsel_claude.hook.outline import index_text

    index = index_text(path)
    return _context(event, REMINDER if index is None else f"{index}{REMINDER}")
