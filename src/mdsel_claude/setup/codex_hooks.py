"""Codex CLI's hook for us in its `config.toml`: the matcher group, and Codex's trust in it.

Codex reads hooks from inline tables of `config.toml` (or from a `hooks.json` beside it):

    [[hooks.PreToolUse]]
    matcher = "^Bash$"
    [[hooks.PreToolUse.hooks]]
    type = "command"
    command = "/home/me/.venv/bin/mdsel-claude hook --client codex --min-words 200"
    timeout = 30

and runs a hook that is not managed by an administrator only once it is trusted: a table
`[hooks.state."<file>:<event>:<group>:<handler>"]` whose `trusted_hash` is the hash of the
hook's definition. Codex's `/hooks` screen writes that table when the user trusts a hook;
install writes the same table for the hook it adds, since running install is the user's
asking for that hook, and the two live in the one file, replaced in one step.

The table's name is positional (the file as Codex names it, the event, the group's index in
that event's list, the hook's index in the group), so our group keeps its place when install
runs again, and a group moved by hand loses its trust (doctor says so; install restores it).
The hash is `sha256:` and the hex digest of the hook's identity as compact JSON with sorted
keys: the event's snake-case label, the matcher and the one hook with its defaults filled in
(`timeout` 600 when absent, `async` false); the tests check it against the pinned Codex.

Every function here changes a parsed file in place through `Containers`, so that the same steps
run on tomlkit's document (which keeps the file's text) and on plain values (what the result
must parse back to; see `codex_toml`).
"""

from __future__ import annotations

import hashlib
import json
import os
import shlex
from collections.abc import Callable, Mapping, MutableMapping, MutableSequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mdsel_claude.setup import ledger
from mdsel_claude.setup.entries import EXECUTABLE_NAME, KeyPath
from mdsel_claude.setup.jsonfile import JsonFileError, JSONObject, type_name
from mdsel_claude.setup.ledger import Created, Written

CLIENT = "codex"
"""The hook's `--client` in Codex's hook command."""

MATCHER = "^Bash$"
"""Codex names its shell tool "Bash" in every hook payload, whatever the model called it."""

TIMEOUT_SECONDS = 30
"""Codex waits 600 s for a hook by default; ours answers in milliseconds or not at all."""

EVENT_LABELS = {"PreToolUse": "pre_tool_use", "PostToolUse": "post_tool_use"}
"""Each event's label in trust keys and hashes, as Codex writes it."""

HOOKS = "hooks"
STATE = "state"
TRUSTED_HASH = "trusted_hash"


def hook_command(executable: str, min_words: int) -> str:
    """The shell command Codex runs (through `sh -c`): our hook for its payloads."""
    return f"{shlex.quote(executable)} hook --client {CLIENT} --min-words {min_words}"


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
    if not isinstance(command, str):
        return False
    try:
        words = shlex.split(command)
    except ValueError:
        return False
    tail = words[1:5] == ["hook", "--client", CLIENT, "--min-words"] and len(words) == 6
    if not tail or not words[5].isascii() or not words[5].isdigit() or len(words[5]) > 18:
        return False
    exe = words[0]
    if command != hook_command(exe, int(words[5])):
        return False
    return os.path.basename(exe) == EXECUTABLE_NAME and executable in (None, exe)


def trust_source(environ: Mapping[str, str]) -> str:
    """`config.toml` as Codex names it in trust keys: under `CODEX_HOME` with its links
    resolved, else `$HOME/.codex` normalized but not resolved (what the pinned Codex does)."""
    codex_home = environ.get("CODEX_HOME")
    if codex_home:
        folder = os.path.realpath(codex_home)
    else:
        home = environ.get("HOME") or str(Path.home())
        folder = os.path.join(os.path.normpath(home), ".codex")
    return os.path.join(folder, "config.toml")


def trust_key(source: str, event: str, group: int, handler: int) -> str:
    return f"{source}:{EVENT_LABELS[event]}:{group}:{handler}"


