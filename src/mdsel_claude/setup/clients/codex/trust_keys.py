"""Codex's trust in our hook: the table that lets Codex run it, written with it and taken out.

Codex runs a hook that is not managed by an administrator only once it is trusted: a table
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

Writing and removing it goes through `Containers`, as in `hook_tables`.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Mapping, MutableMapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mdsel_claude.setup import ledger
from mdsel_claude.setup.clients.codex import hook_tables
from mdsel_claude.setup.clients.codex.hook_tables import (
    HOOKS,
    MATCHER,
    STATE,
    Containers,
    Ours,
    table_at,
    unwrapped,
)
from mdsel_claude.setup.entries import KeyPath
from mdsel_claude.setup.jsonfile import ConfigFileError, JSONObject
from mdsel_claude.setup.ledger import FileRecord, WrittenEntry

EVENT_LABELS = {"PreToolUse": "pre_tool_use", "PostToolUse": "post_tool_use"}
"""Each event's label in trust keys and hashes, as Codex writes it."""

TRUSTED_HASH = "trusted_hash"


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


@dataclass(frozen=True, slots=True)
class Trusted:
    """Our hook, trusted: its trust key, and what install created and wrote for the two."""

    key: str
    """The trust key of our hook where it now is."""
    created: tuple[KeyPath, ...]
    """Containers install had to create, outermost first."""
    written: tuple[WrittenEntry, ...]
    """The hook and its trust, as the install record notes them."""


def add_trusted_hook(
    doc: Any,
    event: str,
    hook: JSONObject,
    source: str,
    ours: Ours,
    path: Path,
    make: Containers,
    our_trust: Callable[[str, object], bool] = lambda key, value: False,
) -> Trusted:
    """Our hook under `event` (see `hook_tables.add_hook`), trusted where it now sits. A trust
    entry already at our hook's key that install did not write (`our_trust(key, hash)` says
    which it did) is the user's: install refuses rather than overwrite it (and uninstall would
    then delete it)."""
    placed = hook_tables.add_hook(doc, event, hook, ours, path, make)
    hooks = placed.hooks
    created = list(placed.created)
    key = trust_key(source, event, placed.group, placed.index)
    state = table_at(hooks, STATE, path, f"{HOOKS}.{STATE}")
    if state is None:
        hooks[STATE] = make.holder()
        created.append((HOOKS, STATE))
        state = hooks[STATE]
    entry = table_at(state, key, path, f"{HOOKS}.{STATE}.{key!r}")
    digest = trust_hash(event, hook)
    if entry is None:
        state[key] = make.table()
        created.append((HOOKS, STATE, key))
        entry = state[key]
    else:
        there = unwrapped(entry.get(TRUSTED_HASH))
        if there is not None and there != digest and not our_trust(key, there):
            raise ConfigFileError(
                path,
                f"Codex already has a trust entry [{HOOKS}.{STATE}.{json.dumps(key)}] where our "
                "hook would go, and install did not write it (left from a hook removed by "
                "hand?); remove that table, then run install again",
            )
    entry[TRUSTED_HASH] = digest
    written = (
        WrittenEntry((HOOKS, event), hook, hook=True),
        WrittenEntry((HOOKS, STATE, key, TRUSTED_HASH), digest),
    )
    return Trusted(key, tuple(created), written)


def remove_trust(doc: Any, created: FileRecord, path: Path, keep: str | None = None) -> None:
    """The trust install noted out of `hooks.state` (each only while it still holds the
    hash install wrote), and the tables install created for it once empty; not `keep`."""
    hooks = table_at(doc, HOOKS, path, HOOKS)
    state = table_at(hooks, STATE, path, f"{HOOKS}.{STATE}") if hooks is not None else None
    if state is None:
        return
    for written in created.written:
        if written.hook or written.at[:2] != (HOOKS, STATE) or len(written.at) != 4:
            continue
        key = written.at[2]
        entry = state.get(key)
        if key == keep or not isinstance(entry, MutableMapping):
            continue
        if ledger.same_value(unwrapped(entry.get(TRUSTED_HASH)), written.value):
            del entry[TRUSTED_HASH]
        if not entry and (HOOKS, STATE, key) in created.keys:
            del state[key]
