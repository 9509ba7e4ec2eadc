"""Our entries put into a parsed config file and taken out again (see `entries` for their forms).

Everything here is a pure function from a parsed file to a new value: nothing else in the value
is changed or reordered. Each `add_*` also reports the containers it had to create, so that
removal can take exactly those away again when they are left empty (an empty `"hooks": {}` the
user wrote stays).
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from mdsel_claude.setup.entries import HOOK_MATCHER, SERVER_KEY, KeyPath, Ours, runs_our_hook
from mdsel_claude.setup.jsonfile import ConfigFileError, JSONObject, type_name


@dataclass(frozen=True, slots=True)
class Added:
    """A file's new value after adding our entry, and the containers that had to be created."""

    value: JSONObject
    """The whole new top-level object."""
    created: tuple[KeyPath, ...]
    """Containers that did not exist before, outermost first (`("hooks",)`, then deeper)."""


def _object_at(value: JSONObject, key: str, path: Path, where: str) -> JSONObject | None:
    """`value[key]` when it is an object, None when absent; anything else is refused."""
    if key not in value:
        return None
    found = value[key]
    if not isinstance(found, dict):
        raise ConfigFileError(path, f"{where} should be an object, found {type_name(found)}")
    return found


# -- MCP config (.mcp.json) -----------------------------------------------------------------


def _nested(
    value: JSONObject, at: KeyPath, path: Path, create: bool
) -> tuple[JSONObject | None, list[KeyPath]]:
    """The object at key path `at` in `value` (None when absent and not `create`d), and the
    containers created on the way; anything but an object on the way is refused."""
    here: JSONObject = value
    created: list[KeyPath] = []
    for depth, key in enumerate(at):
        found = _object_at(here, key, path, _where(at[:depth], key))
        if found is None:
            if not create:
                return None, created
            found = here[key] = {}
            created.append(at[: depth + 1])
        here = found
    return here, created


def servers_in(
    config: JSONObject, path: Path, at: KeyPath = (), container: str = "mcpServers"
) -> JSONObject:
    """The `mcpServers` object of an MCP config (empty when absent); refuses a wrong shape.
    `at` leads to the object holding it (`("projects", root)` in `~/.claude.json`);
    `container` is its name in clients that call it otherwise (`servers`, `mcp`)."""
    holder, _ = _nested(config, at, path, create=False)
    if holder is None:
        return {}
    return _object_at(holder, container, path, _where(at, container)) or {}


def _where(at: KeyPath, key: str) -> str:
    return ".".join(f'"{k}"' for k in (*at, key))


def add_server(
    config: JSONObject,
    entry: JSONObject,
    path: Path,
    ours: Ours,
    at: KeyPath = (),
    container: str = "mcpServers",
) -> Added:
    """`config` with our server set to `entry`: replaced in place if present, else appended."""
    result = copy.deepcopy(config)
    holder, created = _nested(result, at, path, create=True)
    assert holder is not None
    servers = _object_at(holder, container, path, _where(at, container))
    if servers is None:
        servers = holder[container] = {}
        created.append((*at, container))
    if SERVER_KEY in servers and not ours(servers[SERVER_KEY]):
        other = servers[SERVER_KEY]
        command = other.get("command") if isinstance(other, dict) else None
        raise ConfigFileError(
            path,
            f"an MCP server named {SERVER_KEY!r} is already there and install did not write it "
            f"(command: {command!r}); rename or remove it, then run install again",
        )
    servers[SERVER_KEY] = copy.deepcopy(entry)
    return Added(result, tuple(created))


def remove_server(
    config: JSONObject, path: Path, ours: Ours, at: KeyPath = (), container: str = "mcpServers"
) -> JSONObject:
    """`config` without our server (nothing else changes; empty containers are left)."""
    result = copy.deepcopy(config)
    holder, _ = _nested(result, at, path, create=False)
    servers = _object_at(holder, container, path, _where(at, container)) if holder else None
    if servers is not None and SERVER_KEY in servers and ours(servers[SERVER_KEY]):
        del servers[SERVER_KEY]
    return result


# -- settings (.claude/settings.json) -------------------------------------------------------


def _event_groups(hooks: JSONObject, event: str, path: Path) -> list[object] | None:
    if event not in hooks:
        return None
    groups = hooks[event]
    if not isinstance(groups, list):
        raise ConfigFileError(
            path, f'"hooks"."{event}" should be an array, found {type_name(groups)}'
        )
    return groups


def hooks_in(settings: JSONObject) -> list[tuple[str, JSONObject]]:
    """Every hook object in a settings file, with its event (a wrong shape is skipped)."""
    return [(event, hook) for event, _, hook in matched_hooks_in(settings)]


