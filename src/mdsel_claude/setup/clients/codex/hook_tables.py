"""Codex CLI's hook for us in its `config.toml`: our matcher group, put in and taken out.

Codex reads hooks from inline tables of `config.toml` (or from a `hooks.json` beside it):

    [[hooks.PreToolUse]]
    matcher = "^Bash$"
    [[hooks.PreToolUse.hooks]]
    type = "command"
    command = "/home/me/.venv/bin/mdsel-claude hook --client codex --min-words 200"
    timeout = 30

and runs a hook that is not managed by an administrator only once it is trusted: install writes
that trust beside the group (see `trust_keys`).

Every function here changes a parsed file in place through `Containers`, so that the same steps
run on tomlkit's document (which keeps the file's text) and on plain values (what the result
must parse back to; see `config_toml`).
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Callable, MutableMapping, MutableSequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mdsel_claude.setup import entry_edits
from mdsel_claude.setup.entries import (
    EXECUTABLE_NAME,
    KeyPath,
    hook_args,
    parse_hook_command,
    runs_our_hook,
)
from mdsel_claude.setup.jsonfile import ConfigFileError, JSONObject, type_name
from mdsel_claude.setup.ledger import FileRecord

CLIENT = "codex"
"""The hook's `--client` in Codex's hook command."""

MATCHER = "^Bash$"
"""Codex names its shell tool "Bash" in every hook payload, whatever the model called it."""

TIMEOUT_SECONDS = 30
"""Codex waits 600 s for a hook by default; ours answers in milliseconds or not at all."""

HOOKS = "hooks"
STATE = "state"
"""Codex's trust sits in `hooks` beside the events (see `trust_keys`): a table, not an event."""


def hook_command(executable: str, min_words: int) -> str:
    """The shell command Codex runs (through `sh -c`): our hook for its payloads."""
    return shlex.join([executable, *hook_args(min_words, client=CLIENT)])


def hook_entry(executable: str, min_words: int) -> JSONObject:
    """Our hook as it sits in a matcher group's `hooks` list."""
    return {
        "type": "command",
        "command": hook_command(executable, min_words),
        "timeout": TIMEOUT_SECONDS,
    }


def is_install_form(value: object, executable: str | None = None) -> bool:
    """A hook exactly as install writes it (any threshold), with `executable` when given."""
    if not isinstance(value, dict) or set(value) != {"type", "command", "timeout"}:
        return False
    command = value.get("command")
    if value.get("type") != "command" or value.get("timeout") != TIMEOUT_SECONDS:
        return False
    parsed = parse_hook_command(command, CLIENT)
    if parsed is None or command != hook_command(*parsed[:2]):  # no mode: Codex has none
        return False
    exe = parsed[0]
    return os.path.basename(exe) == EXECUTABLE_NAME and executable in (None, exe)


# -- the parsed file, tomlkit's or plain ------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Containers:
    """How to make new containers in the document being edited."""

    table: Callable[[], Any]
    tables: Callable[[], Any]
    """A list of tables (`[[…]]`)."""
    holder: Callable[[], Any]
    """A table that only holds tables (no `[hooks]` header of its own)."""


PLAIN = Containers(dict, list, dict)


def table_at(holder: Any, key: str, path: Path, where: str) -> Any:
    found = holder.get(key)
    if found is not None and not isinstance(found, MutableMapping):
        raise ConfigFileError(path, f"{where} should be a table, found {type_name(found)}")
    return found


def _groups_at(hooks: Any, event: str, path: Path) -> Any:
    found = hooks.get(event)
    if found is not None and not isinstance(found, MutableSequence):
        raise ConfigFileError(
            path, f"hooks.{event} should be a list of tables, found {type_name(found)}"
        )
    return found


def unwrapped(value: object) -> object:
    unwrap = getattr(value, "unwrap", None)
    return unwrap() if callable(unwrap) else value


Ours = Callable[[object], bool]


def remove_hooks(
    doc: Any, ours: Ours, path: Path, spare: tuple[str, int, int] | None = None
) -> None:
    """Every hook of ours out of every event's list, but the one at `spare` (event, group,
    hook); a group left with no hook goes too. Removing from the end first, nothing before a
    removed hook moves, `spare` included when it is the first of ours in its list."""
    hooks = table_at(doc, HOOKS, path, HOOKS)
    for event in list(hooks or ()):
        groups = hooks[event] if event != STATE else None
        if not isinstance(groups, MutableSequence):
            continue  # not a list of groups: Codex reports it, we leave it
        for index in reversed(range(len(groups))):
            group = groups[index]
            inner = group.get(HOOKS) if isinstance(group, MutableMapping) else None
            if not isinstance(inner, MutableSequence):
                continue
            mine = [
                i
                for i, hook in enumerate(inner)
                if (event, index, i) != spare and ours(unwrapped(hook))
            ]
            if mine and len(mine) == len(inner):
                del groups[index]
                continue
            for i in reversed(mine):
                del inner[i]


