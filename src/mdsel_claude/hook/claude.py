"""Claude Code's payloads: a `Read` of a file or a `Bash` command that prints one.

Claude Code sends `{hook_event_name, tool_name, tool_input, tool_response?, cwd}`. A `Read` names
its file in `tool_input.file_path` (a slice with `offset`/`limit`); a `Bash` command line is in
`tool_input.command`, and `shell` says which Markdown files it prints a large part of. The answer
is `hookSpecificOutput.additionalContext` (the reminder) or, in outline mode at PostToolUse,
`hookSpecificOutput.updatedToolOutput` (the tool's own result shape, with the index in place of
the file: Claude Code rejects a replacement of any other shape and keeps the original output).

A `Read` too large to return fails instead (over 256 KB, or 25,000 tokens): no result exists to
replace, and PostToolUse does not run. PostToolUseFailure does, with the failure's text in
`error`; its `additionalContext` reaches the model beside the error, so a size failure on a
large Markdown file gets the reminder there, and in outline mode the index with it.

VS Code runs this hook too, on every tool call (see `vscode`): its `read_file` is handed there.
"""

from __future__ import annotations

import json
import os

from mdsel_claude.hook.files import MAX_BYTES, REMINDER, absolute_path, large_markdown, open_regular

EVENTS = frozenset({"PreToolUse", "PostToolUse", "PostToolUseFailure"})
"""Hook events the reminder is given for; any other event is answered with silence."""

REPLACING_EVENT = "PostToolUse"
"""The only event at which a tool's result exists and can be replaced (outline mode)."""

FAILURE_EVENT = "PostToolUseFailure"
"""The event of a tool call that failed: only a Read that was too large is answered there."""

SIZE_FAILURES = (
    "exceeds maximum allowed size",
    "exceeds maximum allowed tokens",
    "The requested line range contains over",
)
"""How Claude Code's Read says a file (or the lines asked for) is too large to return: `File
content (295.9KB) exceeds maximum allowed size (256KB). …`, the same for tokens, and a slice's
`The requested line range contains over …`. Any other failure (a missing file, a read the user
refused) is answered with silence: it showed the model nothing of the file, and was not meant to."""

VSCODE_TOOLS = frozenset({"read_file", "readFile"})
"""VS Code's read tool, as it names it in a payload (`read_file`, the model's name for it) and
in chat (`readFile`): handed to `vscode`, which is imported for such a read only."""


def read_path(payload: dict[str, object]) -> str | None:
    """The file a `Read` payload is about, as an absolute path, or None if it is not one."""
    tool_input = payload.get("tool_input")
    if payload.get("tool_name") != "Read" or not isinstance(tool_input, dict):
        return None
    return absolute_path(tool_input.get("file_path"), payload.get("cwd"), lexical=True)


def is_partial_read(payload: dict[str, object]) -> bool:
    """True when the Read asked for a slice (`offset` or `limit`): a deliberate choice of lines."""
    tool_input = payload.get("tool_input")
    if not isinstance(tool_input, dict):
        return False
    return tool_input.get("offset") is not None or tool_input.get("limit") is not None


def _reminder(event: str, text: str = REMINDER) -> str:
    output = {"hookSpecificOutput": {"hookEventName": event, "additionalContext": text}}
    return json.dumps(output) + "\n"


def _bash_prints_large_markdown(payload: dict[str, object], threshold: int) -> bool:
    tool_input = payload.get("tool_input")
    command = tool_input.get("command") if isinstance(tool_input, dict) else None
    from mdsel_claude.hook.shell import shows_large_markdown

    return shows_large_markdown(command, absolute_path(payload.get("cwd"), None), threshold)


def answer(payload: object, threshold: int, mode: str) -> str | None:
    """The hook's stdout for one payload: the reminder, the replaced Read result, or None.

    Outline mode changes only a whole-file Read at PostToolUse, where a result exists to
    replace, and one that failed for its size (the index beside the error); elsewhere, and
    whenever the outline cannot be made, the answer is the reminder.
    """
    if not isinstance(payload, dict):
        return None
    tool = payload.get("tool_name")
    if isinstance(tool, str) and tool in VSCODE_TOOLS:
        from mdsel_claude.hook import vscode

        return vscode.answer(payload, threshold, mode)
    event = payload.get("hook_event_name")
    if not isinstance(event, str) or event not in EVENTS:
        return None
    if event == FAILURE_EVENT:
        return _failed_read(payload, threshold, mode)
    if tool == "Bash":
        return _reminder(event) if _bash_prints_large_markdown(payload, threshold) else None
    path = read_path(payload)
    replacing = mode == "outline" and event == REPLACING_EVENT
    if path is None or (replacing and is_partial_read(payload)):
        return None
    if not large_markdown(path, threshold):
        return None
    if replacing:
        replaced = _replaced_read(payload, path)
        if replaced is not None:
            output = {"hookSpecificOutput": {"hookEventName": event, "updatedToolOutput": replaced}}
            return json.dumps(output) + "\n"
    return _reminder(event)


def _failed_read(payload: dict[str, object], threshold: int, mode: str) -> str | None:
    """The answer to a Read that failed: for a size failure on a large Markdown file the
    reminder, with the index before it in outline mode for a whole-file read (the model has
    no file to replace and nothing of it yet); None for anything else."""
    error = payload.get("error")
    if not isinstance(error, str) or not any(text in error for text in SIZE_FAILURES):
        return None
    path = read_path(payload)
    if path is None or not large_markdown(path, threshold):
        return None
    if mode == "outline" and not is_partial_read(payload):
        from mdsel_claude.hook.outline import index_text

        index = index_text(path)
        if index is not None:
            return _reminder(FAILURE_EVENT, f"{index}{REMINDER}")
    return _reminder(FAILURE_EVENT)


def _replaced_read(payload: dict[str, object], path: str) -> dict[str, object] | None:
    """Read's result with the index and the reminder as its content (the shape of Claude Code's
    `FileReadOutput`), or None: a non-text result, or the engine refused the file."""
    response = payload.get("tool_response")
    # Only text results are replaced; an image, notebook or PDF result is not a Markdown read.
    if isinstance(response, dict) and response.get("type", "text") != "text":
        return None
    from mdsel_claude.hook.outline import index_text

    index = index_text(path)
    if index is None:
        return None
    content = f"{index}{REMINDER}"
    file = response.get("file") if isinstance(response, dict) else None
    file = file if isinstance(file, dict) else {}
    reported = file.get("filePath")
    total = file.get("totalLines")
    if not isinstance(total, int) or isinstance(total, bool) or total < 0:
        total = _count_lines(path)
    return {
        "type": "text",
        "file": {
            "filePath": reported if isinstance(reported, str) else path,
            "content": content,
            "numLines": content.count("\n") + 1,
            "startLine": 1,
            "totalLines": total,
        },
    }


def _count_lines(path: str) -> int:
    """The file's line count as Read counts it (split on LF): read as the word count reads it,
    never blocking on a FIFO swapped in since, and at most `MAX_BYTES`."""
    opened = open_regular(path)
    if opened is None:
        return 0
    fd, _ = opened
    try:
        return os.read(fd, MAX_BYTES).count(b"\n") + 1
    finally:
        os.close(fd)
