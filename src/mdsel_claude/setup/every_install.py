"""`uninstall --all` and `doctor --all`: every file the install record knows, in every project
and client.

The record (see `ledger`) lists, by real path, each file install wrote an entry into — the
projects' `.claude/settings*.json` and `.mcp.json`, `~/.claude.json` with one server per
local-scope project, other clients' configurations — with the value written and what install
created around it. Removing everything is then one removal per recorded file, of exactly the
recorded values (see `plan_parts.removal`), whatever scope or client wrote them; what is no longer
there is said, not guessed at. Each file is its own plan, applied before the next is worked out,
so one unreadable file stops only itself.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping
from pathlib import Path

from mdsel_claude.setup import (
    entries,
    entry_edits,
    instructions,
    jsonfile,
    ledger,
    ownership,
    whole_files,
)
from mdsel_claude.setup.clients import recorded_file
from mdsel_claude.setup.entries import SERVER_KEY
from mdsel_claude.setup.jsonfile import JSONObject
from mdsel_claude.setup.ledger import FileRecord, InstallRecord, WrittenEntry
from mdsel_claude.setup.plan_parts import lookalike_notes, removal
from mdsel_claude.setup.probes import Report
from mdsel_claude.setup.steps import Note, Plan, RemoveDir, Step


def recorded_files(state: InstallRecord) -> list[Path]:
    """The files the record lists, in a stable order."""
    return [Path(name) for name in sorted(state.files)]


def describe_entry(written: WrittenEntry) -> str:
    """A recorded entry in words: which server or hook, and where in its file."""
    if written.hook:
        command = written.value.get("command") if isinstance(written.value, dict) else None
        return f"{written.at[-1]} hook {command!r}"
    holder = written.at[:-2]
    inside = f" in {holder[0]}[{holder[1]!r}]" if len(holder) == 2 else ""
    return f"MCP server {written.at[-1]!r}{inside}"


def _present(value: JSONObject, path: Path, created: FileRecord, written: WrittenEntry) -> bool:
    """Whether `written` is still in `value` exactly as install wrote it."""
    if written.hook:
        return any(created.wrote(hook, True) for _, hook in entry_edits.hooks_in(value))
    servers = entry_edits.servers_in(value, path, written.at[:-2], written.at[-2])
    name = written.at[-1]
    return name in servers and created.wrote(servers[name], False, written.at)


def _without(value: JSONObject, path: Path, created: FileRecord) -> JSONObject:
    """`value` without every entry the record lists for it."""
    after = entry_edits.remove_hooks(value, path, lambda hook: created.wrote(hook, True))
    servers = [w.at for w in created.written if not w.hook]
    if created.legacy and not servers:  # recorded before entries were: the top-level server
        servers = [("mcpServers", SERVER_KEY)]
    for at in dict.fromkeys(servers):
        mine = lambda server, at=at: created.wrote(server, False, at)  # noqa: E731
        after = entry_edits.remove_server(after, path, mine, at[:-2], at[-2])
    return after


def plan_file(path: Path, state_file: Path) -> Plan:
    """Remove from one recorded file everything the record says install wrote there."""
    own = recorded_file(path)
    if own is not None:  # a client's own format
        return own.plan_uninstall(path, state_file)
    if instructions.is_block(ledger.load(state_file).created(path)):  # our block in prose
        return instructions.plan_file(path, state_file, ledger.load(state_file))
    if whole_files.is_owned(
        ledger.load(state_file).created(path)
    ):  # a file of ours whole (a skill)
        removed, kept = whole_files.plan_remove(path, ledger.load(state_file))
        return Plan(tuple(removed), kept, state_file)
    state = _rekeyed(ledger.load(state_file), path)
    created = state.created(path)
    before = jsonfile.load(path)
    if before is None:
        gone = Note(f"not found: {path} (recorded by install; gone already)")
        return Plan((gone,), state.with_file(path, FileRecord()), state_file)
    missing = [w for w in created.written if not _present(before, path, created, w)]
    steps: list[Step] = [
        Note(f"not found: {describe_entry(w)} in {path} (removed or changed since install)")
        for w in missing
    ]
    after = _without(before, path, created)
    state, step = removal(state, path, (before, after), "remove what mdsel-claude installed")
    steps += [step] if step else []
    steps += lookalike_notes(path, after)
    return Plan(tuple(steps), state, state_file)


def _program(written: WrittenEntry) -> str:
    """The program a recorded entry runs, in any client's shape (OpenCode's `command` is a
    list): the record says install wrote it, so a path that no longer exists is ours, gone."""
    value = written.value
    command = value.get("command") if isinstance(value, dict) else None
    if isinstance(command, list):
        return command[0] if command and isinstance(command[0], str) else ""
    return entries.program_of(value, written.hook)


def _rekeyed(state: InstallRecord, path: Path) -> InstallRecord:
    """`state` with the record of `path` under the file it now resolves to: a settings file
    moved elsewhere and linked back since install still holds what install wrote."""
    real = str(jsonfile.write_target(path))
    if real == str(path) or str(path) not in state.files or real in state.files:
        return state
    files = dict(state.files)
    # The file there now is not the one install created: empty it of our entries, keep it.
    files[real] = dataclasses.replace(files.pop(str(path)), file=False)
    return InstallRecord(files, state.dirs)


def plan_dirs(state_file: Path) -> Plan:
    """Remove the directories install made, innermost first, when they are empty; forget them
    either way (a directory with something else in it is kept and said so) — but for one that
    still holds a file the record lists (its removal failed), kept on record for the next run."""
    state = ledger.load(state_file)
    steps: list[Step] = []
    for folder in sorted(state.dirs, key=lambda d: d.count(os.sep), reverse=True):
        if any(name.startswith(folder.rstrip(os.sep) + os.sep) for name in state.files):
            continue  # a file there could not be done: its folders wait for the next run
        state = state.with_dir(Path(folder), False)
        if os.path.isdir(folder):
            steps.append(RemoveDir(Path(folder)))
    return Plan(tuple(steps), state, state_file)


def report_all(state_file: Path, environ: Mapping[str, str]) -> Report:
    """`doctor --all`: each recorded entry, whether it is still there, and whether the program
    it runs still exists and is this installation's. Nothing is run or written."""
    report = Report()
    state = ledger.load(state_file)
    me = ownership.this_installation()
    report.say(f"install record {state_file}")
    if not state.files:
        report.say(
            "  it lists nothing: no install was made with this record (one made with another "
            "XDG_STATE_HOME is recorded there, not here)"
        )
        return report
    stale = False
    for path in recorded_files(state):
        created = state.created(path)
        report.say(f"  {path}")
        if whole_files.is_owned(created):
            report.say("    " + whole_files.describe(path, created))
            continue
        if instructions.is_block(created):
            report.say("    " + instructions.describe(path, created))
            continue
        own = recorded_file(path)
        try:
            value = own.values(path) if own is not None else jsonfile.load(path)
        except jsonfile.ConfigFileError as error:
            report.fail(f"cannot be read: {error}")
            continue
        if value is None:
            report.say("    gone (deleted since install)")
            continue
        if own is not None:
            report.say(f"    {own.what}")
        for written in created.written:
            what = describe_entry(written)
            if own is not None and not own.program(written):
                continue  # a setting beside a program: its client's own doctor checks it
            try:
                present = _present(value, path, created, written)
            except jsonfile.ConfigFileError as error:  # the file's shape changed since install
                report.fail(f"{what}: cannot be checked: {error}")
                continue
            if not present:
                report.say(f"    {what}: not there any more (removed or changed by hand)")
                continue
            program = _program(written)
            if os.path.isabs(program) and not os.path.lexists(program):
                stale = True
                report.fail(f"{what} runs {program}, which no longer exists")
                continue
            problem = ownership.program_problem(program, me, environ)
            report.say(f"    {what}: " + (problem or f"ours, runs {program}"))
    if stale:
        report.fail(
            "entries above run a program that is gone (mdsel-claude uninstalled or moved): "
            "`mdsel-claude uninstall --all` removes everything install wrote, or run "
            "`mdsel-claude install` again (same scope, in that project) to point them here"
        )
    return report
