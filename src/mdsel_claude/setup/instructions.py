"""`install --instructions`: our block in the instructions file an agent reads, and out again.

Which file is the client's to say (`Target`, from `Client.instructions` or Claude Code's
scopes); the edit is the same for every agent (see `instructions_block`): the block appended
as one run, the run noted in the install record, and uninstall taking out exactly that run.
The record also notes whether install created the file (then deleted again when only the
block is left) and whose block it is: two installs that read the same file (Claude Code's and
OpenCode's `CLAUDE.md`, say) share one block, which goes with the last of them.

An instructions file is read only when it is a regular file (not through a symlink: the link
may lead into another repository or a shared dotfiles folder, so the block is added by hand
there), under `MAX_BYTES`, and UTF-8; anything else is refused, unchanged, naming the file.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from mdsel_claude.setup import instructions_block, jsonfile
from mdsel_claude.setup.dirs import with_dirs, without_dirs, without_emptied
from mdsel_claude.setup.entries import KeyPath
from mdsel_claude.setup.jsonfile import ConfigFileError
from mdsel_claude.setup.ledger import FileRecord, InstallRecord, WrittenEntry
from mdsel_claude.setup.probes import Report
from mdsel_claude.setup.steps import DeleteFile, Note, Plan, Step, WriteText

MAX_BYTES = 1024 * 1024
"""The largest instructions file edited: agents read far less of one (Codex CLI 32 KiB)."""

BLOCK_AT: KeyPath = ("(instructions block)",)
"""Where the block's record sits among a file's written entries."""

WHAT = "the mdsel-claude instructions block (when to use mdsel_index and mdsel_select)"
BY_HAND = "docs/clients.md#instructions-files shows the block"


@dataclass(frozen=True, slots=True)
class Target:
    """The instructions file of one client's scope."""

    path: Path
    """Where install writes the block: the file the agent reads there now."""
    owner: str
    """Whose block it is, in the record: `client:scope` (`claude:local`, `codex:user`)."""
    also: tuple[Path, ...] = ()
    """Files the agent reads there in other cases (an earlier install may have written the
    block into one): uninstall and doctor look there too."""
    notes: tuple[str, ...] = ()
    """What install and doctor say about the file (another the agent reads in its place)."""


@dataclass(frozen=True, slots=True)
class Record:
    """What the install record says of the block in one file."""

    piece: str
    """The run install appended (the blank line before the block, and the block)."""
    block: str
    owners: tuple[str, ...]

    def written(self) -> WrittenEntry:
        value = {"piece": self.piece, "block": self.block, "owners": list(self.owners)}
        return WrittenEntry(BLOCK_AT, value)


def recorded(created: FileRecord) -> Record | None:
    """The block's record in a file's, if install wrote one there."""
    for written in created.written:
        value = written.value
        if written.at != BLOCK_AT or not isinstance(value, dict):
            continue
        piece, ours, owners = value.get("piece"), value.get("block"), value.get("owners")
        if isinstance(piece, str) and isinstance(ours, str) and isinstance(owners, list):
            return Record(piece, ours, tuple(o for o in owners if isinstance(o, str)))
    return None


def is_block(created: FileRecord) -> bool:
    """Whether a recorded file is an instructions file install put the block in."""
    return any(w.at == BLOCK_AT for w in created.written)


def read(path: Path) -> str | None:
    """The text of the instructions file at `path`, or None when there is none; a symlink,
    anything but a regular file, a file over MAX_BYTES or one that is not UTF-8 is a
    ConfigFileError naming it (the file is left untouched)."""
    if os.path.islink(path):
        raise ConfigFileError(
            path,
            f"is a symlink (to {os.readlink(path)}); install edits an instructions file only "
            f"where it lies: add the block by hand where the link leads ({BY_HAND})",
        )
    try:
        data = jsonfile.read_bytes(path, MAX_BYTES)
    except ConfigFileError as error:
        raise ConfigFileError(
            path,
            f"{error.problem}; install edits only a regular UTF-8 file of at most "
            f"{MAX_BYTES} bytes: add the block by hand ({BY_HAND})",
        ) from None
    if data is None:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ConfigFileError(
            path, f"is not UTF-8 text (byte {error.start}); add the block by hand ({BY_HAND})"
        ) from None


