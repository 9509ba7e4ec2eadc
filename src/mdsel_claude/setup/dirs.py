"""The directories install makes for the files it writes, and their removal once empty again.

A directory install had to make (`.claude/`, a client's configuration folder) is noted in the
record with the entries it was made for, so that the uninstall that leaves it empty removes it;
one that was already there is never install's to remove. The home directory is never made.
"""

from __future__ import annotations

import os
from pathlib import Path

from mdsel_claude.setup.ledger import InstallRecord
from mdsel_claude.setup.paths import Locations
from mdsel_claude.setup.steps import DeleteFile, MakeDir, RemoveDir, Step

# -- Claude Code's scopes (the folders of their two files) ----------------------------------


def with_scope_dirs(where: Locations, state: InstallRecord) -> tuple[list[Step], InstallRecord]:
    """Make the missing folders of `where`'s two files (`.claude/`, and every missing folder
    above a CLAUDE_CONFIG_DIR), and note each, so that uninstall removes them all again."""
    steps: list[Step] = []
    # The home directory is never made (missing_dirs stops there): a missing one is a broken
    # account (preflight says so), and setup's lock lives there.
    for folder in dict.fromkeys((where.mcp_config.parent, where.settings_dir)):
        for missing in missing_dirs(folder):
            if MakeDir(missing) not in steps:  # the two files may share missing folders
                steps.append(MakeDir(missing))
                state = state.with_dir(missing, True)
    return steps, state


def without_scope_dirs(where: Locations, steps: list[Step], state: InstallRecord) -> InstallRecord:
    """Remove the directories install made for `where`'s files once the steps leave them empty,
    innermost first. A directory another scope still uses (local and project share `.claude`)
    stays on record, so that the uninstall that empties it removes it."""
    for folder in dict.fromkeys((where.settings_dir, where.mcp_config.parent)):
        state = without_dir(folder, steps, state)
    return state


# -- directories made for a file (other clients' configuration folders) ---------------------


def missing_dirs(folder: Path) -> list[Path]:
    """The directories to make for `folder` to exist, outermost first (never the home)."""
    missing: list[Path] = []
    while not folder.is_dir() and folder != Path.home() and folder.parent != folder:
        missing.insert(0, folder)
        folder = folder.parent
    return missing


def with_dirs(path: Path, state: InstallRecord) -> tuple[list[Step], InstallRecord]:
    steps: list[Step] = []
    for folder in missing_dirs(path.parent):
        steps.append(MakeDir(folder))
        state = state.with_dir(folder, True)
    return steps, state


def without_dirs(path: Path, steps: list[Step], state: InstallRecord) -> InstallRecord:
    """Remove, innermost first, the directories install made for `path` once they are empty."""
    return without_dir(path.parent, steps, state)


def without_dir(folder: Path, steps: list[Step], state: InstallRecord) -> InstallRecord:
    """Remove `folder` and the recorded folders above it, innermost first, once what the steps
    delete or remove leaves them empty (a folder two removals share goes with the second)."""
    gone = {step.path for step in steps if isinstance(step, (DeleteFile, RemoveDir))}
    while str(folder) in state.dirs and folder not in gone:
        try:
            left = {folder / name for name in os.listdir(folder)}
        except FileNotFoundError:  # removed by hand: off the record, nothing to do
            state = state.with_dir(folder, False)
            gone.add(folder)
            folder = folder.parent
            continue
        except OSError:
            left = set()  # unreadable: rmdir says whether it is empty
        if not left <= gone:
            break
        state = state.with_dir(folder, False)
        steps.append(RemoveDir(folder))
        gone.add(folder)
        folder = folder.parent
    return state


def without_emptied(steps: list[Step], state: InstallRecord) -> InstallRecord:
    """Remove the recorded folders above what `steps` delete that the whole of them leaves
    empty. Plans joined from parts (a client's files, then its instructions file) each saw only
    their own steps: a folder the parts share (`~/Documents/Cline` above Cline's hook and rules
    folders) is emptied by the parts together, and goes here, innermost first."""
    removed = [step.path for step in steps if isinstance(step, (DeleteFile, RemoveDir))]
    above = {parent for path in removed for parent in path.parents if str(parent) in state.dirs}
    for folder in sorted(above, key=lambda path: len(path.parts), reverse=True):
        state = without_dir(folder, steps, state)
    return state
