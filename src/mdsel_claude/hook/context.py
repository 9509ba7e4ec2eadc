"""The answer for an agent whose hook can only add to a read's result, not replace it.

Qwen Code and Factory Droid take `hookSpecificOutput.additionalContext` from a `PostToolUse`
hook and hand it to the model after the tool's result (Qwen Code appends it to the result,
Droid sends it as a message of its own); neither lets a hook stand in for the result. In
outline mode the document's index therefore comes with the reminder, after the file, for a
whole-file read: the model has the selectors for its next look without reading it again.
"""

from __future__ import annotations

import json

from mdsel_claude.hook.files import REMINDER


def added(event: str, path: str, whole: bool, mode: str) -> str:
    """The hook's stdout adding the reminder (and, in outline mode after a whole-file read,
    the index before it; the reminder alone when the engine refuses the file)."""
    text = REMINDER
    if mode == "outline" and whole:
        from mdsel_claude.hook.outline import index_text

        index = index_text(path)
        if index is not None:
            text = f"{index}{REMINDER}"
    output = {"hookSpecificOutput": {"hookEventName": event, "additionalContext": text}}
    return json.dumps(output) + "\n"
