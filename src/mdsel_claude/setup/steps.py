"""Setup plans: the steps install and uninstall work out before touching anything; applying them.

A plan is plain data, so `--dry-run` prints it and tests inspect it; `apply` is the only code
here that changes files or directories.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from mdsel_claude.setup import jsonfile, ledger
from mdsel_claude.setup.jsonfile import JSONObject
from mdsel_claude.setup.ledger import InstallRecord


@dataclass(frozen=True, slots=True)
class WriteFile:
    """Replace (or create) a JSON file with a new value."""

    path: Path
    value: JSONObject
    created: bool
    """The file does not exist yet."""
    what: str
    """What changes in it, for the message."""
    private: bool = False
    """Created readable by its owner only (Claude Code's `~/.claude.json` holds account
    state, and Claude Code creates it so)."""


@dataclass(frozen=True, slots=True)
class WriteText:
    """Replace (or create) a text file (not JSON: Codex's TOML) with new text."""

    path: Path
    text: str
    created: bool
    what: str
    executable: bool = False
    """Made runnable by whoever may read it (a hook script its agent runs as a program)."""


@dataclass(frozen=True, slots=True)
class DeleteFile:
    """Delete a file install created, now that nothing is left in it."""

    path: Path
    why: str = "install created it; now empty"


@dataclass(frozen=True, slots=True)
class MakeDir:
    path: Path


@dataclass(frozen=True, slots=True)
class RemoveDir:
    """Remove a directory install created, if it is empty."""

    path: Path


@dataclass(frozen=True, slots=True)
class Note:
    """Something to tell the user; changes nothing."""

    text: str


Step = WriteFile | WriteText | DeleteFile | MakeDir | RemoveDir | Note


@dataclass(frozen=True, slots=True)
class Plan:
    """What one command will do, in order; `state` is the record to keep afterwards."""

    steps: tuple[Step, ...]
    state: InstallRecord
    """The record of what install created, to keep once the steps are done."""
    state_file: Path
    leftovers: tuple[str, ...] = ()
    """Entries exactly as install writes them that uninstall leaves in place because the record
    does not list them (see `claude_plans.plan_uninstall`): each in words; uninstall fails on
    them."""


def describe(step: Step, done: bool) -> str:
    """One line about a step: in the past tense once `done`, else as what would happen."""
    if isinstance(step, Note):
        return step.text
    if isinstance(step, (WriteFile, WriteText)):
        verb = (
            ("created" if done else "create") if step.created else ("updated" if done else "update")
        )
        text = f"{verb} {step.path}: {step.what}"
    elif isinstance(step, DeleteFile):
        text = f"{'deleted' if done else 'delete'} {step.path} ({step.why})"
    elif isinstance(step, MakeDir):
        text = f"{'created' if done else 'create'} directory {step.path}"
    else:
        text = f"{'removed' if done else 'remove'} empty directory {step.path}"
    return text if done else f"would {text}"


def change(step: Step) -> list[str]:
    """The lines a settings file's edit would change, as a unified diff of its text (all of it
    for a new file): what `--dry-run` shows under the step's line. A whole file of ours made
    anew (a skill, a plugin) is only named."""
    if isinstance(step, WriteFile):
        old, new = jsonfile.rendered(step.path, step.value)
    elif isinstance(step, WriteText) and not step.created:
        data = jsonfile.read_bytes(jsonfile.write_target(step.path))
        old, new = (None if data is None else data.decode("utf-8", "replace")), step.text
    else:
        return []
    from difflib import unified_diff

    before = "/dev/null" if old is None else str(step.path)
    lines = unified_diff(
        (old or "").splitlines(), new.splitlines(), before, str(step.path), n=2, lineterm=""
    )
    return [f"    {line}" for line in lines]


class CannotWrite(OSError):
    """A file the plan must write cannot be written; found before anything is written."""


def preflight(steps: Sequence[Step]) -> None:
    """Check every file the steps write before the first write, so that a plan that cannot
    finish does not start (no half install), and the error names the real file."""
    made = {step.path for step in steps if isinstance(step, MakeDir)}
    for step in steps:
        if not isinstance(step, (WriteFile, WriteText)):
            continue
        target = jsonfile.write_target(step.path)
        folder = target.parent
        if folder not in made and not folder.is_dir():
            raise CannotWrite(f"cannot write {target}: its directory {folder} does not exist")
        if folder not in made and not os.access(folder, os.W_OK | os.X_OK):
            raise CannotWrite(f"cannot write {target}: no permission to write in {folder}")
        try:
            mode = target.stat().st_mode
        except FileNotFoundError:
            continue
        # A settings file made read-only was made so on purpose: the atomic replace would
        # overwrite it anyway (it only needs the directory), so refuse instead.
        if not mode & stat.S_IWUSR or not os.access(target, os.W_OK):
            raise CannotWrite(f"{target} is read-only; make it writable to let install change it")


def apply(plan: Plan, out: list[str]) -> None:
    """Carry out a plan's steps in order; messages go to `out`.

    The record of what the plan writes is saved first: if it cannot be, nothing is changed.
    If a step then fails, every step done so far is undone and the old record put back, so a
    failed run leaves the files as they were.
    """
    preflight(plan.steps)
    previous = ledger.load(plan.state_file)
    try:
        ledger.save(plan.state, plan.state_file)
    except OSError as error:
        raise CannotWrite(
            f"cannot write the install record {plan.state_file} "
            f"({error.strerror or error}); nothing was changed"
        ) from None
    undo: list[Callable[[], object]] = []
    try:
        _apply_steps(plan.steps, out, undo)
    except BaseException:
        for action in reversed(undo):
            with contextlib.suppress(OSError):
                action()
        with contextlib.suppress(OSError):
            ledger.save(previous, plan.state_file)
        raise


def _restore(path: Path, data: bytes | None) -> Callable[[], object]:
    """Undo a change to a file: put back its bytes, or remove it if there was none."""
    if data is None:
        return lambda: jsonfile.delete(path)
    return lambda: jsonfile.write_bytes_atomic(path, data)


def _apply_steps(steps: Sequence[Step], out: list[str], undo: list[Callable[[], object]]) -> None:
    for step in steps:
        if isinstance(step, MakeDir):
            if not step.path.is_dir():
                step.path.mkdir(parents=True)
                undo.append(step.path.rmdir)
        elif isinstance(step, WriteFile):
            undo.append(_restore(step.path, jsonfile.read_bytes(jsonfile.write_target(step.path))))
            jsonfile.write_atomic(step.path, step.value)
            if step.created and step.private:
                jsonfile.write_target(step.path).chmod(0o600)
        elif isinstance(step, WriteText):
            undo.append(_restore(step.path, jsonfile.read_bytes(jsonfile.write_target(step.path))))
            jsonfile.write_bytes_atomic(step.path, step.text.encode("utf-8"))
            if step.executable:
                target = jsonfile.write_target(step.path)
                mode = target.stat().st_mode & 0o7777
                target.chmod(mode | (mode & 0o444) >> 2)
        elif isinstance(step, DeleteFile):
            undo.append(_restore(step.path, jsonfile.read_bytes(jsonfile.write_target(step.path))))
            jsonfile.delete(step.path)
        elif isinstance(step, RemoveDir):
            try:
                step.path.rmdir()
            except FileNotFoundError:  # removed since the plan was made: nothing left to do
                out.append(f"{step.path} was already gone")
                continue
            except OSError as exc:
                full = exc.errno in (errno.ENOTEMPTY, errno.EEXIST)
                out.append(f"kept {step.path} ({'not empty' if full else exc.strerror or exc})")
                continue
            undo.append(step.path.mkdir)
        out.append(describe(step, done=True))
