"""The parts every client's install and uninstall plan is made of: the step that writes one file,
where our server sits in it, which entries there are ours and which are the user's, and what the
install record gains and loses with each edit. Claude Code's own plans are `claude_plans`'; the
other clients' are their adapters' (`clients/`).
"""

from __future__ import annotations

from pathlib import Path

from mdsel_claude.setup import entries, entry_edits, ledger
from mdsel_claude.setup.entries import SERVER_KEY, KeyPath
from mdsel_claude.setup.jsonfile import JSONObject
from mdsel_claude.setup.ledger import FileRecord, InstallRecord, WrittenEntry
from mdsel_claude.setup.steps import DeleteFile, Note, Step, WriteFile


def file_step(
    path: Path, before: JSONObject | None, after: JSONObject, what: str, private: bool = False
) -> Step:
    if before == after:
        return Note(f"unchanged {path}: {what}")
    return WriteFile(path, after, before is None, what, private)


def server_at(servers_at: KeyPath, container: str = "mcpServers") -> KeyPath:
    """Where our server sits in its file: `("mcpServers", "mdsel")`, or deeper in a shared one."""
    return (*servers_at, container, SERVER_KEY)


def ours_in(
    created: FileRecord, hook: bool, at: KeyPath | None, executable: str | None
) -> entries.Ours:
    """What counts as ours in a file: what the record says install wrote there (at `at`, for a
    server); when installing with `executable`, also an entry exactly as that install writes
    it. Never a look-alike."""

    def mine(value: object) -> bool:
        return created.wrote(value, hook, at) or (
            executable is not None and entries.is_install_form(value, executable)
        )

    return mine


def is_theirs(
    created: FileRecord, value: object, entry: object, hook: bool, at: KeyPath | None
) -> bool:
    """Whether `value`, found where install would write `entry`, is exactly `entry` but not on
    the record: written by hand (or by an install whose record is kept elsewhere). Install
    leaves it and does not note it, so that uninstall never deletes what it did not write."""
    return ledger.same_value(value, entry) and not created.wrote(value, hook, at)


def kept_as_theirs(path: Path, what: str) -> Note:
    """The note for an entry `is_theirs` found: left as it is, not taken over."""
    return Note(
        f"unchanged {path}: {what} is there already, exactly as install writes it, but "
        "install did not write it; it stays yours (uninstall leaves it)"
    )


def lookalike_notes(path: Path, remaining: JSONObject) -> list[Step]:
    """A note for each entry left in a file that looks like ours but that install did not
    write: never removed, but worth knowing about."""
    return [
        Note(f"left alone in {path}: {found} — install did not write it")
        for found in entries.lookalikes(remaining)
    ]


def record_added(
    state: InstallRecord,
    path: Path,
    before: JSONObject | None,
    added: entry_edits.Added,
    wrote: WrittenEntry,
) -> InstallRecord:
    """The record with `wrote` (replacing what was written at the same place) and the
    containers `added` created."""
    old = state.created(path)
    keys = tuple(dict.fromkeys(old.keys + added.created))
    written = (*(w for w in old.written if w.at != wrote.at), wrote)
    return state.with_file(path, FileRecord(old.file or before is None, keys, written, old.legacy))


def removal(
    state: InstallRecord,
    path: Path,
    change: tuple[JSONObject | None, JSONObject],
    what: str,
    chain: KeyPath | None = None,
) -> tuple[InstallRecord, Step | None]:
    """The step that takes our entry out of one file, pruning what install created there.

    `chain` is the key path of the container that held our entry, when the file is shared with
    other installs (`~/.claude.json` holds the servers of every local-scope project and the
    user-scope one): only the containers along it are pruned and forgotten, the record of the
    others stays. Without it, everything install created in the file is ours.
    """
    before, after = change
    created = state.created(path)
    mine: tuple[KeyPath, ...] = created.keys
    others: tuple[KeyPath, ...] = ()
    written: tuple[WrittenEntry, ...] = ()
    if chain is not None:
        mine = tuple(k for k in created.keys if chain[: len(k)] == k)
        others = tuple(k for k in created.keys if k not in mine)
        written = tuple(w for w in created.written if w.at[: len(chain)] != chain)
    if before is None:
        return state.with_file(path, FileRecord()), None
    pruned, remaining = entry_edits.prune(after, mine)
    if created.file and pruned == {}:
        return state.with_file(path, FileRecord()), DeleteFile(path)
    if chain is None:
        state = state.with_file(path, FileRecord())
    else:  # the file and the other installs' containers and entries stay on record
        kept = FileRecord(created.file, (*others, *remaining), written, created.legacy)
        state = state.with_file(path, kept)
    if pruned == before:
        return state, Note(f"nothing of mdsel-claude's install in {path}")
    return state, WriteFile(path, pruned, False, what)
