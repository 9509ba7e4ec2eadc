"""GitHub Copilot CLI's payloads: its `postToolUse` and `postToolUseFailure` hooks on `view`.

Copilot CLI sends a command hook configured under a camelCase event name
`{sessionId, timestamp, cwd, toolName, toolArgs, …}` with no event name in it: `postToolUse`
adds `toolResult: {resultType: "success", textResultForLlm}`, `postToolUseFailure` adds
`error` (a string) instead. `view` names its file in `toolArgs.path` (absolute, or relative to
`cwd`); `view_range` asks for some lines only. `bash` runs `toolArgs.command` in the session's
shell.

Both events are fail-open and after the tool: nothing here can stop a read (`preToolUse`, which
could, denies the tool when its hook fails, so it is not used). After a successful `view` the
CLI appends `additionalContext` to the result the model sees, and `modifiedResult` replaces it
(outline mode: the index, then the reminder); after a failed one (a `view_range` past the end of
a large file, say) `additionalContext` reaches the model as a message of its own.
"""

from __future__ import annotations

import json

from mdsel_claude.hook.files import REMINDER, absolute_path, large_markdown

SLICE_KEYS = ("view_range",)
"""`view` arguments that ask for some lines only."""


def _context() -> str:
    return json.dumps({"additionalContext": REMINDER}) + "\n"


def _replacement(path: str) -> str | None:
    """The index and the reminder in place of the view's result, or None when the engine
    refuses the file (the reminder is given instead)."""
    from mdsel_claude.hook.outline import index_text

    index = index_text(path)
    if index is None:
        return None
    result = {"resultType": "success", "textResultForLlm": f"{index}{REMINDER}"}
    return json.dumps({"modifiedResult": result}) + "\n"


def _arguments(payload: dict[str, object]) -> dict[str, object] | None:
    """The tool's arguments: an object, or (as some versions send them) its JSON text."""
    args = payload.get("toolArgs")
    if isinstance(args, str) and len(args) <= 64 * 1024:
        try:
            args = json.loads(args)
        except ValueError:
            return None
    return args if isinstance(args, dict) else None


def answer(payload: object, threshold: int, mode: str) -> str | None:
    """The hook's stdout for one payload: context for the model, the view's result replaced, or
    None (the result stays as it is).

    Outline mode replaces only a whole-file `view` that succeeded, and leaves a view of some
    lines alone (a deliberate choice of lines). A failed `view` of a large Markdown file gets the
    reminder whatever the mode: there is no result to replace.
    """
    if not isinstance(payload, dict):
        return None
    args = _arguments(payload)
    if args is None:
        return None
    result = payload.get("toolResult")
    failed = isinstance(payload.get("error"), str) and result is None
    succeeded = isinstance(result, dict) and result.get("resultType") == "success"
    if not (failed or succeeded):
        return None  # preToolUse, or a payload of another shape: nothing to add to
    cwd = payload.get("cwd")
    tool = payload.get("toolName")
    if tool == "bash" and succeeded:
        from mdsel_claude.hook.shell import shows_large_markdown

        shown = shows_large_markdown(args.get("command"), absolute_path(cwd, None), threshold)
        return _context() if shown else None
    if tool != "view":
        return None
    path = absolute_path(args.get("path"), cwd)
    partial = any(args.get(key) is not None for key in SLICE_KEYS)
    if path is None or (succeeded and mode == "outline" and partial):
        return None
    if not large_markdown(path, threshold):
        return None
    if succeeded and mode == "outline":
        replaced = _replacement(path)
        if replaced is not None:
            return replaced
    return _context()