def _refuse_second_reminder(hooks: Any, ours: Ours, path: Path, written: JSONObject) -> None:
    """As for Claude Code (`entry_edits.refuse_second_reminder`): a hook that runs
    `mdsel-claude hook` but is not ours (changed by hand, or hand-written) is named, and no
    second one is added beside it."""
    for event in list(hooks or ()):
        groups = hooks[event] if event != STATE else None
        for group in groups if isinstance(groups, MutableSequence) else ():
            inner = group.get(HOOKS) if isinstance(group, MutableMapping) else None
            for hook in inner if isinstance(inner, MutableSequence) else ():
                value = unwrapped(hook)
                if not ours(value) and runs_our_hook(value):
                    entry_edits.refuse_second_reminder(
                        {HOOKS: {event: [{HOOKS: [value]}]}}, path, written
                    )


def _find(groups: Any, ours: Ours) -> tuple[int, int] | None:
    """The first hook of ours in an event's list: (group index, hook index)."""
    for g, group in enumerate(groups or ()):
        inner = group.get(HOOKS) if isinstance(group, MutableMapping) else None
        for h, hook in enumerate(inner if isinstance(inner, MutableSequence) else ()):
            if ours(unwrapped(hook)):
                return g, h
    return None


@dataclass(frozen=True, slots=True)
class Placed:
    """Where `add_hook` put our hook: what Codex's trust in it is keyed by (see `trust_keys`)."""

    hooks: Any
    """The `hooks` table our hook is now in."""
    group: int
    """Its group's index in the event's list."""
    index: int
    """Its index in the group."""
    created: tuple[KeyPath, ...]
    """Containers install had to create, outermost first."""


def add_hook(
    doc: Any, event: str, hook: JSONObject, ours: Ours, path: Path, make: Containers
) -> Placed:
    """Our hook under `event`: in place of the first of ours there (its group keeps its index,
    and so do the groups after it), else as a new group at the end of the list; every other
    hook of ours goes."""
    created: list[KeyPath] = []
    hooks = table_at(doc, HOOKS, path, HOOKS)
    if hooks is None:
        doc[HOOKS] = make.holder()
        created.append((HOOKS,))
        hooks = doc[HOOKS]
    groups = _groups_at(hooks, event, path)
    place = _find(groups, ours)
    _refuse_second_reminder(hooks, ours, path, hook)
    remove_hooks(doc, ours, path, None if place is None else (event, *place))
    if place is not None:
        # Rewritten key by key, not replaced: the table keeps its place in the text.
        there = groups[place[0]][HOOKS][place[1]]
        for key in [key for key in there if key not in hook]:
            del there[key]
        for key, value in hook.items():
            there[key] = value
    else:
        if groups is None:
            hooks[event] = make.tables()
            created.append((HOOKS, event))
            groups = hooks[event]
        group = make.table()
        group["matcher"] = MATCHER
        inner = make.tables()
        inner.append(_new_table(make, hook))
        group[HOOKS] = inner
        groups.append(group)
        place = (len(groups) - 1, 0)
    return Placed(hooks, *place, tuple(created))


def _new_table(make: Containers, values: JSONObject) -> Any:
    table = make.table()
    for key, value in values.items():
        table[key] = value
    return table


def prune(doc: Any, created: FileRecord) -> None:
    """Containers install created under `hooks` that are empty now, innermost first."""
    hooks = doc.get(HOOKS)
    if not isinstance(hooks, MutableMapping):
        return
    for key_path in sorted(created.keys, key=len, reverse=True):
        if key_path[:1] != (HOOKS,) or len(key_path) > 3:
            continue
        parent: Any = doc
        for key in key_path[:-1]:
            parent = parent.get(key) if isinstance(parent, MutableMapping) else None
        if isinstance(parent, MutableMapping) and key_path[-1] in parent:
            value = parent[key_path[-1]]
            if isinstance(value, (MutableMapping, MutableSequence)) and not len(value):
                del parent[key_path[-1]]
