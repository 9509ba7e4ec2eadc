"""Cline's payloads: its `PostToolUse` hook after a file read (or a shell command that prints one).

Cline runs a hook file named after its event (`PostToolUse`, found in `~/Documents/Cline/Hooks/`
and the other folders it searches) after every tool call, with one JSON object on stdin. The
Cline CLI (3.x) sends `{hookName: "tool_result", workspaceRoots, tool_result: {name, input,
output, error}, postToolUse: {toolName, parameters, result, success}, …}`; the VS Code
extension's documented form has `hookName: "PostToolUse"` and the `postToolUse` part alone.
`parameters` holds each argument as a string (the CLI turns a list into its JSON text), so the
model's own arguments are read from `tool_result.input` when it is there.

The CLI's read tool is `read_files` (`{files: [{path, start_line?, end_line?}]}`, and the other
shapes it accepts: a path, a list, `file_paths`, `paths`); the extension's is `read_file`
(`{path}`). A relative path is taken from the workspace root, as the tool does. `run_commands`
(`{commands: [...]}`) and the extension's `execute_command` (`{command}`) run from the
workspace root too.

The answer is `{"cancel": false, "contextModification": TEXT}`: Cline adds TEXT to what the model
sees next (inside `<hook_context>` tags, after the tool's result). Nothing can take the place of
a result, so outline mode adds the document's index before the reminder, for a whole-file read
of one file; a read of some lines, of several files, or a command gets the reminder alone.
"""

from __future__ import annotations

import json

from mdsel_claude.hook.files import REMINDER, absolute_path, large_markdown

EVENTS = frozenset({"tool_result", "PostToolUse"})
"""`hookName` of a PostToolUse payload: the CLI's name, and the extension's."""

READ_TOOLS = frozenset({"read_files", "read_file"})
SHELL_TOOLS = frozenset({"run_commands", "execute_command"})

MAX_FILES = 32
"""Files of one call looked at: each may cost a read of up to 8 MiB."""

MAX_CONTEXT = 50_000
"""Cline cuts a hook's context at this many characters; a longer index gives the reminder."""

_RANGE_KEYS = ("start_line", "end_line")
_LIST_KEYS = ("files", "file_paths", "paths")
_PATH_KEYS = ("path", "file_path", "filePath")


def _arguments(payload: dict[str, object]) -> object:
    """The tool's arguments: the CLI's `tool_result.input` as the model sent them, else the
    `postToolUse.parameters` strings (a list given as its JSON text is read back)."""
    result = payload.get("tool_result")
    if isinstance(result, dict) and "input" in result:
        return result["input"]
    post = payload.get("postToolUse")
    parameters = post.get("parameters") if isinstance(post, dict) else None
    if not isinstance(parameters, dict):
        return None
    return {key: _json_text(value) for key, value in parameters.items()}


def _json_text(value: object) -> object:
    """A list or object given as its JSON text, read back; anything else (a path, a number's
    text) as it is."""
    if not isinstance(value, str) or value.lstrip()[:1] not in ("[", "{"):
        return value
    try:
        return json.loads(value)
    except ValueError:
        return value


def _ranged(request: dict[str, object]) -> bool:
    """Whether a read names some lines only (the CLI's strings say "null" for none)."""
    return any(request.get(key) not in (None, "null", "") for key in _RANGE_KEYS)


def read_requests(arguments: object) -> list[tuple[object, bool]]:
    """(path, some lines only) of each file a read asks for, in the shapes the tool accepts."""
    if isinstance(arguments, str):
        return [(arguments, False)]
    if isinstance(arguments, list):
        return [request for item in arguments[:MAX_FILES] for request in read_requests(item)]
    if not isinstance(arguments, dict):
        return []
    for key in _LIST_KEYS:
        if key in arguments:
            return read_requests(arguments[key])
    path = next((arguments[key] for key in _PATH_KEYS if key in arguments), None)
    return [] if path is None else [(path, _ranged(arguments))]


def _commands(arguments: object) -> list[object]:
    """The command lines of a shell call: `commands` (a list, or one line), or `command`."""
    if isinstance(arguments, str):
        return [arguments]
    if isinstance(arguments, list):
        return list(arguments[:MAX_FILES])
    if not isinstance(arguments, dict):
        return []
    if "commands" in arguments:
        return _commands(arguments["commands"])
    return [arguments.get("command")]


def _failed(payload: dict[str, object]) -> bool:
    """Whether the call failed: the model was shown an error, not a file."""
    result = payload.get("tool_result")
    if isinstance(result, dict) and result.get("error") is not None:
        return True
    post = payload.get("postToolUse")
    return isinstance(post, dict) and post.get("success") is False


def _context(text: str) -> str:
    return json.dumps({"cancel": False, "contextModification": text}) + "\n"


def _with_index(path: str) -> str:
    """The document's index and the reminder, or the reminder alone when the engine refuses the
    file or the index would not fit in what Cline passes on."""
    from mdsel_claude.hook.outline import index_text

    index = index_text(path)
    text = f"{index}{REMINDER}"
    # Cline counts JavaScript string length: UTF-16 code units.
    if index is None or len(text.encode("utf-16-le")) // 2 > MAX_CONTEXT:
        return _context(REMINDER)
    return _context(text)


def answer(payload: object, threshold: int, mode: str) -> str | None:
    """The hook's stdout for one payload: the reminder (with the index in outline mode), or
    None for any other event, tool, or read."""
    if not isinstance(payload, dict) or payload.get("hookName") not in EVENTS:
        return None
    post = payload.get("postToolUse")
    tool = post.get("toolName") if isinstance(post, dict) else None
    result = payload.get("tool_result")
    if tool is None and isinstance(result, dict):
        tool = result.get("name")
    if not isinstance(tool, str) or _failed(payload):
        return None
    roots = payload.get("workspaceRoots")
    root = roots[0] if isinstance(roots, list) and roots else None
    arguments = _arguments(payload)
    if tool in SHELL_TOOLS:
        from mdsel_claude.hook.shell import shows_large_markdown

        cwd = absolute_path(root, None)
        shown = any(shows_large_markdown(c, cwd, threshold) for c in _commands(arguments))
        return _context(REMINDER) if shown else None
    if tool not in READ_TOOLS:
        return None
    requests = read_requests(arguments)[:MAX_FILES]
    large = [
        (path, ranged)
        for path, ranged in ((absolute_path(p, root, lexical=True), r) for p, r in requests)
        if path is not None and large_markdown(path, threshold)
    ]
    if not large:
        return None
    if mode == "outline" and len(requests) == 1 and not large[0][1]:
        return _with_index(large[0][0])
    return _context(REMINDER)
