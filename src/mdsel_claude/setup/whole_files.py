"""Whole files install writes (the Agent Skill, OpenCode's plugin): written when absent or still
ours, removed only when unchanged since.

A settings file holds our entry among the user's; these files are ours whole, so the install
record notes the SHA-256 of the text written. Install replaces a file only when it is absent or
holds exactly what the record says an install wrote (an older version of it); uninstall deletes
it only then. A file already holding exactly the text install would write, but not on the
record, stays the user's: install leaves it unrecorded, so uninstall leaves it too. A file of
the same name that install did not write, or one changed by hand since, is named and left
alone. The directories install had to make for it are noted and removed again
once empty (see `dirs.with_dirs`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path

from mdsel_claude.setup import jsonfile
from mdsel_claude.setup.dirs import with_dirs, without_dir, without_dirs
from mdsel_claude.setup.entries import KeyPath
from mdsel_claude.setup.ledger import FileRecord, InstallRecord, WrittenEntry
from mdsel_claude.setup.plan_parts import kept_as_theirs
from mdsel_claude.setup.steps import DeleteFile, Note, Plan, Step, WriteText

WHOLE_FILE: KeyPath = ("(whole file)",)
"""Where a whole file's record sits among a file's written entries."""


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def is_owned(created: FileRecord) -> bool:
    """Whether the record says install wrote this file whole."""
    return any(w.at == WHOLE_FILE for w in created.written)


def _recorded(created: FileRecord) -> set[str]:
    return {
        str(w.value.get("sha256"))
        for w in created.written
        if w.at == WHOLE_FILE and isinstance(w.value, dict)
    }


def plan_write(
    path: Path,
    text: str,
    what: str,
    state: InstallRecord,
    install_form: Callable[[bytes], bool] = lambda data: False,
) -> tuple[list[Step], InstallRecord, bool]:
    """Steps that put `text` at `path`, the record after them, and whether it could be done
    (False: a file there that install did not write, left alone with a note). A file the record
    does not list but that `install_form` recognises as exactly what an install writes (the
    record was lost, or kept elsewhere) is taken over; one that already holds `text` exactly is
    left as the user's and not recorded, as for entries (`plan_parts.is_theirs`)."""
    data = text.encode("utf-8")
    current = jsonfile.read_bytes(path)
    created = state.created(path)
    record = WrittenEntry(WHOLE_FILE, {"sha256": digest(data)})
    if current == data:
        if digest(data) in _recorded(created):
            return [Note(f"unchanged {path}: {what}")], state, True
        # The same text, but install did not write it (by hand, or with a record kept
        # elsewhere): it stays the user's, so that uninstall never deletes it.
        return [kept_as_theirs(path, what)], state, True
    ours = current is None or digest(current) in _recorded(created) or install_form(current)
    if not ours:
        note = Note(
            f"left alone: {path} exists and mdsel-claude did not write it (or it was changed "
            "since); move it away and run install again to replace it"
        )
        return [note], state, False
    steps, state = with_dirs(path, state)
    steps.append(WriteText(path, text, current is None, what))
    state = state.with_file(path, FileRecord(created.file or current is None, (), (record,)))
    return steps, state, True


def plan_remove(path: Path, state: InstallRecord) -> tuple[list[Step], InstallRecord]:
    """Steps that delete the file install wrote at `path` (if unchanged) and the directories it
    made for it, and the record after them."""
    created = state.created(path)
    current = jsonfile.read_bytes(path)
    steps: list[Step] = []
    if current is None:
        if is_owned(created):
            steps.append(Note(f"not found: {path} (written by install; gone already)"))
        state = state.with_file(path, FileRecord())
    elif digest(current) in _recorded(created):
        steps.append(DeleteFile(path, "install wrote it; unchanged since"))
        state = state.with_file(path, FileRecord())
    elif is_owned(created):
        steps.append(Note(f"left alone: {path} was changed since install wrote it"))
        state = state.with_file(path, FileRecord())
    else:
        steps.append(Note(f"left alone: {path} (mdsel-claude did not write it)"))
    return steps, without_dirs(path, steps, state)


def describe(path: Path, created: FileRecord) -> str:
    """`doctor --all`'s word on a recorded whole file: there as written, changed, or gone."""
    current = jsonfile.read_bytes(path)
    if current is None:
        return "gone (deleted since install)"
    if digest(current) in _recorded(created):
        return "ours, as install wrote it"
    return "changed since install wrote it (uninstall leaves it)"


def plan_remove_after(plan: Plan, path: Path) -> Plan:
    """`plan` (a server's removal) followed by deleting our whole file at `path` if unchanged
    (a plugin, a hooks file), and the folders install made for them both once empty."""
    removed, state = plan_remove(path, plan.state)
    deletes = any(isinstance(step, DeleteFile) for step in removed)
    earlier = [
        step
        for step in plan.steps
        # "nothing is installed" is said of the server's file alone: not so with ours gone.
        if not (deletes and isinstance(step, Note) and step.text.startswith("nothing of"))
    ]
    steps = [*earlier, *removed]
    state = without_dir(path.parent.parent, steps, state)
    return Plan(tuple(steps), state, plan.state_file, plan.leftovers)
