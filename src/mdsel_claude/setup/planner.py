"""Work out what install and uninstall will do, as a `Plan` (see `steps`): nothing is touched.

Only our own entries are ever added or removed (see `entries`). What install had to create is
noted (see `ledger`), so that uninstall can take exactly that away again. The user-scope server
goes through the `claude` command (`claude_cli`).
"""

from __future__ import annotations

import os
from pathlib import Path

from mdsel_claude.setup import claude_cli, entries, jsonfile, ledger
from mdsel_claude.setup.claude_cli import show_command
from mdsel_claude.setup.entries import EXECUTABLE_NAME, SERVER_KEY
from mdsel_claude.setup.jsonfile import JSONObject
from mdsel_claude.setup.ledger import Created, State
from mdsel_claude.setup.paths import Locations
from mdsel_claude.setup.steps import (
    DeleteFile,
    MakeDir,
    Note,
    Plan,
    RemoveDir,
    RunClaude,
    Step,
    WriteFile,
)


def _file_step(path: Path, before: JSONObject | None, after: JSONObject, what: str) -> Step:
    if before == after:
        return Note(f"unchanged {path}: {what}")
    return WriteFile(path, after, before is None, what)


def _user_server_add(claude: str | None, executable: str) -> list[Step]:
    add = ("claude", "mcp", "add", "-s", "user", SERVER_KEY, "--", executable, "serve")
    if claude is None:
        return [
            Note(
                "the claude command is not on PATH, so the MCP server is not registered; "
                f"to register it, run:\n  {show_command(add)}"
            )
        ]
    current = claude_cli.get_server(claude)
    ours = (executable, "serve")
    if current is not None and current.user_scope and (current.command, current.args) == ours:
        return [Note(f"unchanged user MCP server {SERVER_KEY!r}: {executable} serve")]
    if current is not None and os.path.basename(current.command) != EXECUTABLE_NAME:
        return [
            Note(
                f"an MCP server named {SERVER_KEY!r} that is not mdsel-claude's is registered "
                f"({current.command}); left alone — remove or rename it, then install again"
            )
        ]
    steps: list[Step] = []
    if current is not None:
        # `get` found our `mdsel`; clear a user-scope one (if that is what it was) before adding.
        steps.append(RunClaude((claude, "mcp", "remove", SERVER_KEY, "-s", "user"), True))
    steps.append(RunClaude((claude, *add[1:])))
    return steps


def _user_server_remove(claude: str | None) -> list[Step]:
    remove = ("claude", "mcp", "remove", SERVER_KEY, "-s", "user")
    if claude is None:
        return [
            Note(
                "the claude command is not on PATH; if you registered the MCP server, "
                f"remove it with:\n  {show_command(remove)}"
            )
        ]
    current = claude_cli.get_server(claude)
    if current is None:
        return [Note(f"no MCP server named {SERVER_KEY!r} known to claude")]
    if os.path.basename(current.command) != EXECUTABLE_NAME:
        return [Note(f"the MCP server {SERVER_KEY!r} is not mdsel-claude's; left alone")]
    # `get` shows one scope's server even when several have one; remove the user one, if any.
    return [RunClaude((claude, *remove[1:]), may_fail=True)]


def plan_install(
    where: Locations,
    executable: str,
    min_words: int,
    event: str,
    state_file: Path,
    claude: str | None,
) -> Plan:
    """Work out an install: our server and hook in `where`, replacing earlier ones of ours."""
    state = ledger.load(state_file)
    steps: list[Step] = []
    if not where.settings_dir.is_dir():
        steps.append(MakeDir(where.settings_dir))
        state = state.with_dir(where.settings_dir, True)

    server = entries.server_entry(executable)
    if where.mcp_config is not None:
        before = jsonfile.load(where.mcp_config)
        added = entries.add_server(before or {}, server, where.mcp_config)
        state = _record(state, where.mcp_config, before, added)
        what = f"MCP server {SERVER_KEY!r} → {executable} serve"
        steps.append(_file_step(where.mcp_config, before, added.value, what))

    before = jsonfile.load(where.settings)
    old = state.created(where.settings)
    cleared, kept = entries.prune(entries.remove_hooks(before or {}, where.settings), old.keys)
    hook = entries.hook_entry(executable, min_words)
    added = entries.add_hook(cleared, event, hook, where.settings)
    created = Created(old.file or before is None, tuple(dict.fromkeys(kept + added.created)))
    state = state.with_file(where.settings, created)
    what = f"{event} hook on Read → {hook['command']}"
    steps.append(_file_step(where.settings, before, added.value, what))

    if where.mcp_config is None:
        steps.extend(_user_server_add(claude, executable))
    return Plan(tuple(steps), state, state_file, record_on_failure=True)


def _record(state: State, path: Path, before: JSONObject | None, added: entries.Added) -> State:
    old = state.created(path)
    keys = tuple(dict.fromkeys(old.keys + added.created))
    return state.with_file(path, Created(old.file or before is None, keys))


def _removal(
    state: State, path: Path, before: JSONObject | None, after: JSONObject, what: str
) -> tuple[State, Step | None]:
    """The step that takes our entry out of one file, pruning what install created there."""
    created = state.created(path)
    state = state.with_file(path, Created())
    if before is None:
        return state, None
    pruned, _ = entries.prune(after, created.keys)
    if created.file and pruned == {}:
        return state, DeleteFile(path)
    if pruned == before:
        return state, Note(f"nothing of mdsel-claude in {path}")
    return state, WriteFile(path, pruned, False, what)


def plan_uninstall(where: Locations, state_file: Path, claude: str | None) -> Plan:
    """Work out an uninstall: remove exactly our entries, and what install created for them."""
    state = ledger.load(state_file)
    steps: list[Step] = []
    if where.mcp_config is not None:
        before = jsonfile.load(where.mcp_config)
        after = entries.remove_server(before or {}, where.mcp_config)
        what = f"remove MCP server {SERVER_KEY!r}"
        state, step = _removal(state, where.mcp_config, before, after, what)
        steps.extend([step] if step else [])

    before = jsonfile.load(where.settings)
    after = entries.remove_hooks(before or {}, where.settings)
    state, step = _removal(state, where.settings, before, after, "remove the mdsel-claude hook")
    steps.extend([step] if step else [])

    if str(where.settings_dir) in state.dirs:
        state = state.with_dir(where.settings_dir, False)
        steps.append(RemoveDir(where.settings_dir))
    if where.mcp_config is None:
        steps.extend(_user_server_remove(claude))
    if not any(isinstance(s, (WriteFile, DeleteFile, RunClaude)) for s in steps):
        steps.append(Note(f"nothing of mdsel-claude is installed in {where.scope} scope"))
    return Plan(tuple(steps), state, state_file, record_on_failure=False)
