"""Our entries in Claude Code's config files: the forms install writes, and how we recognise them.

Two files matter. An MCP config (`.mcp.json`) holds `{"mcpServers": {name: server}}`; ours is the
server named `mdsel`. A settings file (`.claude/settings.json`) holds
`{"hooks": {event: [{"matcher": ..., "hooks": [{"type": "command", "command": ...}]}]}}`; ours is
a hook object install wrote, wherever it sits. Which values are ours is the caller's to say (see
`Ours`): what the install record lists, never a look-alike. Putting them in a file and taking them
out again is `entry_edits`'s.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable, Sequence
from typing import cast

from mdsel_claude.setup.jsonfile import JSONObject

PLUGIN_NAME = "mdsel-claude"
"""The plugin's earlier name (`mdsel-claude@mdsel-claude`); it is `mdsel` in plugin/ now."""

MARKETPLACE_NAME = "mdsel-claude"
"""The marketplace this repository publishes (`.claude-plugin/marketplace.json`)."""

PLUGIN_NAMES = (PLUGIN_NAME, "mdsel")
"""Names the plugin is installed under (`NAME@marketplace`), the current and earlier ones."""

SERVER_KEY = "mdsel"
"""The name our server is registered under: its key under `mcpServers`, and the name given to
`claude mcp add` (the server calls itself `mdsel-claude`: see `server.app.SERVER_INFO_NAME`)."""

EXECUTABLE_NAME = "mdsel-claude"
"""Base name of the console script every entry of ours runs."""

HOOK_MATCHER = "Read|Bash"
"""The tools our hook is registered for: a file read, and a shell command that may print one."""

HOOK_EVENTS = ("PreToolUse", "PostToolUse")
"""Events install may register the hook for; PreToolUse is the default."""

FAILURE_EVENT = "PostToolUseFailure"
FAILURE_MATCHER = "Read"
"""Where install puts the same hook a second time when it runs at PostToolUse: a Read too large
to return fails, and PostToolUse never runs for it. At PreToolUse it needs no second entry:
that reminder reaches the model whether the Read then fails or not."""


def hook_placements(event: str) -> tuple[tuple[str, str], ...]:
    """The (event, matcher) pairs install writes our hook under, for the hook's `event`."""
    main = (event, HOOK_MATCHER)
    return (main, (FAILURE_EVENT, FAILURE_MATCHER)) if event == "PostToolUse" else (main,)


KeyPath = tuple[str, ...]
"""Keys leading from a file's top-level object to a nested container."""


def server_entry(executable: str) -> JSONObject:
    """Our stdio server as an `mcpServers` value: the absolute executable, command `serve`."""
    return {"type": "stdio", "command": executable, "args": ["serve"]}


PORTABLE_GUARD = f"sh -c 'command -v {EXECUTABLE_NAME} >/dev/null 2>&1 || exit 0; exec "
"""How a portable hook command (project scope, run from PATH) starts: a teammate who has not
installed mdsel-claude gets silence and exit 0 instead of a hook error on every Read. `sh -c`
so that it means the same whatever shell Claude Code hands the command to."""


def hook_args(min_words: int, mode: str = "reminder", client: str | None = None) -> list[str]:
    """Our hook's arguments after the executable: `hook`, `--client NAME` for an agent other
    than Claude Code (whose payloads are the default), the threshold as `--min-words N`, and a
    mode other than the default as `--mode M` (so a default hook's command stays as it was)."""
    args = ["hook", *(["--client", client] if client is not None else [])]
    args += ["--min-words", str(min_words)]
    return args + (["--mode", mode] if mode != "reminder" else [])


def hook_command(
    executable: str, min_words: int, mode: str = "reminder", client: str | None = None
) -> str:
    """The shell command of our hook (`hook_args`), for every agent that takes one in its JSON
    settings. The bare name (project scope) is wrapped in `PORTABLE_GUARD`."""
    command = shlex.join([executable, *hook_args(min_words, mode, client)])
    return f"{PORTABLE_GUARD}{command}'" if executable == EXECUTABLE_NAME else command


Parsed = tuple[str, int, str]
"""(executable, threshold, mode) of our hook's command line."""