def _with_record(
    state: InstallRecord, path: Path, file: bool, record: Record | None
) -> InstallRecord:
    return state.with_file(
        path, FileRecord(file, (), () if record is None else (record.written(),))
    )


def add(target: Target, state: InstallRecord) -> tuple[list[Step], InstallRecord]:
    """The steps that put the block in `target`'s file (once, however often install runs),
    and the record after them."""
    path = target.path
    text = read(path)
    created = state.created(path)
    old = recorded(created)
    steps: list[Step] = [Note(note) for note in target.notes]
    owners = tuple(dict.fromkeys((*(old.owners if old else ()), target.owner)))
    if text is None:
        made, state = with_dirs(path, state)
        inserted = instructions_block.append("")
        steps += [*made, WriteText(path, inserted.text, True, WHAT)]
        record = Record(inserted.piece, inserted.block, owners)
        return steps, _with_record(state, path, True, record)
    found = state_of(text, old)
    if found == "present" and old is not None:
        steps.append(Note(f"unchanged {path}: {WHAT}"))
        if old.block not in instructions_block.blocks():  # brought up to date by hand
            ours = next(b for b in instructions_block.blocks() if b in text)
            old = Record(ours, ours, owners)
        return steps, _with_record(state, path, created.file, Record(old.piece, old.block, owners))
    if found == "present":
        steps.append(
            Note(
                f"unchanged {path}: {WHAT} is there already, exactly as install writes it, but "
                "install did not write it; it stays yours (uninstall leaves it)"
            )
        )
        return steps, state
    if found == "older" and old is not None:
        new = instructions_block.replace(text, old.block)
        if new is not None:
            ours = instructions_block.block(instructions_block.ending_of(old.block))
            piece = old.piece[: len(old.piece) - len(old.block)] + ours
            steps.append(WriteText(path, new, False, f"{WHAT}, as this version writes it"))
            return steps, _with_record(state, path, created.file, Record(piece, ours, owners))
    if found == "edited":
        steps.append(
            Note(
                f"left alone: {path} holds an mdsel-claude instructions block changed by hand; "
                "delete it (from its begin line to its end line) to let install write it again"
            )
        )
        return steps, state
    inserted = instructions_block.append(text)
    steps.append(WriteText(path, inserted.text, False, WHAT))
    record = Record(inserted.piece, inserted.block, owners)
    return steps, _with_record(state, path, created.file and old is not None, record)


def state_of(text: str, old: Record | None) -> str:
    """What `text` holds of the block (see `instructions_block.state`)."""
    return instructions_block.state(text, old.block if old else None)


