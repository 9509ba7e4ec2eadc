"""OpenCode's payloads: what our plugin sends after a `read` or a `bash` tool call.

OpenCode runs hooks only as JavaScript plugins in its own process. Ours
(`mdsel_claude/setup/clients/opencode/plugin.js`, written by `install --client opencode`) is kept to
plumbing: from its `tool.execute.after` hook, for the `read` and `bash` tools, it pipes
`{tool, args, directory}` to `mdsel-claude hook --client opencode` — `args` the model's
arguments as OpenCode passed them to the hook, `directory` the project OpenCode runs in — and
does what the answer says with the tool's output text, the text the model is shown:

- `{"append": TEXT}`: TEXT goes after the output (a blank line, then the reminder);
- `{"replace": TEXT}`: TEXT stands in for the output (outline mode: the index, then the
  reminder);
- no answer (or anything else): the output stays as it is.

`read` takes `filePath` (absolute, or relative to the project) and, for some lines only,
`offset`/`limit`. `bash` takes `command` and `workdir` (default: the project). Only a whole-file
`read` is replaced in outline mode: a `bash` command's output may hold more than the file, and a
slice is a deliberate choice of lines (left alone, as for Claude Code).
"""

from __future__ import annotations

import json

from mdsel_claude.hook.files import REMINDER, absolute_path, large_markdown

SLICE_KEYS = ("offset", "limit")
"""`read` arguments that ask for some lines only."""

SEPARATOR = "\n\n"
"""Between the tool's output and the reminder appended to it."""


def _append() -> str:
    return json.dumps({"append": SEPARATOR + REMINDER}) + "\n"


def _replacement(path: str) -> str | None:
    """The index and the reminder in place of the read, or None when the engine refuses the
    file (the reminder is given instead)."""
    from mdsel_claude.hook.outline import index_text

    index = index_text(path)
    if index is None:
        return None
    return json.dumps({"replace": f"{index}{REMINDER}"}) + "\n"


def _bash_prints_large_markdown(args: dict[str, object], directory: object, threshold: int) -> bool:
    command = args.get("command")
    workdir = args.get("workdir")
    # Like the tool: `workdir` resolved from the project (`path.resolve`: `..` taken out of
    # the text), the project itself without one.
    if workdir is None:
        cwd = absolute_path(directory, None)
    else:
        cwd = absolute_path(workdir, directory, lexical=True)
    from mdsel_claude.hook.shell import shows_large_markdown

    return shows_large_markdown(command, cwd, threshold)


def answer(payload: object, threshold: int, mode: str) -> str | None:
    """The hook's stdout for one payload: text to append, text to replace the output with, or
    None (the output stays as it is)."""
    if not isinstance(payload, dict):
        return None
    args = payload.get("args")
    directory = payload.get("directory")
    if not isinstance(args, dict):
        return None
    tool = payload.get("tool")
    if tool == "bash":
        return _append() if _bash_prints_large_markdown(args, directory, threshold) else None
    if tool != "read":
        return None
    path = absolute_path(args.get("filePath"), directory, lexical=True)
    partial = any(args.get(key) is not None for key in SLICE_KEYS)
    if path is None or (mode == "outline" and partial):
        return None
    if not large_markdown(path, threshold):
        return None
    if mode == "outline":
        replaced = _replacement(path)
        if replaced is not None:
            return replaced
    return _append()
