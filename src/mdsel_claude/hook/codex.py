"""Codex CLI's payloads: a shell command (`tool_name` "Bash") that prints a Markdown file.

Codex reads files through its shell tool (`exec_command`: `cat`, `sed -n`, `nl`); it has no
tool of its own for reading a text file. Its hooks receive `{hook_event_name, tool_name,
tool_input, tool_response?, cwd, …}` with the shell tool named "Bash" whatever the model
called it, `tool_input.command` the command line as the model wrote it (one string) and `cwd`
the directory the command runs in (the tool's `workdir` when the model gave one). An argv list
(`["bash", "-lc", "cat x.md"]`, the form of Codex's older `shell` tool) is read too.

The answer is `hookSpecificOutput.additionalContext`, which Codex hands the model as a
developer message next to the command's output, at PreToolUse and at PostToolUse alike. There
is no outline mode here: Codex replaces a tool's output only for MCP tools
(`updatedMCPToolOutput`; for a shell command it fails the hook and drops its context too), and
rewriting the command (`updatedInput`) would change what it does. `--mode outline` therefore
gives the reminder.
"""

from __future__ import annotations

import json

from mdsel_claude.hook.files import REMINDER, absolute_path

EVENTS = frozenset({"PreToolUse", "PostToolUse"})
"""Hook events the reminder is given for; any other event is answered with silence."""

SHELL_TOOLS = frozenset({"Bash", "exec_command", "shell", "shell_command", "local_shell"})
"""The shell tool's names: "Bash" in every payload Codex sends; the others are the names the
model calls it by, accepted in case a version passes one through."""

MAX_ARGV = 4096
"""A longer argv is not read (the answer is silence): bounds the work per payload."""


def command_line(command: object) -> str | None:
    """The command line a shell tool's `command` runs: the string itself, or an argv list's
    words quoted back into one line (`bash -lc SCRIPT` is then followed by `shell`, as for a
    string); None for junk."""
    if isinstance(command, str):
        return command
    if not isinstance(command, list) or not command or len(command) > MAX_ARGV:
        return None
    if not all(isinstance(word, str) for word in command):
        return None
    import shlex  # here: the string form, which Codex sends, does not need it

    return shlex.join(command)


def _directory(payload: dict[str, object], tool_input: dict[str, object]) -> str | None:
    """Where the command runs: `cwd` (Codex puts the tool's `workdir` there), or a `workdir`
    in the tool's input taken relative to it; None when either is unusable."""
    cwd = absolute_path(payload.get("cwd"), None)
    if cwd is None:
        return None
    workdir = tool_input.get("workdir")
    # A workdir that is not a path leaves the directory unknown: silence, not a guess.
    return cwd if workdir is None else absolute_path(workdir, cwd)


def answer(payload: object, threshold: int, mode: str) -> str | None:
    """The hook's stdout for one payload: the reminder when the shell command shows more than
    `threshold` words of a Markdown file, else None. `mode` changes nothing (see above)."""
    if not isinstance(payload, dict):
        return None
    event = payload.get("hook_event_name")
    tool_input = payload.get("tool_input")
    if not isinstance(event, str) or event not in EVENTS or not isinstance(tool_input, dict):
        return None
    tool = payload.get("tool_name")
    if not isinstance(tool, str) or tool not in SHELL_TOOLS:
        return None
    from mdsel_claude.hook.shell import shows_large_markdown

    command = command_line(tool_input.get("command"))
    if not shows_large_markdown(command, _directory(payload, tool_input), threshold):
        return None
    output = {"hookSpecificOutput": {"hookEventName": event, "additionalContext": REMINDER}}
    return json.dumps(output) + "\n"