def remove(
    paths: Sequence[Path], owner: str | None, state: InstallRecord
) -> tuple[list[Step], InstallRecord]:
    """The steps that take the block out of each of `paths` where the record says install put
    it for `owner` (None: for every install), and the record after them. A block another
    install still uses stays; one changed by hand since is left, and said so."""
    steps: list[Step] = []
    for path in dict.fromkeys(paths):
        created = state.created(path)
        old = recorded(created)
        if old is None or (owner is not None and owner not in old.owners):
            continue
        others = tuple(o for o in old.owners if o != owner) if owner is not None else ()
        if others:
            record = Record(old.piece, old.block, others)
            state = _with_record(state, path, created.file, record)
            steps.append(Note(f"kept {WHAT} in {path}: the install for {', '.join(others)} "
                              "uses it too"))  # fmt: skip
            continue
        text = read(path)
        state = _with_record(state, path, False, None)
        if text is None:
            steps.append(Note(f"not found: {path} (install put the block there; gone already)"))
            state = without_dirs(path, steps, state)
            continue
        after = instructions_block.take_out(text, old.piece, old.block)
        if after is None:  # the file's line endings converted since, the block's with them
            swap = instructions_block.respelled
            after = instructions_block.take_out(text, swap(old.piece), swap(old.block))
        if after is None:
            changed = state_of(text, old) == "edited"
            steps.append(
                Note(
                    f"left alone: the mdsel-claude instructions block in {path} was changed by "
                    "hand since install wrote it; delete it by hand"
                    if changed
                    else f"not found: the mdsel-claude instructions block in {path} "
                    "(removed since install wrote it)"
                )
            )
            continue
        if after == "" and created.file:
            steps.append(DeleteFile(path, "install created it; only the block was in it"))
        else:
            steps.append(WriteText(path, after, False, f"remove {WHAT}"))
        state = without_dirs(path, steps, state)
    return steps, state


def with_block(plan: Plan, target: Target) -> Plan:
    """`plan`, then the block put in `target`'s file."""
    steps, state = add(target, plan.state)
    return Plan((*plan.steps, *steps), state, plan.state_file, plan.leftovers)


def without_block(plan: Plan, target: Target) -> Plan:
    """`plan`, then the block taken out of `target`'s files, where install put it."""
    steps, state = remove((target.path, *target.also), target.owner, plan.state)
    kept = plan.steps
    if any(isinstance(step, (WriteText, DeleteFile)) for step in steps):
        # The plan's "nothing is installed" is about its own files: the block was.
        kept = tuple(s for s in kept if not _says_nothing(s))
    joined = [*kept, *steps]
    state = without_emptied(joined, state)
    return Plan(tuple(joined), state, plan.state_file, plan.leftovers)


def _says_nothing(step: Step) -> bool:
    return isinstance(step, Note) and step.text.startswith("nothing of mdsel-claude")


def plan_file(path: Path, state_file: Path, state: InstallRecord) -> Plan:
    """`uninstall --all` for one recorded instructions file: the block out, for every install."""
    steps, state = remove((path,), None, state)
    return Plan(tuple(steps), state, state_file)


def describe(path: Path, created: FileRecord) -> str:
    """`doctor --all`'s word on a recorded instructions file."""
    try:
        text = read(path)
    except ConfigFileError as error:
        return f"cannot be read: {error.problem}"
    if text is None:
        return "gone (deleted since install)"
    return _WORDS[state_of(text, recorded(created))]


_WORDS = {
    "present": "the mdsel-claude instructions block: present, as install writes it",
    "older": "the mdsel-claude instructions block: as an earlier version wrote it "
    "(install --instructions again updates it)",
    "edited": "the mdsel-claude instructions block: edited by hand (uninstall leaves it)",
    "absent": "the mdsel-claude instructions block: absent (removed by hand)",
}


def report(scope: str, target: Target, state: InstallRecord, flag: str, out: Report) -> None:
    """Doctor's lines on the block in one scope's instructions file: present, absent (it is
    optional: the install command that adds it) or edited. Never a failure."""
    for path in (target.path, *target.also):
        try:
            text = read(path)
        except ConfigFileError as error:
            out.say(f"  instructions {scope} ({path}): cannot be checked: {error.problem}")
            continue
        found = "absent" if text is None else state_of(text, recorded(state.created(path)))
        if path != target.path and found == "absent":
            continue
        if found == "absent":
            where = "no file" if text is None else "no block"
            out.say(
                f"  instructions {scope} ({path}): {where} (optional: `mdsel-claude install"
                f"{flag} --instructions` adds it)"
            )
            continue
        out.say(f"  instructions {scope} ({path}): {_WORDS[found].split(': ', 1)[1]}")
    for note in target.notes:
        out.say(f"    note: {note}")
