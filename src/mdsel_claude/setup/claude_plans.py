"""Claude Code's install and uninstall, worked out as a `Plan` (see `steps`): nothing is touched.

Only our own entries are ever added or removed (see `entry_edits`): what install wrote is noted
(see `ledger`), with what it had to create for it, so that uninstall can take exactly that away
again and leave look-alikes alone.

The local- and user-scope servers live in Claude Code's `~/.claude.json`, which this module
edits itself rather than through `claude mcp add`: that works without the `claude` command on
PATH, the change is shown exactly by `--dry-run`, the record of what was created makes the
uninstall exact, and no `claude` output has to be read back. The file is replaced atomically,
every other key keeps its value and order.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from mdsel_claude.setup import entries, entry_edits, jsonfile, ledger, ownership
from mdsel_claude.setup.dirs import with_scope_dirs, without_scope_dirs
from mdsel_claude.setup.entries import SERVER_KEY, KeyPath
from mdsel_claude.setup.errors import SetupError
from mdsel_claude.setup.ledger import FileRecord, InstallRecord, WrittenEntry
from mdsel_claude.setup.paths import Locations, is_own_checkout
from mdsel_claude.setup.plan_parts import (
    file_step,
    is_theirs,
    kept_as_theirs,
    lookalike_notes,
    ours_in,
    record_added,
    removal,
    server_at,
)
from mdsel_claude.setup.steps import DeleteFile, Note, Plan, Step, WriteFile


def _server_what(where: Locations) -> str:
    if where.scope == "local":
        return f"MCP server {SERVER_KEY!r} for project {where.servers_at[-1]}"
    return f"MCP server {SERVER_KEY!r}"


def refuse_own_checkout(where: Locations) -> None:
    """Project scope in a checkout of mdsel-claude would rewrite the plugin's own tracked
    `.mcp.json`; stop before that with what to do instead."""
    if where.portable and where.project_root and is_own_checkout(where.project_root):
        raise SetupError(
            f"{where.project_root} is the mdsel-claude checkout itself: project scope would write "
            ".mcp.json and .claude/settings.json into its repository; install in your project's "
            "directory instead, or here with the default local scope (or load the plugin from "
            "this checkout: claude --plugin-dir plugin)"
        )


def plan_install(
    where: Locations,
    executable: str,
    min_words: int,
    event: str,
    state_file: Path,
    mode: str = "reminder",
    allow_duplicate: bool = False,
) -> Plan:
    """Work out an install: our server and hook in `where`, replacing earlier ones of ours
    (another hook in that file that runs ours is refused, unless `allow_duplicate`)."""
    refuse_own_checkout(where)
    state = ledger.load(state_file)
    steps, state = with_scope_dirs(where, state)

    server = entries.server_entry(executable)
    at = server_at(where.servers_at)
    before = jsonfile.load(where.mcp_config)
    what = f"{_server_what(where)} → {executable} serve"
    found = entry_edits.servers_in(before or {}, where.mcp_config, where.servers_at)
    if is_theirs(state.created(where.mcp_config), found.get(SERVER_KEY), server, False, at):
        steps.append(kept_as_theirs(where.mcp_config, what))
    else:
        mine = ours_in(state.created(where.mcp_config), False, at, executable)
        added = entry_edits.add_server(
            before or {}, server, where.mcp_config, mine, where.servers_at
        )
        state = record_added(state, where.mcp_config, before, added, WrittenEntry(at, server))
        private = where.mcp_config.name == ".claude.json"
        steps.append(file_step(where.mcp_config, before, added.value, what, private))

    before = jsonfile.load(where.settings)
    old = state.created(where.settings)
    hook = entries.hook_entry(executable, min_words, mode)
    placements = entries.hook_placements(event)
    what = f"{event} hook on Read and Bash → {hook['command']}"
    if len(placements) > 1:
        what = f"{event} hook on Read and Bash, {entries.FAILURE_EVENT} on Read → {hook['command']}"
    there = entry_edits.matched_hooks_in(before or {})
    twins = [
        (name, matcher)
        for name, matcher, value in there
        if (name, matcher) in placements and is_theirs(old, value, hook, True, None)
    ]
    if twins:
        # Only what the record lists goes; the hand-written twin keeps reminding. Ours are
        # known by their value, so one written beside a twin would go with it at uninstall:
        # none is written.
        if len(placements) > 1:
            named = ", ".join(f"{name} hook (matcher {matcher!r})" for name, matcher in twins)
            what = f"{named} → {hook['command']}"
        mine = ours_in(old, True, None, None)
        cleared, kept = entry_edits.prune(
            entry_edits.remove_hooks(before or {}, where.settings, mine), old.keys
        )
        state = state.with_file(where.settings, FileRecord(old.file, kept))
        if cleared != (before or {}):
            steps.append(file_step(where.settings, before, cleared, "remove the recorded hook"))
        steps.append(kept_as_theirs(where.settings, what))
        return Plan(tuple(steps), state, state_file)
    mine = ours_in(old, True, None, executable)
    cleared, kept = entry_edits.prune(
        entry_edits.remove_hooks(before or {}, where.settings, mine), old.keys
    )
    added = entry_edits.add_hook(
        cleared, event, hook, where.settings, mine, allow_duplicate, placements[1:]
    )
    keys = tuple(dict.fromkeys(kept + added.created))
    wrote = tuple(WrittenEntry(("hooks", name), hook, hook=True) for name, _ in placements)
    state = state.with_file(where.settings, FileRecord(old.file or before is None, keys, wrote))
    steps.append(file_step(where.settings, before, added.value, what))
    steps += lookalike_notes(
        where.settings, entry_edits.remove_hooks(added.value, where.settings, mine)
    )
    return Plan(tuple(steps), state, state_file)


def plan_uninstall(
    where: Locations, state_file: Path, environ: Mapping[str, str] | None = None
) -> Plan:
    """Work out an uninstall: remove exactly our entries, and what install created for them.

    Only what the record lists is removed. An entry left that is exactly this installation's
    (as `ownership` judges it, with `environ`'s PATH) or of install's form with its program gone is
    named in `Plan.leftovers`: the record is missing (another `XDG_STATE_HOME`) or was lost, and
    uninstall must not report success with it still in place."""
    refuse_own_checkout(where)
    environ = os.environ if environ is None else environ
    leftovers: list[str] = []
    state = ledger.load(state_file)
    steps: list[Step] = []
    before = jsonfile.load(where.mcp_config)
    mine = ours_in(state.created(where.mcp_config), False, server_at(where.servers_at), None)
    after = entry_edits.remove_server(before or {}, where.mcp_config, mine, where.servers_at)
    what = f"remove {_server_what(where)}"
    chain = (*where.servers_at, "mcpServers")
    state, step = removal(state, where.mcp_config, (before, after), what, chain)
    steps.extend([step] if step else [])
    mine_there = entry_edits.servers_in(after, where.mcp_config, where.servers_at)
    steps += lookalike_notes(where.mcp_config, {"mcpServers": mine_there})
    if SERVER_KEY in mine_there:
        leftover = _leftover(mine_there[SERVER_KEY], False, environ)
        if leftover:
            where_ = f"{where.mcp_config}{_at(where)}"
            leftovers.append(f"MCP server {SERVER_KEY!r} in {where_} ({leftover})")

    before = jsonfile.load(where.settings)
    mine = ours_in(state.created(where.settings), True, None, None)
    after = entry_edits.remove_hooks(before or {}, where.settings, mine)
    change = (before, after)
    state, step = removal(state, where.settings, change, "remove the mdsel-claude hook")
    steps.extend([step] if step else [])
    steps += lookalike_notes(where.settings, after)
    for event, hook in entry_edits.hooks_in(after):
        leftover = _leftover(hook, True, environ)
        if leftover:
            command = hook.get("command")
            leftovers.append(f"{event} hook {command!r} in {where.settings} ({leftover})")

    state = without_scope_dirs(where, steps, state)
    if not any(isinstance(s, (WriteFile, DeleteFile)) for s in steps) and not leftovers:
        steps.append(Note(f"nothing of mdsel-claude is installed in {where.scope} scope"))
    if where.scope in ("user", "local"):
        steps += recorded_elsewhere(state, where.mcp_config, "CLAUDE_CONFIG_DIR")
    return Plan(tuple(steps), state, state_file, tuple(leftovers))


def recorded_elsewhere(
    state: InstallRecord,
    here: Path,
    variable: str,
    lists: str = "also lists entries",
    at: KeyPath | None = None,
) -> list[Step]:
    """A note naming the files of `here`'s name, other than `here`, that the record lists
    entries in (one written at `at`, when given): made with another `variable` (a user's
    configuration folder), which an uninstall without it does not reach."""
    target = str(jsonfile.write_target(here))
    others = sorted(
        name
        for name, created in state.files.items()
        if name != target
        and os.path.basename(name) == here.name
        and (at is None or any(w.at == at for w in created.written))
    )
    if not others:
        return []
    return [
        Note(
            f"the install record {lists} in {', '.join(others)} (installed with another "
            f"{variable}): uninstall with it set, or `mdsel-claude uninstall --all`"
        )
    ]


def _at(where: Locations) -> str:
    return f" projects[{where.servers_at[-1]!r}]" if where.servers_at else ""


def _leftover(value: object, hook: bool, environ: Mapping[str, str]) -> str | None:
    """For an entry the record does not list: what makes it exactly ours — this installation's
    (as doctor calls ours), or of install's form with its program gone — and the fix; else
    None (a look-alike, left alone without a word more)."""
    gone = ownership.missing_program(value, hook)
    if gone is not None:
        return f"its program {gone} no longer exists; delete the entry by hand"
    me = ownership.this_installation()
    if hook:
        command = value.get("command") if isinstance(value, dict) else None
        is_object = isinstance(value, dict) and set(value) == {"type", "command"}
        verdict = ownership.judge_hook(command, me, environ) if is_object else None
    else:
        verdict = ownership.judge_server(value, me, environ)
    if verdict is None or verdict.args is None or verdict.reason == ownership.PLUGIN_REASON:
        return None
    return "exactly as install writes it, but install did not write it: delete it by hand"