def parse_hook_argv(words: Sequence[object], client: str | None = None) -> Parsed | None:
    """(executable, threshold, mode) of `words` exactly as `hook_args` spells them after an
    executable for `client`, else None: the one reading of our hook's line, for every agent."""
    if not all(isinstance(word, str) for word in words):
        return None
    argv = cast("list[str]", list(words))
    at = 3 if client is None else 5  # where the threshold stands
    threshold = _digits(argv[at]) if len(argv) > at else None
    mode = argv[-1] if len(argv) == at + 3 else "reminder"
    # The round trip checks every other word: `hook`, the client, `--min-words`, `--mode`.
    if threshold is None or argv != [argv[0], *hook_args(threshold, mode, client)]:
        return None
    return argv[0], threshold, mode


def parse_hook_command(command: object, client: str | None = None) -> Parsed | None:
    """`parse_hook_argv` of a shell command as `hook_command` writes it, inside the portable
    guard or not; None for anything else (a command that does not split included)."""
    words = hook_words(command)
    return None if words is None else parse_hook_argv(words, client)


def hook_words(command: object) -> list[str] | None:
    """The words of a hook's shell command, inside the portable guard; None for a value that is
    no command or does not split."""
    if not isinstance(command, str):
        return None
    try:
        return shlex.split(unguarded(command))
    except ValueError:
        return None


def unguarded(command: str) -> str:
    """The `mdsel-claude hook …` inside a portable hook command (see `PORTABLE_GUARD`); any
    other command as it is (the old unguarded project form included)."""
    if command.startswith(PORTABLE_GUARD) and command.endswith("'"):
        inner = command[len(PORTABLE_GUARD) : -1]
        if "'" not in inner and inner.startswith(f"{EXECUTABLE_NAME} hook"):
            return inner
    return command


def hook_entry(executable: str, min_words: int, mode: str = "reminder") -> JSONObject:
    """One hook object, as it sits in a matcher group's `hooks` list."""
    return {"type": "command", "command": hook_command(executable, min_words, mode)}


Ours = Callable[[object], bool]
"""Tells whether a server value or hook object is ours: one the install record says install
wrote (compared as JSON values), or, when installing, exactly what this install writes."""


def is_install_form(value: object, executable: str) -> bool:
    """True for a server value or hook object exactly as install writes it with `executable`
    (any threshold; a server also as `claude mcp add` writes it, with an empty `env`): an entry
    install would only rewrite the same, so it may replace it."""
    if value in (server_entry(executable), {**server_entry(executable), "env": {}}):
        return True
    if not isinstance(value, dict) or set(value) != {"type", "command"}:
        return False
    command = value.get("command")
    parsed = parse_hook_command(command)
    return (
        value.get("type") == "command"
        and parsed is not None
        and parsed[2] in ("reminder", "outline")
        and unguarded(str(command)) == shlex.join([executable, *hook_args(*parsed[1:])])
    )


def program_of(value: object, hook: bool) -> str:
    """The program an entry runs (a hook's first word, inside the portable guard), or ""."""
    command = value.get("command") if isinstance(value, dict) else None
    if not isinstance(command, str):
        return ""
    if not hook:
        return command
    words = hook_words(command)
    return words[0] if words else ""


def runs_our_hook(value: object) -> bool:
    """True for a hook object whose command runs `mdsel-claude hook`, from any folder, inside
    the portable guard or not: a second one in a file would remind the agent twice."""
    words = hook_words(value.get("command") if isinstance(value, dict) else None)
    if not words:
        return False
    program = words[0].replace("\\", "/").rpartition("/")[2].removesuffix(".exe")
    if program.startswith("python") and words[1:3] == ["-m", "mdsel_claude"]:
        return words[3:4] == ["hook"]  # the package run as a module
    return program == EXECUTABLE_NAME and words[1:2] == ["hook"]


def _digits(text: str) -> int | None:
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 18 else None


def looks_like_ours(value: object) -> bool:
    """True for a value that mentions mdsel-claude: worth a word when it is left alone."""
    return EXECUTABLE_NAME in str(value)


def lookalikes(value: JSONObject) -> list[str]:
    """Servers named `mdsel` and hooks that mention mdsel-claude, described in words."""
    found: list[str] = []
    servers = value.get("mcpServers")
    if isinstance(servers, dict) and SERVER_KEY in servers:
        found.append(f"MCP server {SERVER_KEY!r} ({servers[SERVER_KEY]})")
    hooks = value.get("hooks")
    for event, groups in (hooks if isinstance(hooks, dict) else {}).items():
        for group in groups if isinstance(groups, list) else []:
            inner = group.get("hooks") if isinstance(group, dict) else None
            for hook in inner if isinstance(inner, list) else []:
                if looks_like_ours(hook):
                    command = hook.get("command") if isinstance(hook, dict) else hook
                    found.append(f"{event} hook {command!r}")
    return found