def matched_hooks_in(settings: JSONObject) -> list[tuple[str, object, JSONObject]]:
    """Every hook object in a settings file with its event and its group's matcher (a wrong
    shape is skipped). Claude Code's and Gemini CLI's settings share this shape."""
    found: list[tuple[str, object, JSONObject]] = []
    hooks = settings.get("hooks")
    for event, groups in (hooks if isinstance(hooks, dict) else {}).items():
        for group in groups if isinstance(groups, list) else []:
            inner = group.get("hooks") if isinstance(group, dict) else None
            for hook in inner if isinstance(inner, list) else []:
                if isinstance(hook, dict):
                    found.append((event, group.get("matcher"), hook))
    return found


def remove_hooks(settings: JSONObject, path: Path, ours: Ours) -> JSONObject:
    """`settings` without any hook of ours, under every event.

    A matcher group that held only our hooks goes with them; a group shared with other hooks
    keeps those. An event list or `hooks` object left empty stays (see `prune`).
    """
    result = copy.deepcopy(settings)
    hooks = _object_at(result, "hooks", path, '"hooks"')
    if hooks is None:
        return result
    for event in list(hooks):
        groups = hooks[event]
        if not isinstance(groups, list):
            continue  # not ours to judge; Claude Code reports it
        kept: list[object] = []
        for group in groups:
            inner = group.get("hooks") if isinstance(group, dict) else None
            if not isinstance(group, dict) or not isinstance(inner, list):
                kept.append(group)
                continue
            others = [hook for hook in inner if not ours(hook)]
            if len(others) == len(inner):
                kept.append(group)
            elif others:
                kept.append({**group, "hooks": others})
        hooks[event] = kept
    return result


def refuse_second_reminder(
    settings: JSONObject, path: Path, written: JSONObject, otherwise: str = ""
) -> None:
    """ConfigFileError when `settings` (ours already taken out) still runs `mdsel-claude hook`:
    a hook install wrote and someone changed since (a `timeout` added, say), or one written by
    hand. Adding ours (`written`) beside it would remind the agent twice, and taking it over
    would lose the change; the user decides which one stays."""
    for event, _, hook in matched_hooks_in(settings):
        if runs_our_hook(hook):
            raise ConfigFileError(
                path,
                f"its {event} hook {hook.get('command')!r} runs mdsel-claude's hook, "
                f"{_changes(hook, written)} (changed by hand, or written so); install adds "
                "none beside it, which would remind the agent twice: remove that hook, or undo "
                f"the change, and run install again{otherwise}",
            )


def _changes(hook: JSONObject, written: JSONObject) -> str:
    """How `hook` differs from the hook install writes, in words (`timeout added`)."""
    parts = [f"{key} added" for key in hook if key not in written]
    parts += [f"{key} changed" for key in written if key in hook and hook[key] != written[key]]
    parts += [f"{key} removed" for key in written if key not in hook]
    return "with " + ", ".join(parts) if parts else "in another form"


def add_hook(
    settings: JSONObject,
    event: str,
    entry: JSONObject,
    path: Path,
    ours: Ours,
    allow_second: bool = False,
    also: Sequence[tuple[str, str]] = (),
) -> Added:
    """`settings` with our hook as its own `Read` matcher group at the end of `event`'s list
    (and of each event in `also`, with that matcher: Claude Code's PostToolUseFailure).

    Any hook of ours already present (under any event) is removed first, so running install
    again replaces it instead of adding a second one; any other hook that runs ours is refused
    (see `refuse_second_reminder`) unless `allow_second` (`--allow-duplicate`).
    """
    result = remove_hooks(settings, path, ours)
    if not allow_second:
        otherwise = "; or pass --allow-duplicate to add ours beside it"
        refuse_second_reminder(result, path, entry, otherwise)
    created: list[KeyPath] = []
    hooks = _object_at(result, "hooks", path, '"hooks"')
    if hooks is None:
        hooks = result["hooks"] = {}
        created.append(("hooks",))
    for name, matcher in ((event, HOOK_MATCHER), *also):
        groups = _event_groups(hooks, name, path)
        if groups is None:
            groups = hooks[name] = []
            created.append(("hooks", name))
        groups.append({"matcher": matcher, "hooks": [copy.deepcopy(entry)]})
    return Added(result, tuple(created))


# -- cleaning up ----------------------------------------------------------------------------


def prune(value: JSONObject, created: Sequence[KeyPath]) -> tuple[JSONObject, tuple[KeyPath, ...]]:
    """Remove the containers in `created` that are now empty, innermost first.

    Returns the new value and the containers of `created` that are still there (not empty,
    because something else was put in them since).
    """
    result = copy.deepcopy(value)
    remaining: list[KeyPath] = []
    for key_path in sorted(set(created), key=len, reverse=True):
        parent: object = result
        for key in key_path[:-1]:
            parent = parent.get(key) if isinstance(parent, dict) else None
        if not isinstance(parent, dict) or key_path[-1] not in parent:
            continue
        if parent[key_path[-1]] in ({}, []):
            del parent[key_path[-1]]
        else:
            remaining.append(key_path)
    remaining.sort(key=len)
    return result, tuple(remaining)