def trust_hash(event: str, hook: JSONObject, matcher: str = MATCHER) -> str:
    """The hash Codex's trust in `hook` (a command hook) under `event` and `matcher` must
    carry (see the module's text)."""
    timeout = hook.get("timeout")
    identity = {
        "event_name": EVENT_LABELS[event],
        "matcher": matcher,
        "hooks": [
            {
                "type": "command",
                "command": hook.get("command"),
                "timeout": max(1, timeout) if isinstance(timeout, int) else 600,
                "async": False,
            }
        ],
    }
    text = json.dumps(identity, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


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


def _table_at(holder: Any, key: str, path: Path, where: str) -> Any:
    found = holder.get(key)
    if found is not None and not isinstance(found, MutableMapping):
        raise JsonFileError(path, f"{where} should be a table, found {type_name(found)}")
    return found


def _groups_at(hooks: Any, event: str, path: Path) -> Any:
    found = hooks.get(event)
    if found is not None and not isinstance(found, MutableSequence):
        raise JsonFileError(
            path, f"hooks.{event} should be a list of tables, found {type_name(found)}"
        )
    return found


def _plain(value: object) -> object:
    unwrap = getattr(value, "unwrap", None)
    return unwrap() if callable(unwrap) else value


Ours = Callable[[object], bool]


def remove_hooks(
    doc: Any, ours: Ours, path: Path, spare: tuple[str, int, int] | None = None
) -> None:
    """Every hook of ours out of every event's list, but the one at `spare` (event, group,
    hook); a group left with no hook goes too. Removing from the end first, nothing before a
    removed hook moves, `spare` included when it is the first of ours in its list."""
    hooks = _table_at(doc, HOOKS, path, HOOKS)
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
                if (event, index, i) != spare and ours(_plain(hook))
            ]
            if mine and len(mine) == len(inner):
                del groups[index]
                continue
            for i in reversed(mine):
                del inner[i]


def _find(groups: Any, ours: Ours) -> tuple[int, int] | None:
    """The first hook of ours in an event's list: (group index, hook index)."""
    for g, group in enumerate(groups or ()):
        inner = group.get(HOOKS) if isinstance(group, MutableMapping) else None
        for h, hook in enumerate(inner if isinstance(inner, MutableSequence) else ()):
            if ours(_plain(hook)):
                return g, h
    return None


@dataclass(frozen=True, slots=True)
class Placed:
    key: str
    """The trust key of our hook where it now is."""
    created: tuple[KeyPath, ...]
    """Containers install had to create, outermost first."""
    written: tuple[Written, ...]
    """The hook and its trust, as the install record notes them."""


def add_hook(
    doc: Any,
    event: str,
    hook: JSONObject,
    source: str,
    ours: Ours,
    path: Path,
    make: Containers,
    our_trust: Callable[[str, object], bool] = lambda key, value: False,
) -> Placed:
    """Our hook under `event`, trusted: in place of the first of ours there (its group keeps
    its index, and so do the groups after it), else as a new group at the end of the list;
    every other hook of ours goes. A trust entry already at our hook's key that install did
    not write (`our_trust(key, hash)` says which it did) is the user's: install refuses rather
    than overwrite it (and uninstall would then delete it)."""
    created: list[KeyPath] = []
    hooks = _table_at(doc, HOOKS, path, HOOKS)
    if hooks is None:
        doc[HOOKS] = make.holder()
        created.append((HOOKS,))
        hooks = doc[HOOKS]
    groups = _groups_at(hooks, event, path)
    place = _find(groups, ours)
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
    key = trust_key(source, event, *place)
    state = _table_at(hooks, STATE, path, f"{HOOKS}.{STATE}")
    if state is None:
        hooks[STATE] = make.holder()
        created.append((HOOKS, STATE))
        state = hooks[STATE]
    entry = _table_at(state, key, path, f"{HOOKS}.{STATE}.{key!r}")
    digest = trust_hash(event, hook)
    if entry is None:
        state[key] = make.table()
        created.append((HOOKS, STATE, key))
        entry = state[key]
    else:
        there = _plain(entry.get(TRUSTED_HASH))
        if there is not None and there != digest and not our_trust(key, there):
            raise JsonFileError(
                path,
                f"Codex already has a trust entry [{HOOKS}.{STATE}.{json.dumps(key)}] where our "
                "hook would go, and install did not write it (left from a hook removed by "
                "hand?); remove that table, then run install again",
            )
    entry[TRUSTED_HASH] = digest
    written = (
        Written((HOOKS, event), hook, hook=True),
        Written((HOOKS, STATE, key, TRUSTED_HASH), digest),
    )
    return Placed(key, tuple(created), written)


def _new_table(make: Containers, values: JSONObject) -> Any:
    table = make.table()
    for key, value in values.items():
        table[key] = value
    return table


def remove_trust(doc: Any, created: Created, path: Path, keep: str | None = None) -> None:
    """The trust install noted out of `hooks.state` (each only while it still holds the
    hash install wrote), and the tables install created for it once empty; not `keep`."""
    hooks = _table_at(doc, HOOKS, path, HOOKS)
    state = _table_at(hooks, STATE, path, f"{HOOKS}.{STATE}") if hooks is not None else None
    if state is None:
        return
    for written in created.written:
        if written.hook or written.at[:2] != (HOOKS, STATE) or len(written.at) != 4:
            continue
        key = written.at[2]
        entry = state.get(key)
        if key == keep or not isinstance(entry, MutableMapping):
            continue
        if ledger.same_value(_plain(entry.get(TRUSTED_HASH)), written.value):
            del entry[TRUSTED_HASH]
        if not entry and (HOOKS, STATE, key) in created.keys:
            del state[key]


def prune(doc: Any, created: Created) -> None:
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
